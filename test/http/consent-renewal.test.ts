import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { basicAuth, createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

const DAY = 86_400_000;
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

/** Waits until the connection leaves INITIALIZING/SYNCING; returns its row. */
function settled(connectionId: string) {
  return waitFor(async () => {
    const [row] = await app.sql('select * from connection where id = $1', [decodeId('connection', connectionId)]);
    return ['INITIALIZING', 'SYNCING'].includes(row.status) ? undefined : row;
  }, `connection ${connectionId} to settle`);
}

async function eventTypes(profileId: string) {
  return (await app.sql('select type from event where profile_id = $1 order by id', [decodeId('profile', profileId)])).map((row) => row.type as string);
}

async function graphql(profileId: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await app.http.post('/v1/graphql', { auth: basicAuth(profileId, app.apiKey), json: { query, variables } });
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
}

const moveConsentEnd = (connectionId: string, expiresAt: Date) =>
  app.http.post(`/v1/sandbox/connections/${connectionId}/consent`, { auth: app.apiKey, json: { expiresAt: expiresAt.toISOString() } });

/** A Kea Bank connection (PSD2-like), synced. */
async function keaConnection() {
  const profile = await createProfile(app);
  const response = await app.http.post('/v1/sandbox/connections', { auth: app.apiKey, json: { profileId: profile.id, institutionId: 'ins_kea_bank', username: 'user_good', password: 'pass_good' } });
  expect(response.status, response.text).toBe(201);
  expect((await settled(response.body.id)).status).toBe('SYNCED');
  return { profileId: profile.id, connection: response.body };
}

describe('consent expiry', () => {
  it('shows when a PSD2-like consent ends, warns once within the warning period, then asks for a repair', async () => {
    const linkedAt = Date.now();
    const { profileId, connection } = await keaConnection();
    const ends = Date.parse(connection.consentExpiresAt);
    expect(ends - linkedAt).toBeGreaterThanOrEqual(90 * DAY - 60_000);
    expect(ends - linkedAt).toBeLessThanOrEqual(90 * DAY + 60_000);
    expect(connection.errorCode).toBeNull();

    const soon = new Date(Date.now() + 3 * DAY);
    const warned = await moveConsentEnd(connection.id, soon);
    expect(warned.status, warned.text).toBe(200);
    expect(warned.body).toMatchObject({ status: 'SYNCED', errorCode: null, consentExpiresAt: soon.toISOString() });
    await moveConsentEnd(connection.id, soon);
    expect((await eventTypes(profileId)).filter((type) => type === 'connection.consent_expiring')).toHaveLength(1);

    const expired = await moveConsentEnd(connection.id, new Date(Date.now() - 60_000));
    expect(expired.body).toMatchObject({ status: 'ERROR_REPAIRABLE', errorCode: 'CONSENT_EXPIRED' });
    const data = await graphql(profileId, 'query($id: ID!) { connection(id: $id) { status errorCode consentExpiresAt } }', { id: connection.id });
    expect(data.connection).toEqual({ status: 'ERROR_REPAIRABLE', errorCode: 'CONSENT_EXPIRED', consentExpiresAt: expired.body.consentExpiresAt });
    const types = await eventTypes(profileId);
    expect(types.filter((type) => type === 'connection.synced.errored.ERROR_REPAIRABLE')).toHaveLength(1);
    expect(types.filter((type) => type === 'connection.consent_expiring')).toHaveLength(1);

    // A refresh cannot run on an expired consent: the end-user must renew it first.
    const refresh = await app.http.post(`/v1/connections/${connection.id}/transactions/refresh`, { auth: app.apiKey });
    expect(refresh.status).toBe(403);
    expect(refresh.body.code).toBe('REPAIR_REQUIRED');
  });

  it('renews on repair, keeping the connection, its accounts (under reissued ids), their metadata and every transaction', async () => {
    const { profileId, connection } = await keaConnection();
    const connectionUuid = decodeId('connection', connection.id);
    const accountsBefore = await app.sql('select id, remote_id, name from account where connection_id = $1 order by id', [connectionUuid]);
    const transactionsBefore = await app.sql('select id, remote_id from transaction where connection_id = $1 order by id', [connectionUuid]);
    expect(accountsBefore).toHaveLength(2);
    expect(transactionsBefore.length).toBeGreaterThan(0);
    const update = await graphql(profileId, 'mutation($input: AccountUpdateInput!) { accountUpdate(input: $input) { success } }', {
      input: { id: encodeId('account', accountsBefore[0].id), name: 'Holiday money', metadata: { budget: 'travel' } },
    });
    expect(update.accountUpdate.success).toBe(true);
    await moveConsentEnd(connection.id, new Date(Date.now() - 60_000));

    const repaired = await app.http.post(`/v1/sandbox/connections/${connection.id}/reconnect`, { auth: app.apiKey, json: { username: 'user_good', password: 'pass_good' } });
    expect(repaired.status, repaired.text).toBe(200);
    const row = await settled(connection.id);
    expect(row).toMatchObject({ status: 'SYNCED', error_code: null });
    expect(new Date(row.consent_expires_at).getTime()).toBeGreaterThan(Date.now() + 89 * DAY);

    const accountsAfter = await app.sql('select id, remote_id, state, name_override, metadata from account where connection_id = $1 order by id', [connectionUuid]);
    expect(accountsAfter.map((account) => account.id)).toEqual(accountsBefore.map((account) => account.id));
    for (const [index, account] of accountsAfter.entries()) {
      expect(account.state).toBe('OPEN');
      expect(account.remote_id).not.toBe(accountsBefore[index].remote_id);
    }
    expect(accountsAfter[0]).toMatchObject({ name_override: 'Holiday money', metadata: { budget: 'travel' } });
    const transactionsAfter = await app.sql('select id, remote_id from transaction where connection_id = $1 order by id', [connectionUuid]);
    expect(transactionsAfter.slice(0, transactionsBefore.length)).toEqual(transactionsBefore);
    const [{ unknown }] = await app.sql(
      'select count(*)::int as unknown from transaction t join account a on a.id = t.account_id where t.connection_id = $1 and a.state <> $2',
      [connectionUuid, 'OPEN'],
    );
    expect(unknown).toBe(0);
  });
});

describe('a refresh the end-user asked for', () => {
  it('takes their address and user agent, and refuses a malformed address as a validation failure', async () => {
    const { connection } = await keaConnection();
    const refresh = (json: unknown) => app.http.post(`/v1/connections/${connection.id}/transactions/refresh`, { auth: app.apiKey, json });
    const bad = await refresh({ endUser: { ipAddress: 'not-an-address', userAgent: 'Mozilla/5.0' } });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED', requestId: expect.any(String) });
    const ok = await refresh({ endUser: { ipAddress: '2001:db8::7', userAgent: 'Mozilla/5.0' } });
    expect(ok.status, ok.text).toBe(202);
    await settled(connection.id);
  });
});

describe('original currency', () => {
  it('gives a card purchase made in EUR its amount in EUR beside the USD it cost', async () => {
    const { profileId } = await keaConnection();
    const data = await graphql(profileId, '{ transactions(first: 100, filter: { kind: [CREDIT] }) { nodes { amount currencyCode originalAmount originalCurrencyCode } } }');
    const abroad = data.transactions.nodes.filter((node: { originalAmount: string | null }) => node.originalAmount !== null);
    expect(abroad.length).toBeGreaterThan(0);
    for (const node of abroad) {
      expect(node).toMatchObject({ currencyCode: 'USD', originalCurrencyCode: 'EUR' });
      expect(Number(node.amount)).toBeLessThan(0);
      // The sandbox's rate is 1.04 to 1.12 USD a EUR.
      expect(Number(node.amount) / Number(node.originalAmount)).toBeGreaterThanOrEqual(1.03);
      expect(Number(node.amount) / Number(node.originalAmount)).toBeLessThanOrEqual(1.13);
    }
    const home = data.transactions.nodes.filter((node: { originalAmount: string | null }) => node.originalAmount === null);
    expect(home.every((node: { originalCurrencyCode: string | null }) => node.originalCurrencyCode === null)).toBe(true);
  });
});
