/**
 * `npm run seed -- --profiles N --transactions M [--environment env_…]`: fills the database with N
 * profiles and about M transactions in all, made by the sandbox institutions' generator (each profile
 * gets one sandbox connection with its accounts, balances and most recent transactions), written
 * with bulk inserts. Works on DATABASE_URL or the embedded PostgreSQL under DATA_DIR, like the CLI.
 */
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { resolveDatabase } from '../src/db/database.ts';
import { migrate, openDatabase, underStartupLock } from '../src/orm/orm.ts';
import { decodeId, uuidv7 } from '../src/lib/ids.ts';
import { createLogger } from '../src/logger.ts';
import { bootstrap, readBootstrapFile } from '../src/modules/environment/bootstrap.ts';
import { SandboxProvider } from '../src/providers/sandbox/sandbox-provider.ts';
import { loadSecrets } from '../src/secrets.ts';
import { insertRows, seedProfile, type SeedRows } from './seed/dataset.ts';

const { values } = parseArgs({
  options: {
    profiles: { type: 'string', default: '100' },
    transactions: { type: 'string', default: '10000' },
    environment: { type: 'string' },
  },
});
const profiles = Number(values.profiles);
const transactions = Number(values.transactions);
if (!Number.isInteger(profiles) || profiles < 1 || !Number.isInteger(transactions) || transactions < 0) {
  console.error('usage: npm run seed -- --profiles <N ≥ 1> --transactions <M ≥ 0> [--environment env_…]');
  process.exit(2);
}

const config = loadConfig();
mkdirSync(config.dataDir, { recursive: true });
const logger = createLogger('warn');
const database = await resolveDatabase(config, logger);
await underStartupLock(database.url, () => migrate(database.url, logger));
const orm = await openDatabase(database.url);
const bootstrapped = await bootstrap(orm, config.dataDir);
await orm.close();
const environmentPublicId = values.environment ?? readBootstrapFile(bootstrapped.file)?.environmentId;
const environmentId = environmentPublicId && decodeId('environment', environmentPublicId);
if (!environmentId) {
  console.error('error: pass --environment env_… (no bootstrap environment in this DATA_DIR)');
  process.exit(2);
}

const perProfile = Math.floor(transactions / profiles);
const { cipher } = loadSecrets(config);
// A history just long enough for each profile's share of transactions, in one sync page.
const sandbox = new SandboxProvider({ historyDays: Math.ceil(perProfile / 1.5) + 5, pageSize: Number.MAX_SAFE_INTEGER });
const pool = new pg.Pool({ connectionString: database.url, max: 3 });
const started = Date.now();
const BATCH_PROFILES = Math.max(1, Math.min(500, Math.floor(20_000 / Math.max(1, perProfile))));
let written = 0;
let profilesWritten = 0;
let batch: SeedRows = emptyRows();
const inFlight = new Set<Promise<void>>();

for (let index = 0; index < profiles; index++) {
  const extra = index < transactions % profiles ? 1 : 0;
  await seedProfile(batch, { sandbox, cipher, environmentId, index, transactions: perProfile + extra, idOf: uuidv7 });
  if (batch.profiles.length >= BATCH_PROFILES || index === profiles - 1) {
    const rows = batch;
    batch = emptyRows();
    const write = insertRows(pool, rows).then(() => {
      written += rows.transactions.length;
      profilesWritten += rows.profiles.length;
      progress(profilesWritten);
    });
    inFlight.add(write);
    void write.finally(() => inFlight.delete(write));
    // Generating the next batch overlaps with writing this one; at most two writes at a time.
    if (inFlight.size >= 2) await Promise.race(inFlight);
  }
}
await Promise.all(inFlight);
await pool.end();
await database.stop();
process.stderr.write('\n');
console.log(`seeded ${profiles} profiles and ${written} transactions into ${environmentPublicId} in ${((Date.now() - started) / 1000).toFixed(1)} s`);

function emptyRows(): SeedRows {
  return { profiles: [], connections: [], accounts: [], balances: [], transactions: [] };
}

function progress(profilesDone: number): void {
  const share = profilesDone / profiles;
  const width = 30;
  const bar = '#'.repeat(Math.round(share * width)).padEnd(width, '.');
  const seconds = (Date.now() - started) / 1000;
  process.stderr.write(`\r[${bar}] ${(share * 100).toFixed(0).padStart(3)}%  ${written.toLocaleString('en-US')} transactions  ${Math.round(written / seconds).toLocaleString('en-US')}/s`);
}
