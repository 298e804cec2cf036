import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import { startEmbeddedPostgres } from './embedded-postgres.ts';

export interface ScratchServer {
  /** Creates an empty database (optionally a copy of `template`) and returns its URL. */
  createDatabase(template?: string): Promise<{ name: string; url: string }>;
  dropDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A PostgreSQL server for throwaway databases (tests, migration checks): the server behind
 * `adminUrl` when given, otherwise an embedded one under `dataDir/<purpose>-postgres` (started with
 * `settings`).
 */
export async function openScratchServer(
  dataDir: string,
  purpose: string,
  logger: Logger,
  adminUrl?: string,
  settings: Record<string, string> = {},
): Promise<ScratchServer> {
  const embedded = adminUrl ? undefined : await startEmbeddedPostgres(path.join(dataDir, `${purpose}-postgres`), logger, undefined, settings);
  const admin = adminUrl ?? embedded!.adminUrl;
  const urlFor = (database: string) => {
    const url = new URL(admin);
    url.pathname = `/${database}`;
    return url.toString();
  };
  const run = (sql: string) => runOnce(admin, sql);
  return {
    async createDatabase(template) {
      const name = `tributary_${purpose.replaceAll('-', '_')}_${randomBytes(5).toString('hex')}`;
      await run(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
      return { name, url: urlFor(name) };
    },
    dropDatabase: (name) => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    stop: async () => embedded?.stop(),
  };
}

/** Runs one statement on its own connection (database DDL cannot run in a pooled transaction). */
export async function runOnce(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
