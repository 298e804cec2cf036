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
});
