import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keepRecentStatements, queryStats, statementsSince } from '../../src/db/query-stats.ts';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { syncConnection } from '../../src/modules/sync/sync-engine.ts';
import { builders } from '../support/builders.ts';
import { basicAuth, createProfile } from '../support/factories.ts';
import { ModelBrokerage } from '../support/model-brokerage.ts';
import { ModelInstitution } from '../support/model-institution.ts';
import { ModelInvestmentProvider } from '../support/model-providers.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { waitFor } from '../support/wait.ts';

// The statements this file counts are those the service sends in this process.
keepRecentStatements();

/*
 * Investments and liabilities through the HTTPS front door: a model brokerage's connection synced by
 * the real sync engine into the service's database, read over GraphQL with the profile's own
 * credentials (another profile's read nothing of it), with the pages' rules and cost limits; the
 * sync's holdings.updated and liabilities.updated reach a webhook subscription that names them.
 */

const today = new Date().toISOString().slice(0, 10);
let app: TestApp;
let owner: { id: string; auth: string; connectionId: string; accountIds: string[] };
let stranger: { id: string; auth: string };
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let webhookSecret: string;

/** A profile with one synced model connection of two investment accounts holding securities, and their debts. */
async function investedProfile() {
  const profile = await createProfile(app);
  const connection = await builders(app).connection({
    profile: { id: decodeId('profile', profile.id)! },
    provider: 'model',
    credential: 'model-login',
    status: 'SYNCED',
    lastSyncedAt: null,
    products: ['TRANSACTIONS', 'BALANCES', 'INVESTMENTS', 'LIABILITIES'],
  });
  const model = new ModelInstitution('CURSOR', { accounts: 2, pageSize: 5, today });
  for (const account of model.accounts) account.kind = 'INVESTMENT';
  const provider = new ModelInvestmentProvider(model, new ModelBrokerage(model.accounts.map((account) => account.remoteId), today));
  const { brokerage } = provider;
  brokerage.apply({ kind: 'buy', account: 0, security: 0, units: 4000, daysAgo: 10 });
  brokerage.apply({ kind: 'buy', account: 0, security: 1, units: 9, daysAgo: 8 });
  brokerage.apply({ kind: 'buy', account: 1, security: 3, units: 25, daysAgo: 5 });
  brokerage.apply({ kind: 'sell', pick: 0, units: 1000 });
  brokerage.apply({ kind: 'owe', account: 1, cents: 213_434 });
  await syncConnection({ orm: app.orm, cipher: app.cipher, provider: async () => provider }, connection.id);
  // Synced again with nothing changed: no second event of either kind.
  await syncConnection({ orm: app.orm, cipher: app.cipher, provider: async () => provider }, connection.id);
  const accounts = await app.sql<{ id: string }>('select id from account where connection_id = $1 order by remote_id', [connection.id]);
  return {
    id: profile.id as string,
    auth: basicAuth(profile.id, app.apiKey),
    connectionId: encodeId('connection', connection.id),
    accountIds: accounts.map((account) => encodeId('account', account.id)),
  };
}

beforeAll(async () => {
  app = await startTestApp({ WEBHOOK_CA_FILE: inject('tls').certFile });
  receiver = await startReceiver();
  const subscription = await app.http.post('/v1/webhooks/subscriptions', {
    auth: app.apiKey,
    json: { name: 'Portfolio', targetUrl: receiver.url, eventTypes: ['holdings.updated', 'liabilities'] },
  });
  expect(subscription.status, subscription.text).toBe(201);
  webhookSecret = subscription.body.secret;
  owner = await investedProfile();
  const other = await createProfile(app);
  stranger = { id: other.id, auth: basicAuth(other.id, app.apiKey) };
});
afterAll(async () => {
  await receiver?.close();
  await app?.stop();
});

async function graphql(auth: string, query: string, variables?: Record<string, unknown>) {
  return app.http.post('/v1/graphql', { auth, json: { query, variables } });
}

async function data(query: string, variables?: Record<string, unknown>, auth = owner.auth) {
  const response = await graphql(auth, query, variables);
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return response.body.data;
}

const HOLDINGS = `query Holdings($first: Int, $after: String, $last: Int, $before: String, $filter: HoldingFilter) {
  holdings(first: $first, after: $after, last: $last, before: $before, filter: $filter) {
    count
    edges { cursor node { id } }
    nodes { id accountId quantity price priceDate value costBasis currencyCode lastSeenAt remoteData account { id kind } security { id name tickerSymbol isin cusip type currencyCode } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

describe('holdings', () => {
  it('are the profile’s positions with their securities, quantities and prices exact', async () => {
    const { holdings } = await data(HOLDINGS);
    expect(holdings.count).toBe(3);
    expect(holdings.nodes.map((holding: { id: string }) => holding.id)).toEqual(holdings.edges.map((edge: { node: { id: string } }) => edge.node.id));
    const vti = holdings.nodes.find((holding: { security: { tickerSymbol: string } }) => holding.security.tickerSymbol === 'VTI');
    expect(vti).toMatchObject({ accountId: owner.accountIds[0], quantity: 0.3938268, price: 0.1, currencyCode: 'USD', costBasis: null, account: { kind: 'INVESTMENT' } });
    expect(vti.security).toMatchObject({ id: expect.stringMatching(/^sec_/), name: 'Vanguard Total Stock Market ETF', isin: 'US9229087690', type: 'ETF' });
    expect(vti.id).toMatch(/^hld_/);
    expect(vti.remoteData).toEqual({ model: { position: `acc0\ns0` } });
  });

  it('filter by account and security type, and page like transactions', async () => {
    const { holdings: crypto } = await data(HOLDINGS, { filter: { securityTypes: ['CRYPTOCURRENCY'] } });
    expect(crypto.nodes.map((holding: { security: { tickerSymbol: string } }) => holding.security.tickerSymbol)).toEqual(['BTC']);
    const { holdings: second } = await data(HOLDINGS, { filter: { accountIds: [owner.accountIds[1], 'acct_nonsense'] } });
    expect(second.count).toBe(1);
    const { holdings: first } = await data(HOLDINGS, { first: 2 });
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const { holdings: rest } = await data(HOLDINGS, { first: 2, after: first.pageInfo.endCursor });
    expect(rest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const { holdings: all } = await data(HOLDINGS, { first: 100 });
    expect([...first.nodes, ...rest.nodes].map((holding: { id: string }) => holding.id)).toEqual(all.nodes.map((holding: { id: string }) => holding.id));
    const { holdings: last } = await data(HOLDINGS, { last: 1 });
    expect(last.nodes.map((holding: { id: string }) => holding.id)).toEqual([all.nodes.at(-1).id]);
  });

  it('refuse a malformed cursor or a negative page size as BAD_USER_INPUT', async () => {
    for (const variables of [{ after: 'not-a-cursor' }, { first: -1 }]) {
      const response = await graphql(owner.auth, HOLDINGS, variables);
      expect(response.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
  });

  it('are per account on Account.holdings, ordered by security name', async () => {
    const { account } = await data(`query($id: ID!) { account(id: $id) { holdings { security { name } quantity } } }`, { id: owner.accountIds[0] });
    expect(account.holdings.map((holding: { security: { name: string } }) => holding.security.name)).toEqual(['Apple Inc.', 'Vanguard Total Stock Market ETF']);
  });
});

describe('investment transactions', () => {
  const ACTIVITY = `query($filter: InvestmentTransactionFilter, $sort: TransactionSort) {
    investmentTransactions(first: 100, filter: $filter, sort: $sort) { count nodes { id date type subtype quantity amount currencyCode description security { tickerSymbol } account { id } } }
  }`;

  it('are the activity with Tributary’s signs: a buy takes cash (negative), a sale brings it (positive)', async () => {
    const { investmentTransactions } = await data(ACTIVITY);
    expect(investmentTransactions.count).toBe(4);
    expect(investmentTransactions.nodes[0]).toMatchObject({ id: expect.stringMatching(/^itx_/), date: today, type: 'SELL', quantity: -0.1, security: { tickerSymbol: 'VTI' } });
    expect(investmentTransactions.nodes[0].amount).toBeGreaterThan(0);
    for (const buy of investmentTransactions.nodes.filter((node: { type: string }) => node.type === 'BUY')) expect(buy.amount).toBeLessThan(0);
  });

  it('filter by type, account, security and date', async () => {
    const { investmentTransactions: buys } = await data(ACTIVITY, { filter: { types: ['BUY'], accountIds: [owner.accountIds[0]] } });
    expect(buys.count).toBe(2);
    const { holdings } = await data(`{ holdings(filter: { securityTypes: [CRYPTOCURRENCY] }) { nodes { security { id } } } }`);
    const { investmentTransactions: bitcoin } = await data(ACTIVITY, { filter: { securityIds: [holdings.nodes[0].security.id] } });
    expect(bitcoin.nodes.map((node: { security: { tickerSymbol: string } }) => node.security.tickerSymbol)).toEqual(['BTC']);
    const { investmentTransactions: recent } = await data(ACTIVITY, { filter: { date_gte: today }, sort: 'DATE_ASC' });
    expect(recent.nodes.map((node: { type: string }) => node.type)).toEqual(['SELL']);
  });
});

describe('liabilities', () => {
  it('are on each account, owed amounts negative', async () => {
    const { account } = await data(`query($id: ID!) { account(id: $id) { liability { kind aprs { type percentage balanceSubjectToApr } minimumPayment lastStatementBalance isOverdue interestRateType updatedAt } } }`, {
      id: owner.accountIds[1],
    });
    expect(account.liability).toMatchObject({
      kind: 'CREDIT',
      aprs: [{ type: 'purchase_apr', percentage: 24.99, balanceSubjectToApr: -2134.34 }],
      minimumPayment: -42.68,
      lastStatementBalance: -2134.34,
      isOverdue: false,
      interestRateType: null,
    });
    expect(new Date(account.liability.updatedAt).toISOString()).toBe(account.liability.updatedAt);
  });
});

describe('tenancy and limits', () => {
  it('another profile reads none of it', async () => {
    const { holdings, investmentTransactions } = await data(`{ holdings { count nodes { id } } investmentTransactions { count nodes { id } } }`, {}, stranger.auth);
    expect(holdings).toEqual({ count: 0, nodes: [] });
    expect(investmentTransactions).toEqual({ count: 0, nodes: [] });
    const response = await graphql(stranger.auth, `query($id: ID!) { account(id: $id) { holdings { id } liability { kind } } }`, { id: owner.accountIds[0] });
    expect(response.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('a page of holdings or investment transactions with accounts and securities is read in a fixed number of SQL statements', async () => {
    // Background work shares the counter: count the statements on the tables of the page only.
    const statements = async (field: string, first: number) => {
      const before = queryStats.statements;
      const result = await data(`{ page: ${field}(first: ${first}) { nodes { id security { id name } account { id name balance { current } holdings { id } liability { kind } } } } }`);
      expect(result.page.nodes).toHaveLength(first);
      return statementsSince(before).filter((sql) => /\b(holding|investment_transaction|security|account|balance|liability)\b/.test(sql)).length;
    };
    for (const field of ['holdings', 'investmentTransactions']) expect(await statements(field, 3), field).toBe(await statements(field, 1));
  });

  it('a page of holdings costs its page size, like a page of transactions', async () => {
    const aliases = (first: number) => `{ ${Array.from({ length: 20 }, (_, index) => `h${index}: holdings(first: ${first}) { nodes { security { id } account { id } } }`).join(' ')} }`;
    const tooCostly = await graphql(owner.auth, aliases(100));
    expect(tooCostly.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(tooCostly.body.data).toBeUndefined();
    await data(aliases(1));
  });
});

describe('events', () => {
  it('holdings.updated and liabilities.updated are delivered signed, once each for a sync that changed them, with the connection as record', async () => {
    await waitFor(async () => (receiver.received.length >= 2 ? true : undefined), 'both deliveries');
    const events = receiver.received.map((delivery) => new Webhook(webhookSecret).verify(delivery.body, delivery.headers) as { type: string; record: { id: string } });
    expect(events.map((event) => event.type).sort()).toEqual(['holdings.updated', 'liabilities.updated']);
    for (const event of events) expect(event.record.id).toBe(owner.connectionId);
    // Two syncs, the second with nothing changed (the model's provider name is no contract ProviderName: the log is read in SQL).
    const recorded = await app.sql("select type from event where type in ('holdings.updated', 'liabilities.updated') order by type");
    expect(recorded.map((event) => event.type)).toEqual(['holdings.updated', 'liabilities.updated']);
  });
});
