import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { openScratchServer } from '../../src/db/scratch.ts';
import { loadTls } from '../../src/http/tls.ts';
import { encodeId } from '../../src/lib/ids.ts';
import { createLogger } from '../../src/logger.ts';
import { EnvironmentAdmin } from '../../src/modules/environment/environment.service.ts';
import { migrate, ormConfig } from '../../src/orm/orm.ts';
import { loadSecrets } from '../../src/secrets.ts';
import { startServer, stopServer } from './load.ts';
import { measureScale } from './scale-measure.ts';
import { reportScale, type ScaleSize } from './scale-report.ts';
import { diskUse, growProfiles, seedEvents, seedTemplates, setDueConnections } from './scale-seed.ts';

/** Transactions of each profile: a larger size has more profiles, not longer histories. */
export const PER_PROFILE = 1000;
/** Connections due for a scheduled sync at every size. */
const DUE = 20;
const API_KEYS = 20;

/**
 * `npm run bench -- --scale [--sizes 1000000,10000000] [--keep]`: the hot paths of issue #34 at each
 * size of transactions (PER_PROFILE per profile; as many events), grown in one scratch database
 * (BENCH_DATABASE_ADMIN_URL's server, or an embedded one under .data/bench), measured through a
 * Tributary API process (ROLE=api: no relay or cron of its own beside the bench's). Prints the timings,
 * the ratio of the largest size to the smallest, the seeding time and the disk per row, and writes
 * bench/results/<time>-scale.json. The database is dropped at the end unless `keep`.
 */
export async function scaleBench({ sizes, keep, port }: { sizes: number[]; keep: boolean; port: number }): Promise<void> {
  const bad = sizes.filter((size) => !Number.isInteger(size / PER_PROFILE) || size / PER_PROFILE < 4);
  if (bad.length > 0 || sizes.length === 0) throw new Error(`--sizes: each a multiple of ${PER_PROFILE}, at least ${4 * PER_PROFILE} (got ${bad.join(', ')})`);
  const logger = createLogger('warn');
  const scratch = await openScratchServer(path.resolve('.data/bench'), 'scale', logger, process.env.BENCH_DATABASE_ADMIN_URL);
  const database = await scratch.createDatabase();
  const dataDir = path.resolve('.data/bench/scale');
  mkdirSync(dataDir, { recursive: true });
  const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'development' });
  const tls = await loadTls(config);
  const ca = readFileSync(tls.selfSignedPath!, 'utf8');
  const { cipher } = loadSecrets(config);
  const url = `https://localhost:${port}`;
  const results: ScaleSize[] = [];
  const db = new pg.Client({ connectionString: database.url });
  let orm: MikroORM | undefined;
  try {
    execFileSync(process.execPath, ['scripts/build.ts', '--if-stale'], { stdio: 'inherit' });
    await migrate(database.url, logger);
    await db.connect();
    orm = await MikroORM.init(ormConfig(database.url, { poolMax: 2 }));
    const admin = new EnvironmentAdmin(orm.em.fork());
    const environment = await admin.createEnvironment('Scale bench', 'SANDBOX');
    const apiKeys: string[] = [];
    for (let i = 0; i < API_KEYS; i++) apiKeys.push((await admin.createKey(encodeId('environment', environment.id), `scale ${i}`)).secret);
    await seedTemplates(database.url, { environmentId: environment.id, cipher, perProfile: PER_PROFILE });
    const [quiet] = (await db.query<{ id: string }>('select id from profile order by id limit 1')).rows;

    for (const size of sizes) {
      const profiles = size / PER_PROFILE;
      console.log(`\nSize ${size.toLocaleString('en-US')}: ${profiles.toLocaleString('en-US')} profiles × ${PER_PROFILE} transactions, ${size.toLocaleString('en-US')} events`);
      const seeding = { transactionsSeconds: 0, eventsSeconds: 0, vacuumSeconds: 0 };
      let started = performance.now();
      await growProfiles(db, environment.id, profiles, (count) => process.stderr.write(`\r  profiles ${count.toLocaleString('en-US')} / ${profiles.toLocaleString('en-US')}`));
      seeding.transactionsSeconds = seconds(started);
      process.stderr.write(`\n  transactions seeded in ${seeding.transactionsSeconds} s\n`);
      started = performance.now();
      await seedEvents(db, environment.id, size, quiet!.id);
      seeding.eventsSeconds = seconds(started);
      console.log(`  events seeded in ${seeding.eventsSeconds} s`);
      const due = await setDueConnections(db, DUE);
      started = performance.now();
      await db.query('vacuum analyze');
      seeding.vacuumSeconds = seconds(started);
      const disk = await diskUse(db, ['transaction', 'event']);

      const server = await startServer(
        ['sh', 'scripts/start.sh'],
        { DATABASE_URL: database.url, DATA_DIR: dataDir, ROLE: 'api', TRUST_PROXY: 'true', LOG_LEVEL: 'warn', NODE_ENV: 'development', PORT: String(port) },
        { url, ca },
      );
      try {
        const timings = await measureScale({ url, ca, orm, db, cipher, environmentId: environment.id, apiKeys, quietProfileId: quiet!.id, due });
        results.push({ size, profiles, events: size, seeding, disk, timings });
      } finally {
        await stopServer(server);
      }
    }
  } finally {
    await orm?.close();
    await db.end();
    if (keep) console.log(`\nKept the database: ${database.url}`);
    else await scratch.dropDatabase(database.name);
    await scratch.stop();
  }
  reportScale(results);
}

const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(1));
