import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { openScratchServer } from '../../src/db/scratch.ts';
import { loadTls } from '../../src/http/tls.ts';
import type { FieldCipher } from '../../src/lib/field-cipher.ts';
import { encodeId } from '../../src/lib/ids.ts';
import { createLogger } from '../../src/logger.ts';
import { EnvironmentAdmin } from '../../src/modules/environment/environment.service.ts';
import { migrate, ormConfig } from '../../src/orm/orm.ts';
import { loadSecrets } from '../../src/secrets.ts';
import { startServer, stopServer } from './load.ts';
import { hotPaths, interleaved, type Timing } from './scale-measure.ts';
import { reportScale, type ScaleSize } from './scale-report.ts';
import { diskUse, growProfiles, seedEvents, seedTemplates, setDueConnections } from './scale-seed.ts';

/** Transactions of each profile: a larger size has more profiles, not longer histories. */
export const PER_PROFILE = 1000;
/** Connections due for a scheduled sync at every size. */
const DUE = 20;
const API_KEYS = 20;

/**
 * `npm run bench -- --scale [--sizes 1000000,10000000] [--keep]`: the hot paths of issue #34 at each
 * size of transactions (PER_PROFILE per profile; as many events), each in a scratch database grown
 * from a copy of the size before (on BENCH_DATABASE_ADMIN_URL's server, or an embedded one under
 * .data/bench), measured through a Tributary API process per size (ROLE=api: no relay or cron of
 * its own beside the bench's), the sizes in turns. Prints the timings, the ratio of the largest size to the smallest, the seeding time and
 * the disk per row, and writes bench/results/<time>-scale.json. The databases are dropped at the end
 * unless `keep`.
 */
export async function scaleBench({ sizes, keep, port }: { sizes: number[]; keep: boolean; port: number }): Promise<void> {
  const bad = sizes.filter((size) => !Number.isInteger(size / PER_PROFILE) || size / PER_PROFILE < 10);
  if (bad.length > 0 || sizes.length === 0) throw new Error(`--sizes: each a multiple of ${PER_PROFILE}, at least ${10 * PER_PROFILE} (got ${bad.join(', ')})`);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const logger = createLogger('warn');
  const scratch = await openScratchServer(path.resolve('.data/bench'), 'scale', logger, process.env.BENCH_DATABASE_ADMIN_URL);
  const dataDir = path.resolve('.data/bench/scale');
  mkdirSync(dataDir, { recursive: true });
  const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'development' });
  const tls = await loadTls(config);
  const ca = readFileSync(tls.selfSignedPath!, 'utf8');
  const { cipher } = loadSecrets(config);
  const databases: Array<{ name: string; url: string }> = [];
  const seeded: Array<Omit<ScaleSize, 'timings'> & { due: number }> = [];
  const servers: ChildProcess[] = [];
  const orms: MikroORM[] = [];
  const clients: pg.Client[] = [];
  let timings: Array<Record<string, Timing>> = [];
  try {
    execFileSync(process.execPath, ['scripts/build.ts', '--if-stale'], { stdio: 'inherit' });
    const first = await scratch.createDatabase();
    databases.push(first);
    await migrate(first.url, logger);
    const { environmentId, apiKeys, quietProfileId } = await setUp(first.url, cipher);
    // Each size in a database of its own, grown from a copy of the one before, so that the sizes can be measured in turns.
    for (const [index, size] of sizes.entries()) {
      const copying = performance.now();
      const database = index === 0 ? first : await scratch.createDatabase(databases[index - 1]!.name);
      if (index > 0) databases.push(database);
      if (index > 0) console.log(`\nCopied the ${sizes[index - 1]!.toLocaleString('en-US')} database in ${seconds(copying)} s`);
      seeded.push(await seedSize(database.url, size, environmentId, quietProfileId));
    }
    const paths = [];
    for (const [index, database] of databases.entries()) {
      const url = `https://localhost:${port + index}`;
      const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, ROLE: 'api', TRUST_PROXY: 'true', LOG_LEVEL: 'warn', NODE_ENV: 'development', PORT: String(port + index) };
      servers.push(await startServer(['sh', 'scripts/start.sh'], env, { url, ca }));
      const orm = await MikroORM.init(ormConfig(database.url, { poolMax: 2 }));
      orms.push(orm);
      const db = new pg.Client({ connectionString: database.url });
      clients.push(db);
      await db.connect();
      paths.push(await hotPaths({ url, ca, orm, db, cipher, environmentId, apiKeys, quietProfileId, due: seeded[index]!.due }));
    }
    console.log('\nTiming each path at each size in turns…');
    timings = await interleaved(paths);
  } finally {
    await Promise.all(servers.map(stopServer));
    for (const orm of orms) await orm.close();
    for (const client of clients) await client.end();
    if (keep) console.log(`\nKept the databases: ${databases.map((database) => database.url).join(', ')}`);
    else for (const database of databases) await scratch.dropDatabase(database.name);
    await scratch.stop();
  }
  reportScale(seeded.map(({ due: _due, ...size }, index) => ({ ...size, timings: timings[index]! })), commit);
}

/** The bench's environment, its API keys and the template profiles (the first of which, with no events, is the quiet one). */
async function setUp(url: string, cipher: FieldCipher): Promise<{ environmentId: string; apiKeys: string[]; quietProfileId: string }> {
  const orm = await MikroORM.init(ormConfig(url, { poolMax: 2 }));
  try {
    const admin = new EnvironmentAdmin(orm.em.fork());
    const environment = await admin.createEnvironment('Scale bench', 'SANDBOX');
    const apiKeys: string[] = [];
    for (let i = 0; i < API_KEYS; i++) apiKeys.push((await admin.createKey(encodeId('environment', environment.id), `scale ${i}`)).secret);
    await seedTemplates(url, { environmentId: environment.id, cipher, perProfile: PER_PROFILE });
    const [quiet] = await orm.em.getConnection().execute<Array<{ id: string }>>('select id from profile order by id limit 1');
    return { environmentId: environment.id, apiKeys, quietProfileId: quiet!.id };
  } finally {
    await orm.close();
  }
}

/** Grows the database to `size` transactions and as many events, timed, and reads the disk they take. */
async function seedSize(url: string, size: number, environmentId: string, quietProfileId: string): Promise<Omit<ScaleSize, 'timings'> & { due: number }> {
  const profiles = size / PER_PROFILE;
  console.log(`\nSize ${size.toLocaleString('en-US')}: ${profiles.toLocaleString('en-US')} profiles × ${PER_PROFILE} transactions, ${size.toLocaleString('en-US')} events`);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    let started = performance.now();
    await growProfiles(db, environmentId, profiles, (count) => process.stderr.write(`\r  profiles ${count.toLocaleString('en-US')} / ${profiles.toLocaleString('en-US')}`));
    const transactionsSeconds = seconds(started);
    process.stderr.write(`\n  transactions seeded in ${transactionsSeconds} s\n`);
    started = performance.now();
    await seedEvents(db, environmentId, size, quietProfileId);
    const eventsSeconds = seconds(started);
    console.log(`  events seeded in ${eventsSeconds} s`);
    const due = await setDueConnections(db, DUE);
    started = performance.now();
    await db.query('vacuum analyze');
    const vacuumSeconds = seconds(started);
    const disk = await diskUse(db, ['transaction', 'event']);
    return { size, profiles, events: size, seeding: { transactionsSeconds, eventsSeconds, vacuumSeconds }, disk, due };
  } finally {
    await db.end();
  }
}

const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(1));
