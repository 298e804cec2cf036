import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('configuration', () => {
  it('has working defaults for a fresh machine', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8443, host: '127.0.0.1', trustProxy: false, databaseUrl: undefined, tls: undefined, logLevel: 'info' });
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it('names every invalid variable at once', () => {
    expect(() => loadConfig({ PORT: 'eighty', TRUST_PROXY: 'yes', DATABASE_URL: 'mysql://x', TLS_CERT_FILE: 'a.crt', LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', TRUST_PROXY: 'yes', DATABASE_URL: 'mysql://x', TLS_CERT_FILE: 'a.crt', LOG_LEVEL: 'loud' });
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'TRUST_PROXY', 'DATABASE_URL', 'TLS_CERT_FILE', 'LOG_LEVEL']) expect(message).toContain(name);
    }
  });

  it('refuses to run production on generated secrets or the embedded database', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/ENCRYPTION_KEYS[\s\S]*SESSION_SECRET[\s\S]*DATABASE_URL/);
  });

  it('rejects a short session secret without echoing it', () => {
    expect(() => loadConfig({ SESSION_SECRET: 'hunter2' })).toThrow(/SESSION_SECRET must be at least 32 characters/);
    expect(() => loadConfig({ SESSION_SECRET: 'hunter2' })).not.toThrow(/hunter2/);
  });

  it('reads SESSION_KEYS newest first, takes it in production instead of SESSION_SECRET, and names a bad entry without echoing it', () => {
    const [s2, s1] = ['b'.repeat(32), 'a'.repeat(40)];
    expect(loadConfig({ SESSION_KEYS: `s2:${s2},s1:${s1}` }).sessionKeys).toEqual([
      { id: 's2', secret: s2 },
      { id: 's1', secret: s1 },
    ]);
    const production = { NODE_ENV: 'production', ENCRYPTION_KEYS: 'k1:x', DATABASE_URL: 'postgres://db/tributary' };
    expect(() => loadConfig({ ...production, SESSION_KEYS: `s1:${s1}` })).not.toThrow();
    expect(() => loadConfig({ ...production, SESSION_SECRET: s1 })).not.toThrow();
    expect(() => loadConfig(production)).toThrow(/SESSION_KEYS \(or SESSION_SECRET\) is required when NODE_ENV=production/);
    expect(() => loadConfig({ SESSION_KEYS: 's1:hunter2' })).toThrow(/SESSION_KEYS key "s1" must be at least 32 characters/);
    expect(() => loadConfig({ SESSION_KEYS: 's1:hunter2' })).not.toThrow(/hunter2/);
  });

  it('keeps blobs on the filesystem by default, and reads BLOB_STORE=s3 with path style on, the secret never in an error', () => {
    expect(loadConfig({}).blobStore).toEqual({ driver: 'fs' });
    const s3 = { BLOB_STORE: 's3', S3_ENDPOINT: 'https://garage.internal:3900/', S3_BUCKET: 'statements', S3_ACCESS_KEY_ID: 'GK1', S3_SECRET_ACCESS_KEY: 'hunter2-secret' };
    expect(loadConfig(s3).blobStore).toEqual({
      driver: 's3',
      s3: { endpoint: 'https://garage.internal:3900', region: 'us-east-1', bucket: 'statements', accessKeyId: 'GK1', secretAccessKey: 'hunter2-secret', forcePathStyle: true, caFile: undefined },
    });
    expect(loadConfig({ ...s3, S3_REGION: 'auto', S3_FORCE_PATH_STYLE: 'false' }).blobStore).toMatchObject({ s3: { region: 'auto', forcePathStyle: false } });
    const bad = { ...s3, S3_ENDPOINT: 'ftp://x', S3_BUCKET: 'Bad_Bucket', S3_FORCE_PATH_STYLE: 'yes', S3_ACCESS_KEY_ID: '' };
    expect(() => loadConfig(bad)).toThrow(/S3_ACCESS_KEY_ID is required when BLOB_STORE=s3[\s\S]*S3_BUCKET must be 3-63[\s\S]*S3_ENDPOINT must be a URL[\s\S]*S3_FORCE_PATH_STYLE must be "true" or "false"/);
    expect(() => loadConfig(bad)).not.toThrow(/hunter2/);
    expect(() => loadConfig({ BLOB_STORE: 's3' })).toThrow(/S3_BUCKET is required[\s\S]*S3_ACCESS_KEY_ID is required[\s\S]*S3_SECRET_ACCESS_KEY is required/);
  });

  it('names S3 settings given without BLOB_STORE=s3, and a driver it does not know', () => {
    expect(() => loadConfig({ S3_BUCKET: 'statements', S3_SECRET_ACCESS_KEY: 'hunter2-secret' })).toThrow(/S3_BUCKET applies only with BLOB_STORE=s3[\s\S]*S3_SECRET_ACCESS_KEY applies only/);
    expect(() => loadConfig({ BLOB_STORE: 'gcs' })).toThrow(/BLOB_STORE must be one of fs, s3, got "gcs"/);
  });

  it('turns OpenID Connect sign-in on only with issuer, client id and secret together, the secret never in an error', () => {
    expect(loadConfig({}).oidc).toBeUndefined();
    const oidc = { OIDC_ISSUER: 'https://sso.example.com/realms/ops', OIDC_CLIENT_ID: 'tributary', OIDC_CLIENT_SECRET: 'hunter2-secret' };
    expect(loadConfig(oidc).oidc).toEqual({ issuer: oidc.OIDC_ISSUER, clientId: 'tributary', clientSecret: 'hunter2-secret', scopes: 'openid email', name: 'sso.example.com', caFile: undefined });
    expect(loadConfig({ ...oidc, OIDC_SCOPES: 'profile groups', OIDC_NAME: 'Keycloak' }).oidc).toMatchObject({ scopes: 'profile groups openid email', name: 'Keycloak' });
    expect(() => loadConfig({ ...oidc, OIDC_ISSUER: 'http://sso.example.com', OIDC_CLIENT_ID: '' })).toThrow(/OIDC_CLIENT_ID is required when OIDC_ISSUER and OIDC_CLIENT_SECRET are set[\s\S]*OIDC_ISSUER must be a URL starting with https:\/\//);
    expect(() => loadConfig({ ...oidc, OIDC_CLIENT_ID: '' })).not.toThrow(/hunter2/);
    expect(() => loadConfig({ OIDC_NAME: 'Keycloak' })).toThrow(/OIDC_NAME applies only with OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET set/);
  });
});
