import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres } from './embedded-postgres.ts';

const EMBEDDED_DATABASE = 'tributary';

/** The database the service runs on: DATABASE_URL, or the embedded server under DATA_DIR/postgres. */
export async function resolveDatabase(config: Config, logger: Logger): Promise<{ url: string; stop(): Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => {} };
  const server = await startEmbeddedPostgres(path.join(config.dataDir, 'postgres'), logger, config.recovery.embeddedPostgresStartSeconds);
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [EMBEDDED_DATABASE]);
    if (!rowCount) await admin.query(`create database ${EMBEDDED_DATABASE}`);
  } finally {
    await admin.end();
  }
  return { url: server.urlFor(EMBEDDED_DATABASE), stop: () => server.stop() };
}
