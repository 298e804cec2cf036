import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { ENRICHMENT_VERSION } from '../../src/enrichment/pipeline.ts';
import { enrichedVersion, markEnriched } from '../../src/modules/categorization/categorization.store.ts';
import { FIRST_ID, reenrichBehind } from '../../src/modules/categorization/reenrichment.ts';
import { migrate, ormConfig } from '../../src/orm/orm.ts';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.ts';
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
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('vacuum analyze');
    await client.end();
  }
  await enrichedAtThisVersion(url, transactions);
  return { url, dataDir, profiles, transactions, reused, stop: async () => embedded?.stop() };
}

/**
 * A reused dataset's transactions enriched again at this ENRICHMENT_VERSION, before any server starts:
 * after a version bump, a server re-enriches stored rows in the background (categorization.jobs.ts),
 * which would run beside the timed slices (a full run on 2026-12-04, right after version 9, measured
 * the page at a fifth of its rate). The same batches as the job, in this process, once.
 */
async function enrichedAtThisVersion(url: string, transactions: number): Promise<void> {
  const orm = await MikroORM.init(ormConfig(url, { poolMax: 2 }));
  try {
    const em = orm.em.fork();
    if ((await enrichedVersion(em)) >= ENRICHMENT_VERSION) return;
    console.log(`Enriching ${transactions.toLocaleString('en-US')} transactions again at ENRICHMENT_VERSION ${ENRICHMENT_VERSION} (once after a version bump)…`);
    for (let after: string | undefined = FIRST_ID; after !== undefined; ) ({ next: after } = await reenrichBehind(em.fork(), after, 100));
    await markEnriched(em, ENRICHMENT_VERSION);
  } finally {
    await orm.close();
  }
}

async function holds(url: string, profiles: number, transactions: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ profiles: number; transactions: number; migrated: boolean }>(
      `select (select count(*)::int from profile) as profiles, (select count(*)::int from transaction) as transactions,
              exists (select 1 from mikro_orm_migrations) as migrated`,
    );
    return rows[0].profiles === profiles && rows[0].transactions === transactions;
  } catch {
    return false;
  } finally {
    await client.end();
  }
}
