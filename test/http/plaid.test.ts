import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCategory } from '../../src/enrichment/taxonomy.ts';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { sweepConsents } from '../../src/modules/connection/consent-sweeper.ts';
import { INSTITUTIONS, type FakePlaid } from '../fakes/plaid/index.ts';
import { createProfile } from '../support/factories.ts';
import { PLAID_LINK_SCRIPT_URL, PUBLIC_URL, startPlaidApp } from '../support/plaid-app.ts';
import { plaidConnections } from '../support/plaid-connections.ts';
import type { TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

let app: TestApp;
let plaid: FakePlaid;
let environmentId: string;
const { connectionRow, settled, connectPlaid, stored, expectSameAsInstitution, eventsOf, graphql, sessionToken } = plaidConnections(() => ({ app, plaid }));

beforeAll(async () => {
  let cliOutput: string;
  ({ app, plaid, environmentId, cliOutput } = await startPlaidApp());
  expect(cliOutput).toContain('plaid configured');
  expect(cliOutput).not.toContain(plaid.secret);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await plaid?.stop();
});

describe('Plaid connections', () => {
  let shared: Awaited<ReturnType<typeof connectPlaid>>;

  beforeAll(async () => {
    shared = await connectPlaid();
  }, 120_000);

  it('syncs the initial history once, with Tributary signs, exact amounts, kinds and balances', async () => {
    const { connection, itemId, profile } = shared;
    expect(plaid.currentTransactions(itemId).length).toBeGreaterThanOrEqual(2_000);
    await expectSameAsInstitution(connection.id, itemId);
    const rows = await stored(connection.id);
    expect(rows[0]!.remote_data.plaid).toMatchObject({ transaction_id: expect.any(String), timestamp: expect.any(String) });
    expect(rows.some((row) => (row.remote_data.enrichment?.categories?.length ?? 0) > 0)).toBe(true);
    // Plaid's personal finance category is the transaction's category (PROVIDER) wherever it is one of the taxonomy.
    const categorized = await app.sql('select remote_data->\'enrichment\'->\'categories\' as categories, category_primary, category_source from transaction where connection_id = $1', [decodeId('connection', connection.id)]);
    for (const row of categorized) expect(row.category_source === 'PROVIDER', JSON.stringify(row)).toBe(isCategory(String(row.categories?.[0]), String(row.categories?.[1])));
    expect(categorized.some((row) => row.category_source === 'PROVIDER')).toBe(true);
    // Plaid's payment_channel is the enrichment's hint: every transaction keeps the channel Plaid reports.
    const channels = await app.sql<{ remote_id: string; payment_channel: string }>('select remote_id, payment_channel from transaction where connection_id = $1', [decodeId('connection', connection.id)]);
    const reported = new Map(plaid.currentTransactions(itemId).map((transaction) => [transaction.transaction_id, transaction.payment_channel.toUpperCase().replace(' ', '_')]));
    expect(channels.filter((row) => row.payment_channel !== reported.get(row.remote_id))).toEqual([]);
    expect(new Set(channels.map((row) => row.payment_channel))).toEqual(new Set(['ONLINE', 'IN_STORE', 'OTHER']));

    const { data } = await graphql(profile.id, '{ accounts { id kind mask balance { current limit available } } transactions(first: 100) { nodes { amount entryType } } }');
    const kinds = data.accounts.map((account: { kind: string }) => account.kind).sort();
    expect(kinds).toEqual(expect.arrayContaining(['CREDIT', 'DEPOSITORY', 'LOAN']));
    for (const account of data.accounts.filter((candidate: { kind: string }) => candidate.kind === 'CREDIT' || candidate.kind === 'LOAN')) {
      expect(Number(account.balance.current)).toBeLessThanOrEqual(0);
      if (account.balance.limit !== null) expect(Number(account.balance.limit)).toBeLessThan(0);
    }
    for (const node of data.transactions.nodes) expect(node.entryType).toBe(Number(node.amount) >= 0 ? 'CREDIT' : 'DEBIT');
    expect(await eventsOf(profile.id, 'profile.ready')).toHaveLength(1);
    expect((await eventsOf(profile.id, 'account.verified')).length).toBeGreaterThan(0);
  });

  it('follows weeks of changes pushed by webhooks: pending posts in place (id and metadata kept), removals removed', async () => {
    const { connection, itemId, profile } = shared;
    const [pending] = await plaid.addTransactions(itemId, 3, { pending: true });
    await waitFor(async () => ((await stored(connection.id)).some((row) => row.remote_id === pending!.transaction_id) ? true : undefined), 'the pending purchases');
    const before = (await stored(connection.id)).find((row) => row.remote_id === pending!.transaction_id)!;
    const { data } = await graphql(profile.id, 'mutation($id: ID!) { transactionUpdate(input: {id: $id, metadata: {note: "lunch"}}) { success } }', { id: encodeId('transaction', before.id) });
    expect(data.transactionUpdate.success).toBe(true);

    const posted = await plaid.postPending(itemId, { transactionId: pending!.transaction_id, amount: pending!.amount + 2.5 });
    const after = await waitFor(async () => (await stored(connection.id)).find((row) => row.remote_id === posted.transaction_id && row.status === 'POSTED'), 'the posted twin');
    expect(after.id).toBe(before.id);
    expect(after.metadata).toEqual({ note: 'lunch' });
    expect((await stored(connection.id)).some((row) => row.remote_id === pending!.transaction_id)).toBe(false);

    const victim = plaid.currentTransactions(itemId).find((transaction) => !transaction.pending)!;
    await plaid.removeTransaction(itemId, victim.transaction_id);
    await plaid.advanceClock(21);
    await plaid.webhooksSettled();
    await waitFor(async () => ((await stored(connection.id)).length === plaid.currentTransactions(itemId).length ? true : undefined), 'weeks of changes', 60_000);
    await settled(connection.id);
    await expectSameAsInstitution(connection.id, itemId);
    expect((await stored(connection.id)).some((row) => row.remote_id === victim.transaction_id)).toBe(false);
  });

  it('restarts a walk cleanly when Plaid reports a mutation during pagination', async () => {
    const { connection, itemId } = shared;
    const requestsBefore = plaid.requests.length;
    await plaid.addTransactions(itemId, 700, { notify: false });
    plaid.injectMutationDuringPagination(itemId);
    await plaid.fireWebhook(itemId, 'TRANSACTIONS', 'SYNC_UPDATES_AVAILABLE', { initial_update_complete: true, historical_update_complete: true });
    await waitFor(async () => (plaid.requests.slice(requestsBefore).some((request) => request.errorCode === 'TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION') ? true : undefined), 'the mutation error');
    await waitFor(async () => ((await stored(connection.id)).length === plaid.currentTransactions(itemId).length ? true : undefined), 'the restarted walk', 60_000);
    await settled(connection.id);
    await expectSameAsInstitution(connection.id, itemId);
  });

  it('refuses forged, stale and tampered webhooks with 401, and they change nothing', async () => {
    const { connection, itemId } = shared;
    for (const variant of ['forged', 'stale', 'tampered'] as const) {
      const delivery = await plaid.fireWebhook(itemId, 'ITEM', 'ERROR', { error: { error_type: 'ITEM_ERROR', error_code: 'ITEM_LOGIN_REQUIRED' } }, variant);
      expect(delivery.status, variant).toBe(401);
    }
    const unsigned = await app.http.post(`/v1/providers/plaid/webhooks?environment=${environmentId}`, { json: { webhook_type: 'ITEM', webhook_code: 'USER_PERMISSION_REVOKED', item_id: itemId } });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body).toMatchObject({ requestId: expect.any(String), errorId: expect.any(String) });
    expect((await connectionRow(connection.id)).status).toBe('SYNCED');
  });

  it('balance refresh, transactions refresh and ACH numbers go to Plaid', async () => {
    const { connection, profile, itemId } = shared;
    const { data } = await graphql(profile.id, '{ accounts { id kind verified } }');
    const checking = data.accounts.find((account: { kind: string; verified: boolean }) => account.kind === 'DEPOSITORY' && account.verified);
    expect(checking).toBeDefined();

    const refresh = await app.http.post(`/v1/accounts/${checking.id}/balances/refresh`, { auth: app.apiKey });
    expect(refresh.status).toBe(202);
    await waitFor(async () => ((await eventsOf(profile.id, 'balance.created')).some((event) => event.payload.record.source === 'REFRESH') ? true : undefined), 'a REFRESH balance');
    expect(plaid.requests.some((request) => request.endpoint === '/accounts/balance/get')).toBe(true);

    const numbers = await app.http.get(`/v1/accounts/${checking.id}/ach_numbers`, { auth: app.apiKey });
    expect(numbers.status).toBe(200);
    expect(numbers.body).toMatchObject({ accountId: checking.id, number: expect.stringMatching(/^\d+$/), routing: expect.stringMatching(/^\d{9}$/) });

    await plaid.addTransactions(itemId, 2, { notify: false });
    const transactions = await app.http.post(`/v1/connections/${connection.id}/transactions/refresh`, { auth: app.apiKey });
    expect(transactions.status).toBe(202);
    await waitFor(async () => (plaid.requests.some((request) => request.endpoint === '/transactions/refresh') ? true : undefined), '/transactions/refresh');
    await plaid.webhooksSettled();
    await waitFor(async () => ((await stored(connection.id)).length === plaid.currentTransactions(itemId).length ? true : undefined), 'the refreshed transactions');
    await settled(connection.id);
  });
});

describe('Plaid errors, repair and disconnect', () => {
  it('ITEM_LOGIN_REQUIRED → ERROR_REPAIRABLE → update mode through startLink → SYNCED, accounts re-verified', async () => {
    const { connection, itemId, profile } = await connectPlaid();
    await plaid.resetLogin(itemId);
    await settled(connection.id, 'ERROR_REPAIRABLE');
    expect(await eventsOf(profile.id, 'connection.synced.errored.ERROR_REPAIRABLE')).toHaveLength(1);
    const verifiedBefore = (await eventsOf(profile.id, 'account.verified')).length;

    const token = await sessionToken(profile.id);
    const link = await app.http.post('/v1/connect/link', { auth: token, json: { connectionId: connection.id } });
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({ provider: 'plaid', kind: 'PLAID_LINK', linkToken: expect.any(String), scriptUrl: PLAID_LINK_SCRIPT_URL });
    const { publicToken } = await plaid.completeLink(link.body.linkToken);
    // The renewed login comes with a consent end (a European institution): the connection takes it.
    plaid.setConsentExpiration(itemId, new Date('2027-05-01T00:00:00Z'));
    const repaired = await app.http.post(`/v1/connect/connections/${connection.id}/reconnect`, { auth: token, json: { publicToken } });
    expect(repaired.status).toBe(200);
    expect(repaired.body.consentExpiresAt).toBe('2027-05-01T00:00:00.000Z');
    await settled(connection.id);
    await waitFor(async () => ((await eventsOf(profile.id, 'account.verified')).length > verifiedBefore ? true : undefined), 're-verification');
    await expectSameAsInstitution(connection.id, itemId);
  });

  it('connects through startLink and a public token, then disconnects with /item/remove', async () => {
    const profile = await createProfile(app);
    const token = await sessionToken(profile.id);
    const link = await app.http.post('/v1/connect/link', { auth: token, json: {} });
    expect(link.body.kind).toBe('PLAID_LINK');
    const created = plaid.requests.findLast((request) => request.endpoint === '/link/token/create');
    expect(created?.body?.webhook).toBe(`${PUBLIC_URL}/v1/providers/plaid/webhooks?environment=${environmentId}`);
    const bad = await app.http.post('/v1/connect/connections', { auth: token, json: { provider: 'plaid', publicToken: 'public-sandbox-not-a-token' } });
    expect(bad.status).toBe(422);
    const { publicToken, itemId } = await plaid.completeLink(link.body.linkToken, { institutionId: INSTITUTIONS[1]?.id });
    const connected = await app.http.post('/v1/connect/connections', { auth: token, json: { provider: 'plaid', publicToken } });
    expect(connected.status).toBe(201);
    await settled(connected.body.id);
    await expectSameAsInstitution(connected.body.id, itemId);

    const removed = await app.http.delete(`/v1/connections/${connected.body.id}`, { auth: app.apiKey });
    expect(removed.status).toBe(202);
    await settled(connected.body.id, 'DISCONNECTED');
    expect(plaid.items().find((item) => item.itemId === itemId)?.removed).toBe(true);
    expect(plaid.requests.some((request) => request.endpoint === '/item/remove' && request.itemId === itemId)).toBe(true);
  });

  it('a server-to-server sandbox connection with a wrong password is 422 INVALID_CREDENTIALS, as the sandbox provider answers', async () => {
    const profile = await createProfile(app);
    const response = await app.http.post('/v1/sandbox/connections', {
      auth: app.apiKey,
      json: { profileId: profile.id, provider: 'plaid', institutionId: INSTITUTIONS[0]!.id, username: 'user_good', password: 'not the password' },
    });
    expect(response.status, response.text).toBe(422);
    expect(response.body).toMatchObject({ code: 'INVALID_CREDENTIALS', requestId: expect.any(String), errorId: expect.any(String) });
    expect(await app.sql('select id from connection where profile_id = $1', [decodeId('profile', profile.id)])).toEqual([]);
  });

  it('answers 503 with Retry-After, not 500, when Plaid rate-limits or fails a link step', async () => {
    const profile = await createProfile(app);
    const token = await sessionToken(profile.id);
    for (const kind of ['RATE_LIMIT_EXCEEDED', 'INTERNAL_SERVER_ERROR'] as const) {
      plaid.failNext(kind, { endpoint: '/link/token/create' });
      const link = await app.http.post('/v1/connect/link', { auth: token, json: {} });
      expect(link.status, kind).toBe(503);
      expect(Number(link.headers['retry-after'])).toBeGreaterThan(0);
      expect(link.body).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', requestId: expect.any(String), errorId: expect.any(String), instruction: expect.any(String) });
    }
  });

  it('USER_PERMISSION_REVOKED disconnects; PENDING_EXPIRATION fires connection.consent_expiring', async () => {
    const { connection, itemId, profile } = await connectPlaid();
    await plaid.fireWebhook(itemId, 'ITEM', 'PENDING_EXPIRATION', { consent_expiration_time: '2027-01-01T00:00:00Z' });
    const [warning] = await waitFor(async () => {
      const events = await eventsOf(profile.id, 'connection.consent_expiring');
      return events.length === 1 ? events : undefined;
    }, 'connection.consent_expiring');
    expect(warning.payload.record).toMatchObject({ id: connection.id, consentExpiresAt: '2027-01-01T00:00:00.000Z' });
    expect(new Date((await connectionRow(connection.id)).consent_expires_at).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    // Plaid warned of this end already: the consent sweep, within its warning period, does not warn again.
    await sweepConsents({ orm: app.orm, warningDays: 7 }, new Date('2026-12-30T00:00:00Z'));
    expect(await eventsOf(profile.id, 'connection.consent_expiring')).toHaveLength(1);
    await plaid.fireWebhook(itemId, 'ITEM', 'USER_PERMISSION_REVOKED', { error: null });
    await settled(connection.id, 'DISCONNECTED');
    expect(await eventsOf(profile.id, 'connection.disconnected')).toHaveLength(1);
  });
});
