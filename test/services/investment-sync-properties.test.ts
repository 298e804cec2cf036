import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { ConnectionService } from '../../src/modules/connection/connection.service.ts';
import { removeProfile } from '../../src/modules/profile/profile.store.ts';
import { syncConnection, type SyncDependencies } from '../../src/modules/sync/sync-engine.ts';
import { WHOLE_HISTORY } from '../../src/modules/sync/product-steps.ts';
import type { SyncObservers } from '../../src/modules/sync/sync-steps.ts';
import { createLogger } from '../../src/logger.ts';
import { Metrics } from '../../src/metrics/metrics.ts';
import type { InvestmentSnapshot } from '../../src/providers/provider-investments.ts';
import { ModelBrokerage, type BrokerCommand } from '../support/model-brokerage.ts';
import { ModelInstitution } from '../support/model-institution.ts';
import { ModelInvestmentProvider, WorkerKilled, modelLogin } from '../support/model-providers.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

/*
 * Property tests of the investments and liabilities steps of a sync: random brokerage histories
 * (buys, sales, price changes, corrections, cancellations, debts changing) interleaved with syncs
 * whose worker dies in a step, or that two workers run at once. After every sync: one holding per
 * position, one row per investment transaction, a holding's id kept while its security stays in
 * its account; after every successful sync, exactly what the brokerage reports.
 * PROPERTY_SEED / PROPERTY_PATH replay a failure, PROPERTY_RUNS sets the runs per property.
 */

const SEED = Number(process.env.PROPERTY_SEED ?? 20261126);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 20);
const PATH = process.env.PROPERTY_PATH || undefined;

interface SyncStep {
  crashIn: 'investments' | 'liabilities' | null;
  workers: 1 | 2;
  /** Whether to check the store against the brokerage after it (default: yes). */
  check?: boolean;
}

interface Scenario {
  accounts: number;
  history: BrokerCommand[];
  rounds: Array<{ commands: BrokerCommand[]; sync: SyncStep }>;
}

let db: TestDatabase;
let build: Builders;
let profileId: string;

withServiceTier((tier) => ({ db, build } = tier));
beforeAll(async () => {
  profileId = (await build.profile()).id;
});

describe('the investments and liabilities steps, over random histories', () => {
  it('store exactly what the brokerage reports, through workers killed between steps', async () => {
    await holds(scenario(1), play);
  }, 180_000);

  it('never duplicate or lose a holding or an investment transaction when two workers sync at once', async () => {
    await holds(scenario(2), play, Math.ceil(RUNS / 2));
  }, 180_000);
});

describe('the investments and liabilities events', () => {
  it('fire once per sync that changed something, and not for a sync that changed nothing', async () => {
    const { provider, store, sync } = await setUp(2);
    provider.brokerage.apply({ kind: 'buy', account: 0, security: 1, units: 3, daysAgo: 2 });
    await sync();
    expect(await store.events()).toEqual({ holdings: 1, liabilities: 1 });
    await sync();
    expect(await store.events()).toEqual({ holdings: 1, liabilities: 1 });
    provider.brokerage.apply({ kind: 'reprice', security: 1, cents: 19_012 });
    await sync();
    expect(await store.events()).toEqual({ holdings: 2, liabilities: 1 });
    provider.brokerage.apply({ kind: 'owe', account: 1, cents: 123_456 });
    await sync();
    expect(await store.events()).toEqual({ holdings: 2, liabilities: 2 });
  });

  it('keep a holding’s id while its security stays in the account, and store quantities and prices exactly', async () => {
    const { provider, store, sync } = await setUp(1);
    provider.brokerage.apply({ kind: 'buy', account: 0, security: 3, units: 7, daysAgo: 1 });
    await sync();
    const [first] = await store.holdings();
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    // The first sync reads all the activity the upstream keeps, the next ones 30 days before the last.
    expect(provider.lastStart).toBe(WHOLE_HISTORY);
    provider.brokerage.apply({ kind: 'buy', account: 0, security: 3, units: 2, daysAgo: 0 });
    provider.brokerage.apply({ kind: 'reprice', security: 3, cents: 6_543_210 });
    await sync();
    const [second] = await store.holdings();
    expect(provider.lastStart).toBe(daysAgo(30));
    expect(second!.id).toBe(first!.id);
    expect(second!.quantity).toBe('0.0011111103');
    expect(second!.price).toBe('65432.1000000007');
  });
});

describe('what a snapshot names that the connection cannot match', () => {
  it('is logged once and counted: holdings and activity of an unknown account and holdings of an unknown security left out, activity of an unknown security kept without it', async () => {
    const metrics = new Metrics();
    const logs: string[] = [];
    const logger = createLogger('warn', { write: (line: string) => void logs.push(line) });
    const { provider, store, sync } = await setUp(1, profileId, { metrics, logger });
    provider.brokerage.apply({ kind: 'buy', account: 0, security: 1, units: 3, daysAgo: 2 });
    provider.brokerage.apply({ kind: 'buy', account: 0, security: 2, units: 5, daysAgo: 1 });
    const snapshot = provider.brokerage.snapshot.bind(provider.brokerage);
    // An upstream naming an account it never listed and a security it does not describe.
    provider.brokerage.snapshot = (start: string): InvestmentSnapshot => {
      const reported = snapshot(start);
      const [holding, other] = reported.holdings as [InvestmentSnapshot['holdings'][number], InvestmentSnapshot['holdings'][number]];
      const [trade, second] = reported.transactions! as [NonNullable<InvestmentSnapshot['transactions']>[number], NonNullable<InvestmentSnapshot['transactions']>[number]];
      return {
        ...reported,
        holdings: [holding, { ...other, securityRemoteId: 'SEC-UNDESCRIBED' }, { ...holding, accountRemoteId: 'acct-never-listed' }],
        transactions: [{ ...trade, securityRemoteId: 'SEC-UNDESCRIBED' }, { ...second, accountRemoteId: 'acct-never-listed' }],
      };
    };
    await sync({ crashIn: null, workers: 1, check: false });

    expect(await store.holdings()).toHaveLength(1);
    const activity = await db.sql('select remote_id, security_id from investment_transaction where connection_id = $1', [store.connectionId]);
    expect(activity).toEqual([{ remote_id: expect.any(String), security_id: null }]);
    const scrape = await metrics.scrape();
    expect(scrape).toContain('tributary_sync_investments_unmatched_total{provider="model",record="holding",missing="account"} 1');
    expect(scrape).toContain('tributary_sync_investments_unmatched_total{provider="model",record="holding",missing="security"} 1');
    expect(scrape).toContain('tributary_sync_investments_unmatched_total{provider="model",record="investment_transaction",missing="account"} 1');
    expect(scrape).toContain('tributary_sync_investments_unmatched_total{provider="model",record="investment_transaction",missing="security"} 1');
    expect(logs.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        msg: 'sync found holdings or investment transactions naming an unknown account or security',
        connectionId: store.connectionId,
        provider: 'model',
        holdingsOfUnknownAccounts: 1,
        holdingsOfUnknownSecurities: 1,
        investmentTransactionsOfUnknownAccounts: 1,
        investmentTransactionsOfUnknownSecurities: 1,
        accountRemoteIds: ['acct-never-listed'],
        securityRemoteIds: ['SEC-UNDESCRIBED'],
      }),
    ]);
  });
});

describe('deleting a profile', () => {
  it('removes its holdings, investment transactions and liabilities, and leaves the securities (reference data)', async () => {
    const { provider, store, sync } = await setUp(2, (await build.profile()).id);
    provider.brokerage.apply({ kind: 'buy', account: 1, security: 0, units: 3, daysAgo: 2 });
    provider.brokerage.apply({ kind: 'owe', account: 0, cents: 5_000 });
    await sync();
    const counts = async () =>
      (await db.sql(
        `select (select count(*) from holding where connection_id = $1)::int as holdings, (select count(*) from investment_transaction where connection_id = $1)::int as activity,
                (select count(*) from liability where connection_id = $1)::int as liabilities, (select count(*) from security)::int as securities`,
        [store.connectionId],
      ))[0];
    const before = await counts();
    expect(before).toMatchObject({ holdings: 1, activity: 1, liabilities: 2 });
    const [owner] = await db.sql('select profile_id from connection where id = $1', [store.connectionId]);
    await db.em().transactional((tx) => removeProfile(tx, owner.profile_id));
    expect(await counts()).toEqual({ holdings: 0, activity: 0, liabilities: 0, securities: before.securities });
  });
});

async function holds(arbitrary: fc.Arbitrary<Scenario>, predicate: (scenario: Scenario) => Promise<void>, runs = RUNS): Promise<void> {
  const details = await fc.check(fc.asyncProperty(arbitrary, predicate), { seed: SEED, path: PATH, numRuns: runs, includeErrorInReport: true });
  if (!details.failed) return;
  const replay = `PROPERTY_SEED=${details.seed} PROPERTY_PATH=${details.counterexamplePath} npx vitest run test/services/investment-sync-properties.test.ts`;
  throw new Error(`failed (seed ${details.seed}); replay with: ${replay}\n${(await fc.asyncDefaultReportMessage(details)) ?? ''}`);
}

const pick = fc.nat(30);

function brokerCommand(): fc.Arbitrary<BrokerCommand> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('buy' as const), account: fc.nat(2), security: fc.nat(4), units: fc.integer({ min: 1, max: 5000 }), daysAgo: fc.nat(20) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('sell' as const), pick, units: fc.integer({ min: 1, max: 20_000 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('reprice' as const), security: fc.nat(4), cents: fc.integer({ min: 1, max: 10_000_000 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('correct' as const), pick, cents: fc.integer({ min: -500_000, max: 500_000 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('owe' as const), account: fc.nat(2), cents: fc.integer({ min: 0, max: 5_000_000 }) }) },
  );
}

function scenario(workers: 1 | 2): fc.Arbitrary<Scenario> {
  const crashIn = workers === 2 ? fc.constant(null) : fc.constantFrom(null, 'investments' as const, 'liabilities' as const);
  return fc.record({
    accounts: fc.integer({ min: 1, max: 3 }),
    history: fc.array(brokerCommand(), { maxLength: 10, size: 'max' }),
    rounds: fc.array(fc.record({ commands: fc.array(brokerCommand(), { maxLength: 6, size: 'max' }), sync: fc.record({ crashIn, workers: fc.constant(workers) }) }), {
      minLength: 1,
      maxLength: 5,
      size: 'max',
    }),
  });
}

async function play({ accounts, history, rounds }: Scenario): Promise<void> {
  const { provider, store, sync } = await setUp(accounts);
  for (const command of history) provider.brokerage.apply(command);
  for (const round of rounds) {
    for (const command of round.commands) provider.brokerage.apply(command);
    await sync(round.sync);
  }
  await sync();
  // Nothing changed since: the last sync changes nothing and says so with no event.
  const events = await store.events();
  await sync();
  expect(await store.events()).toEqual(events);
}

/** A connection with the INVESTMENTS and LIABILITIES products to a model bank of `accounts` accounts and its brokerage. */
async function setUp(accounts: number, owner = profileId, observers: SyncObservers = {}) {
  const today = new Date().toISOString().slice(0, 10);
  const model = new ModelInstitution('CURSOR', { accounts, pageSize: 3, today });
  const provider = new ModelInvestmentProvider(model, new ModelBrokerage(model.accounts.map((account) => account.remoteId), today));
  const deps: SyncDependencies = { orm: db.orm, cipher: db.cipher, provider: async () => provider, ...observers };
  const service = new ConnectionService(db.em(), db.cipher, { environmentId: db.environmentId });
  const login = { ...modelLogin(), products: ['TRANSACTIONS', 'BALANCES', 'INVESTMENTS', 'LIABILITIES'] as const };
  const connectionId = (await service.create(await service.profileFor(encodeId('profile', owner)), 'model', { ...login, products: [...login.products] })).id;
  const store = new Store(connectionId, provider);
  const sync = async (step: SyncStep = { crashIn: null, workers: 1 }) => {
    provider.crashIn = step.crashIn;
    const results = await Promise.allSettled(Array.from({ length: step.workers }, () => syncConnection(deps, connectionId)));
    const crashed = step.crashIn !== null && provider.crashIn === null;
    provider.crashIn = null;
    for (const result of results) if (result.status === 'rejected' && !(crashed && result.reason instanceof WorkerKilled)) throw result.reason;
    if (step.check !== false) await store.check(!crashed);
  };
  return { provider, store, sync };
}

interface HoldingRow {
  id: string;
  account: string;
  security: string;
  quantity: string;
  price: string;
  value: string;
}

/** What the connection stores, checked against the brokerage. */
class Store {
  readonly connectionId: string;
  readonly #provider: ModelInvestmentProvider;
  /** The holdings of the last check, by `account security`. */
  #held = new Map<string, string>();

  constructor(connectionId: string, provider: ModelInvestmentProvider) {
    this.connectionId = connectionId;
    this.#provider = provider;
  }

  holdings(): Promise<HoldingRow[]> {
    return db.sql<HoldingRow>(
      `select h.id, a.remote_id as account, s.identity as security, h.quantity::text as quantity, h.price::text as price, trim_scale(h.value)::text as value
         from holding h join account a on a.id = h.account_id join security s on s.id = h.security_id
        where h.connection_id = $1 order by a.remote_id, s.identity`,
      [this.connectionId],
    );
  }

  async events(): Promise<{ holdings: number; liabilities: number }> {
    const rows = await db.sql<{ type: string; count: number }>(
      `select type, count(*)::int as count from event where type in ('holdings.updated', 'liabilities.updated') and payload->'record'->>'id' = $1 group by type`,
      [encodeId('connection', this.connectionId)],
    );
    const count = (type: string) => rows.find((row) => row.type === type)?.count ?? 0;
    return { holdings: count('holdings.updated'), liabilities: count('liabilities.updated') };
  }

  /**
   * Always: one holding per position, keeping its id while the position lasts. After a successful
   * sync: the brokerage's holdings, investment activity and debts, exactly.
   */
  async check(synced: boolean): Promise<void> {
    const holdings = await this.holdings();
    const held = new Map<string, string>();
    for (const holding of holdings) {
      const key = `${holding.account} ${holding.security}`;
      if (held.has(key)) throw new Error(`two holdings of ${key}`);
      held.set(key, holding.id);
      const before = this.#held.get(key);
      if (before && before !== holding.id) throw new Error(`the holding of ${key} was ${before} and is now ${holding.id}`);
    }
    this.#held = held;
    const activity = await db.sql<{ account: string; remote_id: string; quantity: string; amount: string; security: string | null }>(
      `select a.remote_id as account, t.remote_id, trim_scale(t.quantity)::text as quantity, trim_scale(t.amount)::text as amount, s.identity as security
         from investment_transaction t join account a on a.id = t.account_id left join security s on s.id = t.security_id
        where t.connection_id = $1 order by a.remote_id, t.remote_id`,
      [this.connectionId],
    );
    const keys = activity.map((row) => `${row.account} ${row.remote_id}`);
    expect(new Set(keys).size, 'one row per investment transaction').toBe(keys.length);
    if (!synced) return;
    const reported = this.#provider.brokerage.snapshot(this.#provider.lastStart!);
    const identity = new Map(reported.securities.map((security) => [security.remoteId, security]));
    const identityOf = (remoteId: string) => {
      const security = identity.get(remoteId)!;
      return security.isin ? `isin:${security.isin}` : security.cusip ? `cusip:${security.cusip}` : security.tickerSymbol ? `ticker:${security.tickerSymbol}:${security.type}:USD` : `model:${remoteId}`;
    };
    expect(holdings.map(({ account, security, quantity, price, value }) => ({ account, security, quantity, price, value }))).toEqual(
      reported.holdings
        .map((holding) => ({ account: holding.accountRemoteId, security: identityOf(holding.securityRemoteId), quantity: holding.quantity, price: holding.price, value: holding.value }))
        .sort((a, b) => `${a.account} ${a.security}`.localeCompare(`${b.account} ${b.security}`)),
    );
    expect(activity).toEqual(
      reported.transactions!
        .map((item) => ({ account: item.accountRemoteId, remote_id: item.remoteId, quantity: item.quantity, amount: item.amount, security: identityOf(item.securityRemoteId!) }))
        .sort((a, b) => `${a.account} ${a.remote_id}`.localeCompare(`${b.account} ${b.remote_id}`)),
    );
    const liabilities = await db.sql<{ account: string; minimum: string }>(
      `select a.remote_id as account, trim_scale(l.minimum_payment)::text as minimum from liability l join account a on a.id = l.account_id where l.connection_id = $1 order by a.remote_id`,
      [this.connectionId],
    );
    expect(liabilities).toEqual(this.#provider.brokerage.liabilities().map((liability) => ({ account: liability.accountRemoteId, minimum: liability.minimumPayment })));
  }
}
