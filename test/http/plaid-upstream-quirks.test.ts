import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { decodeId } from '../../src/lib/ids.ts';
import type { FakePlaid } from '../fakes/plaid/index.ts';
import { basicAuth } from '../support/factories.ts';
import { startPlaidApp } from '../support/plaid-app.ts';
import { plaidConnections } from '../support/plaid-connections.ts';
import type { TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/*
 * What Plaid does that its happy path does not show: accounts /auth/get leaves out, accounts only
 * /transactions/sync reports, requests it refuses as invalid, amounts with four fraction digits.
 */

let app: TestApp;
let plaid: FakePlaid;
const logs: string[] = [];
const { connectionRow, settled, connectPlaid, stored, expectSameAsInstitution, eventsOf, graphql } = plaidConnections(() => ({ app, plaid }));

beforeAll(async () => {
  ({ app, plaid } = await startPlaidApp({ LOG_LEVEL: 'warn', WEBHOOK_CA_FILE: inject('tls').certFile }, { logs }));
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await plaid?.stop();
});

/** A JSON line the service logged, as far as these tests read it. */
interface LogLine {
  msg: string;
  errorId?: string;
  connectionId?: string;
  err?: Record<string, unknown>;
}

/** The service's log lines with this message. */
function logged(message: string): LogLine[] {
  return logs.map((line) => JSON.parse(line) as LogLine).filter((line) => line.msg === message);
}

/** Plaid tells the service that the Item has new transactions (the service syncs it). */
async function announceUpdates(itemId: string): Promise<void> {
  const delivery = await plaid.fireWebhook(itemId, 'TRANSACTIONS', 'SYNC_UPDATES_AVAILABLE', { initial_update_complete: true, historical_update_complete: true });
  expect(delivery.status).toBe(200);
}

/** The connection's accounts by mask (the fake's: checking 0000, savings 1111, credit 3333, loan 7777, other 5555). */
async function accountsByMask(profileId: string): Promise<Map<string, { id: string; kind: string; verified: boolean }>> {
  const { data } = await graphql(profileId, '{ accounts { id mask kind verified } }');
  return new Map(data.accounts.map((account: { mask: string; id: string; kind: string; verified: boolean }) => [account.mask, account]));
}

describe('accounts Plaid reports in part', () => {
  it('leaves an account /auth/get has no ACH numbers for unverified, verifies the others, and the connection stays SYNCED', async () => {
    const { connection, itemId, profile } = await connectPlaid();
    const other = plaid.openAccount(itemId, 'other');
    await announceUpdates(itemId);
    const finished = await waitFor(async () => {
      const [account] = await app.sql('select id from account where remote_id = $1', [other]);
      const row = await connectionRow(connection.id);
      return account && row.status !== 'SYNCING' ? row : undefined;
    }, 'the sync that finds the new account');
    expect(finished.status).toBe('SYNCED');

    const accounts = await accountsByMask(profile.id);
    expect(accounts.get('5555')).toMatchObject({ kind: 'DEPOSITORY', verified: false });
    expect([accounts.get('0000')?.verified, accounts.get('1111')?.verified]).toEqual([true, true]);
    const numbers = await app.http.get(`/v1/accounts/${accounts.get('5555')!.id}/ach_numbers`, { auth: app.apiKey });
    expect(numbers.status).toBe(409);
    expect(numbers.body).toMatchObject({ code: 'CONFLICT', instruction: expect.stringContaining('checking, savings and cash management') });
    const refresh = await app.http.post(`/v1/accounts/${accounts.get('0000')!.id}/balances/refresh`, { auth: app.apiKey });
    expect(refresh.status).toBe(202);
  });

  it('stores the transactions of an account only /transactions/sync reports, with that account', async () => {
    const { connection, itemId, profile } = await connectPlaid();
    plaid.openAccount(itemId, 'other', { listed: false });
    await plaid.addTransactions(itemId, 3, { account: 'other' });
    await waitFor(async () => ((await stored(connection.id)).length === plaid.currentTransactions(itemId).length ? true : undefined), 'the new account’s transactions', 60_000);
    await settled(connection.id);
    await expectSameAsInstitution(connection.id, itemId);
    expect((await accountsByMask(profile.id)).get('5555')).toMatchObject({ kind: 'DEPOSITORY' });
    expect(logged('sync dropped transactions of accounts the connection does not have')).toEqual([]);
  });
});

describe('requests Plaid refuses as invalid', () => {
  it('are Tributary’s fault: a 500 with its errorId, ERROR_SERVICE for a sync, each logged with Plaid’s request_id', async () => {
    const { connection, itemId, profile } = await connectPlaid();
    const checking = (await accountsByMask(profile.id)).get('0000')!;
    const refusedRequestId = (endpoint: string) => plaid.requests.findLast((request) => request.endpoint === endpoint && request.errorCode === 'INVALID_FIELD')?.requestId;

    plaid.failNext('INVALID_REQUEST', { endpoint: '/auth/get' });
    const numbers = await app.http.get(`/v1/accounts/${checking.id}/ach_numbers`, { auth: app.apiKey });
    expect(numbers.status).toBe(500);
    expect(numbers.headers['retry-after']).toBeUndefined();
    expect(numbers.body).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', requestId: expect.any(String), errorId: expect.any(String) });
    const failed = logged('request failed').find((line) => line.errorId === numbers.body.errorId);
    expect(failed?.err).toMatchObject({ type: 'ProviderError', status: 'ERROR_SERVICE', upstreamRequestId: refusedRequestId('/auth/get') });

    plaid.failNext('INVALID_REQUEST', { endpoint: '/accounts/balance/get' });
    expect((await app.http.post(`/v1/accounts/${checking.id}/balances/refresh`, { auth: app.apiKey })).status).toBe(202);
    const refresh = await waitFor(async () => logged('balance refresh failed: the provider refused a request of ours').at(-1), 'the refused refresh to be logged');
    expect(refresh.err).toMatchObject({ status: 'ERROR_SERVICE', upstreamRequestId: refusedRequestId('/accounts/balance/get') });

    plaid.failNext('INVALID_REQUEST', { endpoint: '/transactions/sync' });
    await announceUpdates(itemId);
    await settled(connection.id, 'ERROR_SERVICE');
    expect(await eventsOf(profile.id, 'connection.synced.errored.ERROR_SERVICE')).toHaveLength(1);
    const sync = logged('sync failed: the provider refused a request of ours').find((line) => line.connectionId === decodeId('connection', connection.id));
    expect(sync?.err).toMatchObject({ status: 'ERROR_SERVICE', upstreamRequestId: refusedRequestId('/transactions/sync') });
    // The connection's sync history names the refused request too, for Plaid's support.
    const [newest] = (await app.http.get(`/v1/connections/${connection.id}/syncs?limit=1`, { auth: app.apiKey })).body;
    expect(newest).toMatchObject({ trigger: 'WEBHOOK', outcome: 'FAILED', status: 'ERROR_SERVICE', providerRequestId: refusedRequestId('/transactions/sync'), changes: null });
  });
});

describe('amounts with more than two fraction digits', () => {
  /** The JSON text holds the balance as Plaid reported it, digit for digit (no rounding, no float noise, no exponent). */
  const expectExact = (json: string) => {
    expect(json).toContain('"current":23631.9805');
    expect(json).toContain('"available":-0.0001');
  };

  it('print exactly as Plaid reported them, in GraphQL, REST and webhooks', async () => {
    const receiver = await startReceiver();
    try {
      const subscribed = await app.http.post('/v1/webhooks/subscriptions', { auth: app.apiKey, json: { name: 'Exact amounts', targetUrl: receiver.url, eventTypes: ['balance.created'] } });
      expect(subscribed.status).toBe(201);
      const { connection, itemId, profile } = await connectPlaid();
      plaid.reportBalances(itemId, 'savings', { current: 23631.9805, available: -0.0001 });
      const [purchase] = await plaid.addTransactions(itemId, 1, { account: 'checking', notify: false });
      await plaid.modifyTransaction(itemId, purchase!.transaction_id, { amount: 0.0001 });
      await waitFor(async () => ((await stored(connection.id)).some((row) => row.amount === '-0.0001') ? true : undefined), 'the modified purchase');
      await settled(connection.id);

      const query = await app.http.post('/v1/graphql', {
        auth: basicAuth(profile.id, app.apiKey),
        json: { query: '{ accounts { balance { current available } } transactions(first: 20) { nodes { amount } } }' },
      });
      expectExact(query.text);
      expect(query.text).toContain('"amount":-0.0001');

      const events = await app.http.get(`/v1/events?type=balance.created&profileId=${profile.id}`, { auth: app.apiKey });
      expect(events.status).toBe(200);
      expectExact(events.text);

      const delivered = await waitFor(async () => receiver.received.find((request) => request.body.includes('23631.9805')), 'the balance.created webhook');
      expectExact(delivered.body);
    } finally {
      await receiver.close();
    }
  });
});
