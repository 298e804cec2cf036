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
});
