import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { FieldCipher } from '../../src/lib/field-cipher.ts';
import { decodeId } from '../../src/lib/ids.ts';
import { createLogger } from '../../src/logger.ts';
import { loadSecrets } from '../../src/secrets.ts';
import { startService, type RunningService } from '../../src/service.ts';
import { httpClient, type HttpClient } from './http-client.ts';
import { startS3Server, type S3TestServer } from './s3-server.ts';
import { asTestSql, cloneTemplate, type BuildTarget } from './test-database.ts';

/** A running service; builders (test/support/builders.ts) write to its database with its own cipher. */
export interface TestApp extends BuildTarget {
  service: RunningService;
  /** The service's ORM. */
  orm: MikroORM;
  /** The service's FieldCipher (the keys of its configuration or of DATA_DIR/secrets.json). */
  cipher: FieldCipher;
  /** Stored uuid of the bootstrap environment, which `apiKey` belongs to. */
  environmentId: string;
  http: HttpClient;
  databaseUrl: string;
  dataDir: string;
  /** The bootstrap environment's API key. */
  apiKey: string;
  /** The S3 server the service keeps its blobs in (option `blobStore: 's3'`); undefined on the filesystem driver. */
  s3: S3TestServer | undefined;
  /** Direct SQL on this app's database, for assertions about what is stored. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc SELECTs read like response bodies; a type per query would restate its SQL.
  sql: <T extends pg.QueryResultRow = any>(text: string, values?: readonly unknown[]) => Promise<T[]>;
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
    /** The sandbox's seed for each new connection (src/service.ts ServiceOptions.sandboxSeed). */
    sandboxSeed?: () => string;
    /** The console sessions' clock (src/service.ts ServiceOptions.now). */
    now?: () => Date;
    /** A database the test set up itself (left in place at stop), instead of a clone of the template. */
    databaseUrl?: string;
    /** Where the service's log lines go (at LOG_LEVEL), instead of stdout. */
    log?: DestinationStream;
    /** `s3`: blobs (statements) in an s3rver of the app's own, over loopback HTTPS; default the filesystem under DATA_DIR. */
    blobStore?: 'fs' | 's3';
  } = {},
): Promise<TestApp> {
  const tls = inject('tls');
  const shared = options.shareDatabaseOf;
  const clone = shared || options.databaseUrl ? undefined : await cloneTemplate();
  const databaseUrl = shared?.databaseUrl ?? options.databaseUrl ?? clone!.url;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-test-'));
  const s3 = options.blobStore === 's3' ? await startS3Server() : undefined;
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
    // A failed job comes back within seconds rather than the production default's 5, 10, 20…
    JOB_RETRY_DELAY_SECONDS: '1',
    ...s3?.env,
    ...env,
  });
  const service = await startService(config, createLogger(config.logLevel, options.log), { sandboxNow: options.sandboxNow, sandboxSeed: options.sandboxSeed, now: options.now, consoleDir: inject('consoleDir') });
  // A database the test set up itself may be on another server (a replica's primary), where the test code's role does not exist.
  const onTestServer = new URL(databaseUrl).host === new URL(inject('database').adminUrl).host;
  const pool = new pg.Pool({ connectionString: onTestServer ? asTestSql(databaseUrl) : databaseUrl, max: 2 });
  const http = httpClient(`https://localhost:${service.port}`, readFileSync(tls.certFile, 'utf8'));
  const apiKey = shared ? shared.apiKey : service.bootstrap.created!.apiKey;
  return {
    service,
    orm: service.orm,
    cipher: loadSecrets(config).cipher,
    environmentId: shared ? shared.environmentId : decodeId('environment', service.bootstrap.created!.environmentId)!,
    http,
    databaseUrl,
    dataDir,
    apiKey,
    s3,
    sql: async (text, values) => (await pool.query(text, values && [...values])).rows,
    async stop() {
      http.close();
      await pool.end();
      await service.stop();
      await clone?.drop();
      await s3?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

