import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { Logger } from 'pino';
import { entities } from './entities.ts';
import { countStatement } from '../db/query-stats.ts';
import { SessionGuardPostgreSqlDriver } from '../db/session-guard.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../db/migrations', import.meta.url));
/** The migrations are compiled with this module: `.ts` run from the sources, `.js` from dist/. */
const MIGRATIONS_GLOB = `*${path.extname(fileURLToPath(import.meta.url))}`;

/** The ORM configuration for a database URL; shared by the service, the CLI scripts and the tests. */
export function ormConfig(clientUrl: string, options: { poolMax?: number } = {}) {
  return defineConfig({
    // Connections whose BEGIN or ROLLBACK failed go back to the pool; sessions not opened say so (src/db/session-guard.ts).
    driver: SessionGuardPostgreSqlDriver,
    clientUrl,
    // MikroORM keeps only the host, port, user, password and database of clientUrl: pg reads the rest
    // of the URL itself (sslmode, `options` such as the statement timeout).
    driverOptions: { connectionString: clientUrl },
    entities,
    extensions: [Migrator],
    pool: { min: 0, max: options.poolMax ?? 10 },
    migrations: {
      path: MIGRATIONS_DIR,
      glob: MIGRATIONS_GLOB,
      tableName: 'mikro_orm_migrations',
      // Each migration in a transaction of its own, unless it opts out (isTransactional): a migration
      // that moves a large table or builds an index concurrently commits step by step
      // (docs/decisions/migrations-large-tables.md), which one transaction around them all would forbid.
      transactional: true,
      allOrNothing: false,
      snapshot: false,
      emit: 'ts',
      silent: true,
    },
    // Request code forks an EntityManager per request; the global one must never hold state.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    onQuery: countStatement,
    ensureDatabase: false,
  });
}

/** Any stable 64-bit number: the advisory lock every instance takes to migrate (and bootstrap). */
const STARTUP_LOCK = 7_203_115_998_214_001n;

/**
 * Runs `step` while holding the startup advisory lock, so two instances starting at once never
 * migrate (or create the bootstrap environment) side by side: the second waits, then finds it done.
 */
export async function underStartupLock<T>(clientUrl: string, step: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: clientUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK.toString()]);
    return await step();
  } finally {
    await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK.toString()]).catch(() => undefined);
    await client.end();
  }
}

/** Applies every pending migration (no statement timeout: a migration may take long); returns their names. */
export async function migrate(clientUrl: string, logger: Logger): Promise<string[]> {
  const orm = await MikroORM.init(ormConfig(clientUrl, { poolMax: 1 }));
  try {
    const applied = (await orm.migrator.up()).map((migration) => migration.name);
    if (applied.length > 0) logger.info({ migrations: applied }, 'applied database migrations');
    return applied;
  } finally {
    await orm.close();
  }
}

/** Connects for serving; refuses a database that still has pending migrations (run `npm run migrate`). */
export async function openDatabase(clientUrl: string, options: { poolMax?: number; statementTimeoutMs?: number } = {}): Promise<MikroORM> {
  const orm = await MikroORM.init(ormConfig(withStatementTimeout(clientUrl, options.statementTimeoutMs), { poolMax: options.poolMax }));
  const pending = await orm.migrator.getPending();
  if (pending.length > 0) {
    await orm.close();
    throw new UnmigratedDatabase(`the database has ${pending.length} pending migration(s) (${pending.map((migration) => migration.name).join(', ')}): run \`npm run migrate\` or start with MIGRATE_ON_START=true`);
  }
  return orm;
}

/**
 * A second ORM on the same database, with a pool of its own (SYNC_POOL_MAX), for the provider-facing
 * jobs: every statement of a sync runs on it, in one transaction style, seen by the statement
 * counter; and a burst of syncs waits for its own connections instead of taking the requests'. No
 * migration check: the service's main ORM has made it.
 */
export async function openSyncDatabase(clientUrl: string, options: { poolMax: number; statementTimeoutMs: number }): Promise<MikroORM> {
  return MikroORM.init(ormConfig(withStatementTimeout(clientUrl, options.statementTimeoutMs), { poolMax: options.poolMax }));
}

/**
 * Connects to a read replica (DATABASE_REPLICA_URL). No migration check: a streaming replica is a copy
 * of the primary and follows its migrations by itself. Every session is read-only, so a write sent
 * here by mistake fails loudly, even on a replica that would accept it (a logical subscriber).
 */
export async function openReplica(clientUrl: string, options: { poolMax: number; statementTimeoutMs: number }): Promise<MikroORM> {
  const url = withSetting(withStatementTimeout(clientUrl, options.statementTimeoutMs), 'default_transaction_read_only', 'on');
  return MikroORM.init(ormConfig(url, { poolMax: options.poolMax }));
}

/** A process told not to migrate found a database that needs it. */
export class UnmigratedDatabase extends Error {}

/** The URL with a server-side statement timeout for every session opened with it. */
export function withStatementTimeout(clientUrl: string, milliseconds: number | undefined): string {
  return milliseconds ? withSetting(clientUrl, 'statement_timeout', String(milliseconds)) : clientUrl;
}

/** The URL with a server setting for every session opened with it. */
function withSetting(clientUrl: string, name: string, value: string): string {
  const url = new URL(clientUrl);
  url.searchParams.set('options', `${url.searchParams.get('options') ?? ''} -c ${name}=${value}`.trim());
  return url.toString();
}

/** How long a stop waits for a pool's connections to come back before it leaves them. */
const POOL_CLOSE_MS = 5_000;

/**
 * Closes an ORM's pool, waiting at most POOL_CLOSE_MS for connections still checked out: by the time
 * a stop closes the pools, requests and jobs are done, so one still out was never given back, and
 * pg's pool.end() would wait for it forever. (kysely leaked the connection of a failed BEGIN, as an
 * outage causes, until src/db/session-guard.ts gave it back: kysely-org/kysely#1990.)
 */
export async function closeWithin(orm: MikroORM, pool: string, logger: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), POOL_CLOSE_MS)));
  try {
    if ((await Promise.race([orm.close(), late])) === 'late') {
      logger.warn({ pool }, `the ${pool} database pool did not close in time: a connection was never given back; stopping without it`);
    }
  } finally {
    clearTimeout(timer);
  }
}
