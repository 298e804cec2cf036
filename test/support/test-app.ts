import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { runOnce } from '../../src/db/scratch.ts';
import { createLogger } from '../../src/logger.ts';
import { startService, type RunningService } from '../../src/service.ts';
import { httpClient, type HttpClient } from './http-client.ts';

export interface TestApp {
  service: RunningService;
  http: HttpClient;
  databaseUrl: string;
  dataDir: string;
  /** The bootstrap environment's API key. */
  apiKey: string;
  /** Direct SQL on this app's database, for assertions about what is stored. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc SELECTs read like response bodies; a type per query would restate its SQL.
  sql<T extends pg.QueryResultRow = any>(text: string, values?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

/**
 * Boots the real service on an ephemeral port over HTTPS, on a database of its own cloned from the
 * migrated template, with a fresh DATA_DIR. One per test file (call in beforeAll).
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: {
    shareDatabaseOf?: TestApp;
    sandboxNow?: () => Date;
    /** A database the test set up itself (left in place at stop), instead of a clone of the template. */
    databaseUrl?: string;
  } = {},
): Promise<TestApp> {
  const { adminUrl, template } = inject('database');
  const tls = inject('tls');
  const name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const shared = options.shareDatabaseOf;
  const cloned = !shared && !options.databaseUrl;
  if (cloned) await runOnce(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  const databaseUrl = shared?.databaseUrl ?? options.databaseUrl ?? adminUrl.replace(/\/[^/]+$/, `/${name}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-test-'));
  // Instances of one deployment share their secrets (encryption keys, session signing secret).
  if (shared) copyFileSync(path.join(shared.dataDir, 'secrets.json'), path.join(dataDir, 'secrets.json'));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    TLS_CERT_FILE: tls.certFile,
    TLS_KEY_FILE: tls.keyFile,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const service = await startService(config, createLogger(config.logLevel), { sandboxNow: options.sandboxNow });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const http = httpClient(`https://localhost:${service.port}`, readFileSync(tls.certFile, 'utf8'));
  return {
    service,
    http,
    databaseUrl,
    dataDir,
    apiKey: shared ? shared.apiKey : service.bootstrap.created!.apiKey,
    sql: async (text, values) => (await pool.query(text, values)).rows,
    async stop() {
      http.close();
      await pool.end();
      await service.stop();
      if (cloned) await runOnce(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

