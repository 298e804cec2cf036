import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { ENRICHMENT_VERSION } from '../../src/enrichment/pipeline.ts';
import { enrichedVersion, markEnriched } from '../../src/modules/categorization/categorization.store.ts';
import { FIRST_ROW, reenrichBehind } from '../../src/modules/categorization/reenrichment.ts';
import type { RowPosition } from '../../src/modules/transaction/transaction-enrichment.store.ts';
import { migrate, ormConfig } from '../../src/orm/orm.ts';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.ts';
import { JOB_SCHEMA } from '../../src/jobs/queue.ts';
import { createLogger } from '../../src/logger.ts';

export interface BenchDataset {
  url: string;
  dataDir: string;
  profiles: number;
  transactions: number;
  reused: boolean;
  stop(): Promise<void>;
}

const SIZES = { full: { profiles: 10_000, transactions: 1_000_000 }, quick: { profiles: 1_000, transactions: 100_000 } };

/**
 * The benchmark's database: the embedded PostgreSQL under .data/bench (or BENCH_DATABASE_ADMIN_URL's
 * server), one database per size, seeded once with `npm run seed` and reused while its counts match.
 */
export async function benchDataset(size: keyof typeof SIZES): Promise<BenchDataset> {
  const { profiles, transactions } = SIZES[size];
  const logger = createLogger('warn');
  const embedded = process.env.BENCH_DATABASE_ADMIN_URL ? undefined : await startEmbeddedPostgres(path.resolve('.data/bench/postgres'), logger);
  const adminUrl = process.env.BENCH_DATABASE_ADMIN_URL ?? embedded!.adminUrl;
  const name = `tributary_bench_${size}`;
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const dataDir = path.resolve('.data/bench', size);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  let reused = false;
  try {
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount;
    if (exists) reused = await holds(url, profiles, transactions);
    if (!reused) {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
    }
  } finally {
    await admin.end();
  }
  if (!reused) {
    await migrate(url, logger);
    console.log(`Seeding ${profiles.toLocaleString('en-US')} profiles and ${transactions.toLocaleString('en-US')} transactions (once; later runs reuse them)…`);
    execFileSync(process.execPath, ['scripts/seed.ts', '--profiles', String(profiles), '--transactions', String(transactions)], {
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, NODE_ENV: 'development' },
    });
    await onDatabase(url, (client) => client.query('vacuum analyze'));
  }
  await enrichedAtThisVersion(url, transactions, !reused);
  await nothingDue(url);
  return { url, dataDir, profiles, transactions, reused, stop: async () => embedded?.stop() };
}

/**
 * A reused dataset's transactions enriched again at this ENRICHMENT_VERSION, before any server starts:
 * after a version bump, a server re-enriches stored rows in the background (categorization.jobs.ts),
 * which would run beside the timed slices (a full run on 2026-12-04, right after version 9, measured
 * the page at a fifth of its rate). The same batches as the job, in this process, once. A dataset
 * seeded just now was enriched at this version as it was written (scripts/seed/dataset.ts): it is
 * only marked so, where enriching its million rows again would leave as many dead ones for
 * autovacuum to clear during the first run.
 */
async function enrichedAtThisVersion(url: string, transactions: number, seededNow: boolean): Promise<void> {
  const orm = await MikroORM.init(ormConfig(url, { poolMax: 2 }));
  try {
    const em = orm.em.fork();
    if ((await enrichedVersion(em)) >= ENRICHMENT_VERSION) return;
    if (seededNow) return await markEnriched(em, ENRICHMENT_VERSION);
    console.log(`Enriching ${transactions.toLocaleString('en-US')} transactions again at ENRICHMENT_VERSION ${ENRICHMENT_VERSION} (once after a version bump)…`);
    const started = performance.now();
    for (let after: RowPosition | undefined = FIRST_ROW; after !== undefined; ) ({ next: after } = await reenrichBehind(em.fork(), after, 100));
    const seconds = (performance.now() - started) / 1000;
    console.log(`Enriched again in ${seconds.toFixed(1)} s (${Math.round(transactions / seconds).toLocaleString('en-US')} transactions/s).`);
    await markEnriched(em, ENRICHMENT_VERSION);
  } finally {
    await orm.close();
  }
}

/**
 * Nothing of the dataset's own left for a server to do while it is timed: no seeded connection due
 * for its scheduled sync, and no job that an earlier run queued and stopped before doing. Each
 * server runs the 15-minute sync cron; on a dataset seeded over SYNC_INTERVAL_HOURS ago a tick
 * queued a sync of every connection (1,000 on the quick dataset, 10,000 on the full one), run by
 * the servers beside the timed slices and, past the run's end, by the next run's. Connections synced
 * over an hour ago are marked synced now (a run takes minutes; marking every one each run would
 * leave 10,000 dead rows a run). The runs' own work (webhooks, live events) is queued by the runs.
 */
async function nothingDue(url: string): Promise<void> {
  await onDatabase(url, async (client) => {
    await client.query(`update connection set last_synced_at = now() where status = 'SYNCED' and last_synced_at < now() - interval '1 hour'`);
    // pg-boss makes its schema when a server first starts: a dataset just seeded has none yet.
    if ((await client.query<{ made: boolean }>(`select to_regclass('${JOB_SCHEMA}.job') is not null as made`)).rows[0]!.made) {
      await client.query(`delete from ${JOB_SCHEMA}.job where state in ('created', 'retry', 'active')`);
    }
  });
}

/** `work` on one connection to the dataset's database, closed after it whatever happens. */
async function onDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function holds(url: string, profiles: number, transactions: number): Promise<boolean> {
  return onDatabase(url, async (client) => {
    try {
      const { rows } = await client.query<{ profiles: number; transactions: number; migrated: boolean }>(
        `select (select count(*)::int from profile) as profiles, (select count(*)::int from transaction) as transactions,
                exists (select 1 from mikro_orm_migrations) as migrated`,
      );
      return rows[0].profiles === profiles && rows[0].transactions === transactions;
    } catch {
      return false;
    }
  });
}
