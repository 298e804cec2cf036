import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId, encodeId } from '../src/lib/ids.ts';
import { createEnvironmentWithKey } from './support/environments.ts';
import { createProfile } from './support/factories.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { waitFor } from './support/wait.ts';

const DAY = 86_400_000;
let now = new Date('2026-06-10T15:00:00Z');
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({}, { sandboxNow: () => now });
});
afterAll(() => app?.stop());

async function connect(profileId: string, overrides: Record<string, unknown> = {}, apiKey = app.apiKey) {
  return app.http.post('/v1/sandbox/connections', {
    auth: apiKey,
    json: { profileId, institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good', ...overrides },
  });
}

/** Waits until the connection leaves INITIALIZING/SYNCING (and no refresh is running); returns its row. */
async function settled(connectionId: string) {
  return waitFor(async () => {
    const [row] = await app.sql('select * from connection where id = $1', [decodeId('connection', connectionId)]);
    return ['INITIALIZING', 'SYNCING', 'DISCONNECTING'].includes(row.status) || row.refresh_started_at ? undefined : row;
  }, `connection ${connectionId} to settle`);
}

async function eventsOf(profileId: string, type?: string) {
  const rows = await app.sql('select type, payload from event where profile_id = $1 order by id', [decodeId('profile', profileId)]);
  return rows.filter((row) => !type || row.type === type);
}

async function connected(overrides: Record<string, unknown> = {}) {
  const profile = await createProfile(app);
  const response = await connect(profile.id, overrides);
  expect(response.status).toBe(201);
  const row = await settled(response.body.id);
  return { profile, connection: response.body, row };
}

describe('connecting a sandbox institution', () => {
  it('creates an INITIALIZING connection that syncs accounts, balances and two years of transactions', async () => {
    const profile = await createProfile(app);
    const response = await connect(profile.id);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      profileId: profile.id,
      institution: { id: 'ins_first_platypus', name: 'First Platypus Bank' },
      status: 'INITIALIZING',
      products: ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_NUMBERS'],
      lastSyncedAt: null,
    });
    const row = await settled(response.body.id);
    expect(row.status).toBe('SYNCED');
    expect(row.last_synced_at).not.toBeNull();

    const accounts = await app.sql('select kind, subtype, verified, latest_balance_id from account where connection_id = $1 order by id', [row.id]);
    expect(accounts.map((account) => account.subtype)).toEqual(['checking', 'savings', 'credit card', 'mortgage', 'brokerage']);
    expect(accounts.every((account) => account.latest_balance_id)).toBe(true);
    expect(accounts.filter((account) => account.verified).map((account) => account.subtype)).toEqual(['checking', 'savings']);

    const [span] = await app.sql('select count(*)::int as n, min(date) as first, max(date) as last from transaction where connection_id = $1', [row.id]);
    expect(span.n).toBeGreaterThan(1000);
    expect(now.getTime() - new Date(span.first).getTime()).toBeGreaterThan(700 * DAY);

    // Sign conventions: the card's limit is negative, and so is its balance when owed.
    const [card] = await app.sql(
      `select b.current, b.available, b."limit" from account a join balance b on b.id = a.latest_balance_id where a.connection_id = $1 and a.kind = 'CREDIT'`,
      [row.id],
    );
    expect(Number(card.limit)).toBeLessThan(0);
    expect(Number(card.current)).toBeLessThan(0);
    expect(Number(card.available)).toBeGreaterThan(0);
    const [purchases] = await app.sql(
      `select count(*) filter (where t.amount > 0)::int as positive from transaction t
        where t.connection_id = $1 and t.remote_data->'enrichment'->'categories' @> '["Restaurants"]'`,
      [row.id],
    );
    expect(purchases.positive).toBe(0);

    const [sample] = await app.sql(`select remote_data from transaction where connection_id = $1 and remote_data->'enrichment'->>'website' is not null limit 1`, [row.id]);
    expect(sample.remote_data).toMatchObject({
      sandbox: { guid: expect.any(String), description: expect.any(String), originalDescription: expect.any(String), timestamp: expect.any(String) },
      enrichment: { categories: expect.any(Array), counterpartyName: expect.any(String), logo: expect.stringMatching(/^https:/), website: expect.any(String) },
    });

    const types = (await eventsOf(profile.id)).map((event) => event.type);
    expect(types.filter((type) => type === 'balance.created')).toHaveLength(5);
    expect(types.filter((type) => type === 'account.verified')).toHaveLength(2);
    expect(types.filter((type) => type === 'connection.synced.successful')).toHaveLength(1);
    expect(types.filter((type) => type === 'profile.ready')).toHaveLength(1);
    expect(types.indexOf('connection.created')).toBeLessThan(types.indexOf('connection.synced.successful'));
  });

  it('answers 404 for an unknown profile or institution and 422 for a product the institution lacks', async () => {
    const profile = await createProfile(app);
    expect((await connect('p_01jdq3v6x8f9k2m4n7p0r5s8tw')).status).toBe(404);
    expect((await connect(profile.id, { institutionId: 'ins_nope' })).status).toBe(404);
    const refused = await connect(profile.id, { institutionId: 'ins_houndstooth', products: ['ACCOUNT_NUMBERS'] });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toHaveProperty('products');
  });

  it('refuses sandbox connections in a PRODUCTION environment and keeps environments apart', async () => {
    const production = await createEnvironmentWithKey(app, 'PRODUCTION');
    const productionProfile = await createProfile(app, {}, production.apiKey);
    expect((await connect(productionProfile.id, {}, production.apiKey)).status).toBe(403);

    const other = await createEnvironmentWithKey(app);
    const { connection } = await connected();
    expect((await app.http.delete(`/v1/connections/${connection.id}`, { auth: other.apiKey })).status).toBe(404);
    expect((await app.http.post(`/v1/connections/${connection.id}/transactions/refresh`, { auth: other.apiKey })).status).toBe(404);
    const [account] = await app.sql('select id from account where connection_id = $1', [decodeId('connection', connection.id)]);
    const accountId = encodeId('account', account.id);
    expect((await app.http.get(`/v1/accounts/${accountId}/ach_numbers`, { auth: other.apiKey })).status).toBe(404);
    expect((await app.http.post(`/v1/accounts/${accountId}/balances/refresh`, { auth: other.apiKey })).status).toBe(404);
  });
});

describe('error states', () => {
  it.each([
    ['user_bad_login', 'ERROR_REPAIRABLE'],
    ['user_institution_down', 'ERROR_INSTITUTION'],
    ['user_provider_error', 'ERROR_PROVIDER'],
    ['user_service_error', 'ERROR_SERVICE'],
  ])('%s ends the first sync in %s with its event', async (username, status) => {
    const { profile, connection, row } = await connected({ username, password: 'whatever' });
    expect(row.status).toBe(status);
    expect((await eventsOf(profile.id, `connection.synced.errored.${status}`)).length).toBe(1);
    const refresh = await app.http.post(`/v1/connections/${connection.id}/transactions/refresh`, { auth: app.apiKey });
    expect(refresh.status).toBe(403);
    expect(refresh.body.message).toContain(status);
  });

  it('repairs an ERROR_REPAIRABLE connection by reconnecting', async () => {
    const { connection } = await connected({ password: 'wrong' });
    const reconnect = await app.http.post(`/v1/sandbox/connections/${connection.id}/reconnect`, { auth: app.apiKey, json: { username: 'user_good', password: 'pass_good' } });
    expect(reconnect.status).toBe(200);
    expect(reconnect.body.status).toBe('INITIALIZING');
    expect((await settled(connection.id)).status).toBe('SYNCED');
  });
});
