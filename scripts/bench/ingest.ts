import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { ormConfig } from '../../src/orm/orm.ts';
import type { FieldCipher } from '../../src/lib/field-cipher.ts';
import { encodeId, uuidv7 } from '../../src/lib/ids.ts';
import { enricherOf } from '../../src/modules/categorization/categorizer.ts';
import { memoizedEnrich } from '../../src/modules/categorization/pipeline-memo.ts';
import { ConnectionService } from '../../src/modules/connection/connection.service.ts';
import { providerHints } from '../../src/modules/transaction/provider-hints.ts';
import { investmentStart } from '../../src/modules/sync/product-steps.ts';
import { BATCH_ROWS, syncConnection } from '../../src/modules/sync/sync-engine.ts';
import type { Provider } from '../../src/providers/provider.ts';
import type { SyncPage } from '../../src/providers/provider-records.ts';
import { SandboxProvider } from '../../src/providers/sandbox/sandbox-provider.ts';
import { copyLines } from '../seed/dataset.ts';
import { processCpuMs } from './load.ts';

export interface IngestResult {
  transactions: number;
  syncPerSecond: number;
  copyPerSecond: number;
  /** What enriching one transaction costs (the pipeline and the categorizer, as the sync runs them), in µs. */
  enrichMicros: number;
  /** The share of the sync's time that enrichment takes. */
  enrichShare: number;
  /** CPU a transaction, in µs: this process's and the database's (its backends for this database, and its WAL writer), during the sync and during COPY. */
  cpuMicros: { sync: number; syncDatabase: number; copy: number; copyDatabase: number };
}

const PAGE_SIZE = 500;

/**
 * An initial sync of about `target` transactions through the real sync engine (pages of 500, each in
 * its own database transaction, as a provider delivers them), against COPY of the same rows into the
 * same table (its indexes, foreign key and rows). The provider's pages are generated before the clock starts.
 */
export async function measureIngest(url: string, cipher: FieldCipher, profileId: string, environmentId: string, target: number): Promise<IngestResult> {
  const orm = await MikroORM.init(ormConfig(url, { poolMax: 4 }));
  try {
    // A smaller sync and its COPY first, untimed: what is timed is a service's first sync of a
    // connection after it has synced others, the code compiled, as COPY's is after its own first run.
    await ingestOnce(orm, url, cipher, profileId, environmentId, WARM_UP);
    return await ingestOnce(orm, url, cipher, profileId, environmentId, target);
  } finally {
    await orm.close();
  }
}

/** Transactions of the untimed first sync: a few batches, enough for the compiler. */
const WARM_UP = 5_000;

async function ingestOnce(orm: MikroORM, url: string, cipher: FieldCipher, profileId: string, environmentId: string, target: number): Promise<IngestResult> {
  // First Platypus produces about 2.1 transactions a day: a history long enough for `target`.
  const sandbox = new SandboxProvider({ historyDays: Math.ceil(target / 2.1), pageSize: PAGE_SIZE });
  const connections = new ConnectionService(orm.em.fork(), cipher, { environmentId });
  const linked = await sandbox.completeLink({ institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good', products: undefined, webhookUrl: '' });
  const connection = await connections.create(await connections.profileFor(encodeId('profile', profileId)), sandbox.name, linked);
  const token = cipher.decrypt('credential', connection, connection.credentialEncrypted);
  const pages = new Map<string | null, SyncPage>();
  let cursor: string | null = null;
  for (;;) {
    const page = await sandbox.syncTransactions(token, cursor);
    pages.set(cursor, page);
    if (!page.hasMore) break;
    cursor = page.nextCursor;
  }
  // Everything else a first sync reads (accounts with balances, holdings and activity, liabilities)
  // is read now too: the sandbox computes a household's whole history per call, work a real
  // provider does on its side, which the clock must not count. A read the sync makes with other
  // arguments fails the bench rather than being computed on the clock.
  const answers = new Map<string, unknown>([
    [`accounts ${token}`, await sandbox.accounts(token)],
    [`investments ${token} ${investmentStart(null)}`, await sandbox.investments(token, investmentStart(null))],
    [`liabilities ${token}`, await sandbox.liabilities(token)],
  ]);
  const replay: Provider = new Proxy(sandbox, {
    get(target, property) {
      if (property === 'syncTransactions') return async (_token: string, from: string | null) => pages.get(from)!;
      if (typeof property === 'string' && ['accounts', 'investments', 'liabilities'].includes(property)) {
        return async (...args: string[]) => {
          const key = [property, ...args].join(' ');
          if (!answers.has(key)) throw new Error(`the sync read ${key}, which the bench did not read before the clock`);
          return answers.get(key);
        };
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const enrichMicros = enrichmentCost([...pages.values()]);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const database = await databaseCpu(client);
    const started = { at: performance.now(), cpu: process.cpuUsage(), database: await database.used() };
    await syncConnection({ orm, cipher, provider: async () => replay }, connection.id);
    const syncSeconds = (performance.now() - started.at) / 1000;
    const syncCpu = { process: cpuMsSince(started.cpu), database: (await database.used()) - started.database };
    const [{ n }] = (await client.query<{ n: number }>('select count(*)::int as n from transaction where connection_id = $1', [connection.id])).rows;
    const copy = await copyBaseline(client, connection.id, database);
    await client.query('delete from connection where id = $1', [connection.id]);
    const perTransaction = (ms: number) => Math.round((ms * 1000) / n);
    return {
      transactions: n,
      syncPerSecond: Math.round(n / syncSeconds),
      copyPerSecond: Math.round(n / copy.seconds),
      enrichMicros,
      enrichShare: (enrichMicros * n) / 1e6 / syncSeconds,
      cpuMicros: { sync: perTransaction(syncCpu.process), syncDatabase: perTransaction(syncCpu.database), copy: perTransaction(copy.cpu.process), copyDatabase: perTransaction(copy.cpu.database) },
    };
  } finally {
    await client.end();
  }
}

/**
 * µs per transaction to enrich every transaction of `pages` as the sync does (no corrections or rules
 * yet: a memo of the pipeline for each batch of BATCH_ROWS), timed on its own.
 */
function enrichmentCost(pages: SyncPage[]): number {
  const transactions = pages.flatMap((page) => [...page.added, ...page.modified]);
  const started = performance.now();
  let enrich = enricherOf(null, [], memoizedEnrich());
  for (const [index, { description, amount, enrichment }] of transactions.entries()) {
    if (index > 0 && index % BATCH_ROWS === 0) enrich = enricherOf(null, [], memoizedEnrich());
    enrich({ description, amount, currencyCode: 'USD', accountKind: 'DEPOSITORY', hints: providerHints(enrichment) });
  }
  return Math.round(((performance.now() - started) * 1000) / transactions.length * 10) / 10;
}

interface CopiedRow {
  profile_id: string;
  connection_id: string;
  account_id: string;
  remote_id: string;
  date: string | Date;
  description: string;
  amount: string;
  status: string;
  currency_code: string;
  remote_data: unknown;
}

/**
 * COPY of the same rows, under new remote ids, into the transaction table itself: the same indexes
 * (as large as the sync found them), the same foreign key, ids made as the sync makes them. The clock
 * covers writing the rows as COPY text (the sync's covers writing its pages as JSON). The copies go
 * with the connection.
 */
async function copyBaseline(client: pg.Client, connectionId: string, database: DatabaseCpu): Promise<{ seconds: number; cpu: { process: number; database: number } }> {
  const { rows } = await client.query<CopiedRow>(
    `select profile_id, connection_id, account_id, remote_id || '-copy' as remote_id, date, description, amount, status, currency_code, remote_data
       from transaction where connection_id = $1`,
    [connectionId],
  );
  const columns = ['id', 'profile_id', 'connection_id', 'account_id', 'remote_id', 'date', 'description', 'amount', 'status', 'currency_code', 'remote_data', 'created_at'];
  const started = { at: performance.now(), cpu: process.cpuUsage(), database: await database.used() };
  const now = new Date().toISOString();
  const values = rows.map((row) => [
    uuidv7(), row.profile_id, row.connection_id, row.account_id, row.remote_id, row.date, row.description, row.amount, row.status, row.currency_code, JSON.stringify(row.remote_data), now,
  ]);
  await client.query('begin');
  await pipeline(Readable.from(copyLines(values)), client.query(copyFrom(`copy transaction (${columns.join(', ')}) from stdin`)));
  await client.query('commit');
  const seconds = (performance.now() - started.at) / 1000;
  return { seconds, cpu: { process: cpuMsSince(started.cpu), database: (await database.used()) - started.database } };
}

/** This process's CPU (user and system) since `start`, in ms. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

interface DatabaseCpu {
  /** CPU used so far, in ms, by the backends of this database (the one asking among them) and the WAL writer. */
  used(): Promise<number>;
}

/**
 * The database server's CPU as /proc counts it (the server runs on this machine): a backend that
 * connects between two readings counts from zero, one that ends counts as it was last read.
 */
async function databaseCpu(client: pg.Client): Promise<DatabaseCpu> {
  const seen = new Map<number, number>();
  return {
    async used() {
      const { rows } = await client.query<{ pid: number }>(
        `select pid from pg_stat_activity where (datname = current_database() and backend_type = 'client backend') or backend_type = 'walwriter'`,
      );
      const now = new Map<number, number>();
      for (const { pid } of rows) now.set(pid, await processCpuMs(pid).catch(() => 0));
      let total = 0;
      for (const [pid, cpu] of seen) if (!now.has(pid)) total += cpu;
      for (const [pid, cpu] of now) {
        total += cpu;
        seen.set(pid, cpu);
      }
      return total;
    },
  };
}
