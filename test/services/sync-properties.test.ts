import fc from 'fast-check';
import type { GraphQLResolveInfo } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GraphQLContext } from '../../src/graphql/context.ts';
import { createLoaders } from '../../src/graphql/loaders.ts';
import { encodeId } from '../../src/lib/ids.ts';
import { ConnectionService } from '../../src/modules/connection/connection.service.ts';
import { syncConnection, type SyncDependencies } from '../../src/modules/sync/sync-engine.ts';
import { RECONCILIATION } from '../../src/modules/sync/window-reconciliation.ts';
import { transactionUpdate } from '../../src/modules/transaction/transaction.resolvers.ts';
import { MUTABLE_DAYS, ModelInstitution, daysBetween, descriptionOf, formatCents, type BankCommand, type BankView, type ModelTransaction, type SyncStyle } from '../support/model-institution.ts';
import { ModelCursorProvider, ModelWindowProvider, WorkerKilled, modelLogin, type Disruption } from '../support/model-providers.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

/*
 * Property tests of the sync engine: random histories of a model bank (purchases, pending charges
 * posting, corrections, removals, re-issued ids, days passing) interleaved with syncs that crash
 * between pages, meet a bank changing mid-walk, or run twice at once. After every sync the stored
 * transactions are checked against the bank. PROPERTY_SEED / PROPERTY_PATH replay a failure (both
 * are printed), PROPERTY_RUNS sets the runs per property.
 */

const SEED = envInteger('PROPERTY_SEED', 20261122);
const RUNS = envInteger('PROPERTY_RUNS', 25);
const PATH = process.env.PROPERTY_PATH || undefined;

interface SyncStep {
  disruption: Disruption | null;
  /** Workers running the sync at the same time. */
  workers: 1 | 2;
  /** Metadata is then set on the stored transaction at this index (modulo their number). */
  tag: number | null;
}

/** What the bank does, then a sync. */
interface Round {
  changes: BankCommand[];
  sync: SyncStep;
}

interface Scenario {
  accounts: number;
  pageSize: number;
  /** Purchases of the last weeks, before the first sync. */
  history: BankCommand[];
  rounds: Round[];
}

let db: TestDatabase;
let build: Builders;
/** transactionUpdate's resolver, a plain function (the schema is built from the same object). */
const updateTransaction = transactionUpdate as Extract<typeof transactionUpdate, (...args: never[]) => unknown>;
/** Stored uuid of the profile every connection of this file belongs to. */
let profileId: string;

withServiceTier((tier) => ({ db, build } = tier));
beforeAll(async () => {
  profileId = (await build.profile()).id;
});

describe('the sync engine, over random histories', () => {
  for (const style of ['CURSOR', 'WINDOW'] as const) {
    it(`stores exactly what a ${style.toLowerCase()} provider's bank holds, through crashes, retries and changes mid-walk`, async () => {
      await holds(`${style} property`, scenario(style, 1), (generated) => play(style, generated));
    }, 180_000);

    it(`never duplicates when two workers sync one ${style.toLowerCase()} connection at once`, async () => {
      await holds(`${style} concurrency property`, scenario(style, 2), (generated) => play(style, generated), Math.ceil(RUNS / 2));
    }, 180_000);
  }
});

/** A purchase of today, posted, for the examples below. */
const bought = (cents: number): BankCommand => ({ kind: 'purchase', account: 0, cents, daysAgo: 0, pending: false, decoration: 0 });

describe('the sync engine, on the counterexamples the properties found', () => {
  it('finishes a walk that crashed between pages after the bank changed: the retry restarts from the walk’s first cursor, not the page it stopped at', async () => {
    await play('CURSOR', {
      accounts: 1,
      pageSize: 3,
      history: [bought(1), bought(-1), bought(1), bought(-1)],
      rounds: [
        { changes: [], sync: { disruption: { kind: 'crash', afterPage: 0 }, workers: 1, tag: null } },
        { changes: [bought(1)], sync: { disruption: null, workers: 1, tag: null } },
      ],
    });
  });

  it('removes what a restarted walk no longer reports: a transaction its first attempt stored, then removed at the bank mid-walk', async () => {
    await play('CURSOR', {
      accounts: 1,
      pageSize: 3,
      history: [bought(1), bought(-1), bought(1), bought(-1)],
      rounds: [{ changes: [], sync: { disruption: { kind: 'change', afterPage: 0, change: { kind: 'remove', pick: 0 } }, workers: 1, tag: null } }],
    });
  });
});

describe('the sync engine, with two workers on one connection', () => {
  it('ends SYNCED (window provider) when the second worker read the connection before the first finished, and wrote SYNCING after', async () => {
    const model = new ModelInstitution('WINDOW', { accounts: 1, pageSize: 2, today: new Date().toISOString().slice(0, 10) });
    const provider = new ModelWindowProvider(model);
    const deps: SyncDependencies = { orm: db.orm, cipher: db.cipher, provider: async () => provider };
    const store = new Store(await newConnection(), model);
    await syncConnection(deps, store.connectionId);
    model.apply(bought(-1250));
    // The engine asks for its provider between reading the connection and writing SYNCING: the
    // second worker is held there while the first runs from start to end.
    const { promise: read, resolve: hasRead } = Promise.withResolvers<void>();
    const { promise: held, resolve: release } = Promise.withResolvers<void>();
    const late: SyncDependencies = { ...deps, provider: async () => (hasRead(), await held, provider) };
    const second = syncConnection(late, store.connectionId);
    await read;
    await syncConnection(deps, store.connectionId);
    release();
    await second;
    await store.check(provider.lastRead);
  });
});

/** Runs the property with the file's seed; a failure names the seed and path that replay it. */
async function holds(name: string, arbitrary: fc.Arbitrary<Scenario>, predicate: (scenario: Scenario) => Promise<void>, runs = RUNS): Promise<void> {
  const details = await fc.check(fc.asyncProperty(arbitrary, predicate), { seed: SEED, path: PATH, numRuns: runs, includeErrorInReport: true });
  if (!details.failed) return;
  const replay = `PROPERTY_SEED=${details.seed} PROPERTY_PATH=${details.counterexamplePath} npx vitest run test/services/sync-properties.test.ts`;
  throw new Error(`${name} failed (seed ${details.seed}); replay with: ${replay}\n${(await fc.asyncDefaultReportMessage(details)) ?? ''}`);
}

function scenario(style: SyncStyle, workers: 1 | 2): fc.Arbitrary<Scenario> {
  const history = purchase(45).map((command) => ({ ...command, pending: command.pending && command.daysAgo <= 3 }));
  return fc.record({
    accounts: fc.integer({ min: 1, max: 3 }),
    pageSize: fc.integer({ min: 1, max: 3 }),
    history: fc.array(history, { maxLength: 12, size: 'max' }),
    rounds: fc.array(fc.record({ changes: fc.array(bankCommand(style), { maxLength: 8, size: 'max' }), sync: syncStep(style, workers) }), { minLength: 1, maxLength: 5, size: 'max' }),
  });
}

const pick = fc.nat(40);
const cents = fc.oneof(fc.integer({ min: -40_000, max: -1 }), fc.integer({ min: 1, max: 250_000 }));
const decoration = fc.nat(8);

function purchase(maxDaysAgo: number) {
  return fc.record({ kind: fc.constant('purchase' as const), account: fc.nat(2), cents, daysAgo: fc.nat(maxDaysAgo), pending: fc.boolean(), decoration });
}

function bankCommand(style: SyncStyle): fc.Arbitrary<BankCommand> {
  const commands: fc.WeightedArbitrary<BankCommand>[] = [
    { weight: 4, arbitrary: purchase(3) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('post' as const), pick, days: fc.integer({ min: -1, max: 3 }), tipPercent: fc.oneof(fc.constant(0), fc.nat(30)), decoration, removedFirst: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), pick }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('modifyAmount' as const), pick, cents }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('modifyDescription' as const), pick, decoration }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 3 }) }) },
  ];
  if (style === 'WINDOW') commands.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('reissue' as const), daysAgo: fc.nat(MUTABLE_DAYS), span: fc.nat(4) }) });
  return fc.oneof(...commands);
}

function syncStep(style: SyncStyle, workers: 1 | 2): fc.Arbitrary<SyncStep> {
  const afterPage = fc.nat(3);
  const crash = fc.record({ kind: fc.constant('crash' as const), afterPage });
  const change = fc.record({ kind: fc.constant('change' as const), afterPage, change: bankCommand(style) });
  const disruption = workers === 2 ? fc.constant(null) : fc.oneof(fc.constant(null), crash, change);
  return fc.record({ disruption, workers: fc.constant(workers), tag: fc.option(fc.nat(40), { nil: null }) });
}

/** Plays one scenario on a new connection, checking the store after every sync and after a final one. */
async function play(style: SyncStyle, { accounts, pageSize, history, rounds }: Scenario): Promise<void> {
  const model = new ModelInstitution(style, { accounts, pageSize, today: new Date().toISOString().slice(0, 10) });
  for (const command of history) model.apply(command);
  const provider = style === 'CURSOR' ? new ModelCursorProvider(model) : new ModelWindowProvider(model);
  const deps: SyncDependencies = { orm: db.orm, cipher: db.cipher, provider: async () => provider };
  const store = new Store(await newConnection(), model);
  const sync = async (step: SyncStep) => {
    provider.disrupt(step.disruption);
    const results = await Promise.allSettled(Array.from({ length: step.workers }, () => syncConnection(deps, store.connectionId)));
    const crashed = provider.disrupted && step.disruption?.kind === 'crash';
    provider.disrupt(null);
    for (const result of results) if (result.status === 'rejected' && !(crashed && result.reason instanceof WorkerKilled)) throw result.reason;
    if (crashed) return store.check(null);
    const read = provider.lastRead!;
    await store.check(read);
    model.markSynced(read);
    await store.tag(step.tag);
  };
  for (const round of rounds) {
    for (const change of round.changes) model.apply(change);
    await sync(round.sync);
  }
  await sync({ disruption: null, workers: 1, tag: null });
}

/** A connection to the model bank made through the service but never enqueued: the property drives its syncs. */
async function newConnection(): Promise<string> {
  const service = new ConnectionService(db.em(), db.cipher, { environmentId: db.environmentId });
  return (await service.create(await service.profileFor(encodeId('profile', profileId)), 'model', modelLogin())).id;
}

interface StoredRow {
  id: string;
  remote_id: string;
  account: string;
  date: string;
  description: string;
  amount: string;
  status: 'PENDING' | 'POSTED';
  metadata: unknown;
}

/** What the connection stores, checked against the bank; remembers each purchase's Tributary id and metadata. */
class Store {
  readonly connectionId: string;
  readonly #model: ModelInstitution;
  readonly #ids = new Map<number, string>();
  readonly #tagged = new Set<number>();

  constructor(connectionId: string, model: ModelInstitution) {
    this.connectionId = connectionId;
    this.#model = model;
  }

  async rows(): Promise<StoredRow[]> {
    return db.sql<StoredRow>(
      `select t.id, t.remote_id, a.remote_id as account, to_char(t.date, 'YYYY-MM-DD') as date, t.description, t.amount::text as amount, t.status, t.metadata
         from transaction t join account a on a.id = t.account_id where t.connection_id = $1 order by t.remote_id`,
      [this.connectionId],
    );
  }

  /**
   * Always: the newest sync run in the history left the connection in its status; one row per
   * purchase (never a pending row beside its posted twin), each purchase keeps its Tributary id and
   * metadata. After a successful sync (`read`: the bank as it read it; null after a crash): exactly
   * the bank's transactions (ids, accounts, dates, amounts, statuses, descriptions), except that a
   * window provider's vanished pending charge may stay for the grace period.
   */
  async check(read: BankView | null): Promise<void> {
    const [connection] = await db.sql('select status from connection where id = $1', [this.connectionId]);
    expect(connection.status).toBe(read ? 'SYNCED' : 'ERROR_SERVICE');
    // The history agrees: the newest run recorded left the connection in that status.
    const [newest] = await db.sql('select status from connection_sync where profile_id = $1 and connection_id = $2 order by id desc limit 1', [profileId, this.connectionId]);
    expect(newest?.status, 'the status the newest recorded sync run left').toBe(connection.status);
    const rows = await this.rows();
    const purchases = new Map<number, StoredRow>();
    for (const row of rows) {
      const key = this.#model.keyOf(row.remote_id);
      if (key === undefined) throw new Error(`stored ${row.remote_id}, an id the bank never issued`);
      const twin = purchases.get(key);
      if (twin) throw new Error(`two rows for one purchase: ${twin.remote_id} (${twin.status}) and ${row.remote_id} (${row.status})`);
      purchases.set(key, row);
      const id = this.#ids.get(key) ?? row.id;
      if (row.id !== id) throw new Error(`purchase ${key} (now ${row.remote_id}) was stored as ${id} and is now ${row.id}: its id and metadata are lost`);
      this.#ids.set(key, id);
      expect(row.metadata, `metadata of ${row.remote_id}`).toEqual(this.#tagged.has(key) ? tagOf(key) : null);
    }
    if (!read) return;
    const stored = new Set(rows.filter((row) => !this.#inGrace(row, read)).map((row) => `${row.remote_id} ${row.account} ${row.date} ${row.amount.replace(/00$/, '')} ${row.status} ${row.description}`));
    const held = new Set(read.transactions.map(line));
    const missing = [...held].filter((transaction) => !stored.has(transaction));
    const extra = [...stored].filter((transaction) => !held.has(transaction));
    if (missing.length + extra.length > 0) throw new Error(`the store differs from the bank: missing [${missing.join('; ')}], not at the bank [${extra.join('; ')}]`);
  }

  /**
   * Sets metadata on one stored transaction through transactionUpdate's resolver, as a client's
   * mutation would (the context holds what it reads): it must follow the purchase from now on.
   */
  async tag(index: number | null): Promise<void> {
    const rows = await this.rows();
    if (index === null || rows.length === 0) return;
    const row = rows[index % rows.length]!;
    const key = this.#model.keyOf(row.remote_id)!;
    const em = db.em();
    const context = { em, sql: em, profileId, loaders: createLoaders({ em, sql: em }, { profileId, environmentId: db.environmentId }, db.cipher) } as GraphQLContext;
    const payload = await updateTransaction({}, { input: { id: encodeId('transaction', row.id), metadata: tagOf(key) } }, context, {} as GraphQLResolveInfo);
    expect(payload, JSON.stringify(payload.errors)).toMatchObject({ success: true });
    this.#tagged.add(key);
  }

  #inGrace(row: StoredRow, read: BankView): boolean {
    const key = this.#model.keyOf(row.remote_id);
    return (
      this.#model.style === 'WINDOW' &&
      row.status === 'PENDING' &&
      !read.transactions.some((transaction) => transaction.key === key) &&
      daysBetween(row.date, read.today) <= RECONCILIATION.pendingGraceDays
    );
  }
}

function line(transaction: ModelTransaction): string {
  return `${transaction.remoteId} ${transaction.accountRemoteId} ${transaction.date} ${formatCents(transaction.cents)} ${transaction.status} ${descriptionOf(transaction)}`;
}

function tagOf(key: number): Record<string, string> {
  return { note: `purchase ${key}` };
}

function envInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return value;
}
