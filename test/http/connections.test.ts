import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { merchantsOf } from '../../src/providers/sandbox/merchants.ts';
import { sandboxOwnersOf } from '../../src/providers/sandbox/owners.ts';
import { builders, sandboxCredential, type Builders } from '../support/builders.ts';
import { asOperator, createEnvironmentWithKey } from '../support/environments.ts';
import { basicAuth, createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

const DAY = 86_400_000;
let now = new Date('2026-06-10T15:00:00Z');
let app: TestApp;
let build: Builders;

beforeAll(async () => {
  app = await startTestApp({}, { sandboxNow: () => now });
  build = builders(app);
});
afterAll(() => app?.stop());

/** A sandbox connection as its first sync on the app's clock leaves it (transactions aside), built rather than synced. */
async function built(overrides: Parameters<Builders['sandboxConnection']>[0] = {}) {
  const { connection, accounts } = await build.sandboxConnection({ now, ...overrides });
  const account = (subtype: string) => {
    const found = accounts.find((candidate) => candidate.subtype === subtype)!;
    return { ...found, publicId: encodeId('account', found.id) };
  };
  return { connection, accounts, id: encodeId('connection', connection.id), profileId: encodeId('profile', connection.profile.id), account };
}

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

/** Tags transactions as a client would, through transactionUpdate (one request, an alias per transaction). */
async function markReviewed(profileId: string, transactionIds: string[]) {
  const fields = transactionIds.map((id, index) => `t${index}: transactionUpdate(input: { id: "${id}", metadata: { reviewed: true } }) { success }`);
  const response = await app.http.post('/v1/graphql', { auth: basicAuth(profileId, app.apiKey), json: { query: `mutation { ${fields.join(' ')} }` } });
  expect(Object.values(response.body.data ?? {}), response.text).toEqual(transactionIds.map(() => ({ success: true })));
}

async function accountOf(connectionId: string, subtype: string) {
  const [account] = await app.sql('select * from account where connection_id = $1 and subtype = $2', [decodeId('connection', connectionId), subtype]);
  return { ...account, publicId: encodeId('account', account.id) };
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
      products: ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_NUMBERS', 'INVESTMENTS', 'LIABILITIES', 'ACCOUNT_OWNERS'],
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
    // Restaurant purchases are money out, the tip included (the institution's own data names the descriptor).
    const [purchases] = await app.sql(
      `select count(*) filter (where t.amount > 0)::int as positive, count(*)::int as n from transaction t
        where t.connection_id = $1 and t.remote_data->'sandbox'->>'description' = any($2)`,
      [row.id, merchantsOf('restaurants').map((merchant) => merchant.descriptor)],
    );
    expect(purchases.positive).toBe(0);
    expect(purchases.n).toBeGreaterThan(100);

    // A raw bank feed: the bank's line as the description, the institution's data kept, no enrichment of its own.
    const [sample] = await app.sql(`select description, remote_data from transaction where connection_id = $1 and remote_data->'sandbox'->>'description' = 'SAFEWAY STORE 1711' limit 1`, [row.id]);
    expect(sample.description).toContain('SAFEWAY STORE 1711');
    expect(sample.description).not.toBe('SAFEWAY STORE 1711');
    expect(sample.remote_data).toEqual({
      sandbox: {
        guid: expect.any(String),
        description: 'SAFEWAY STORE 1711',
        originalDescription: expect.stringMatching(/^POS SAFEWAY STORE 1711 \d\d-\d\d$/),
        timestamp: expect.any(String),
        // About one purchase in twenty is corrected by the bank a few days after it posts, and says so.
        ...(sample.remote_data.sandbox.corrected === undefined ? {} : { corrected: true }),
      },
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
    expect(await connect(productionProfile.id, {}, production.apiKey)).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });

    const other = await createEnvironmentWithKey(app);
    const connection = await built();
    expect((await app.http.delete(`/v1/connections/${connection.id}`, { auth: other.apiKey })).status).toBe(404);
    expect((await app.http.post(`/v1/connections/${connection.id}/transactions/refresh`, { auth: other.apiKey })).status).toBe(404);
    const accountId = connection.account('checking').publicId;
    expect((await app.http.get(`/v1/accounts/${accountId}/ach_numbers`, { auth: other.apiKey })).status).toBe(404);
    expect((await app.http.post(`/v1/accounts/${accountId}/balances/refresh`, { auth: other.apiKey })).status).toBe(404);
  });
});

describe('the sandbox\'s sign-in', () => {
  it('rejects a wrong password or an unknown user at link time, with INVALID_CREDENTIALS and no connection', async () => {
    const profile = await createProfile(app);
    for (const login of [{ username: 'user_good', password: 'wrong password' }, { username: 'someone', password: 'pass_good' }]) {
      const response = await connect(profile.id, login);
      expect(response.status, response.text).toBe(422);
      expect(response.body).toEqual({
        code: 'INVALID_CREDENTIALS',
        message: 'First Platypus Bank refused the sign-in: the username or password is wrong',
        instruction: expect.any(String),
        requestId: response.headers['x-request-id'],
        errorId: expect.stringMatching(/^err_/),
      });
    }
    expect(await app.sql('select id from connection where profile_id = $1', [decodeId('profile', profile.id)])).toEqual([]);
    expect((await eventsOf(profile.id)).map((event) => event.type)).toEqual(['profile.created']);
  });

  it('leaves a connection in repair as it was when the repair\'s password is wrong', async () => {
    const { connection, row } = await connected({ username: 'user_bad_login', password: 'whatever' });
    expect(row.status).toBe('ERROR_REPAIRABLE');
    const reconnect = await app.http.post(`/v1/sandbox/connections/${connection.id}/reconnect`, { auth: app.apiKey, json: { username: 'user_good', password: 'wrong password' } });
    expect(reconnect.status, reconnect.text).toBe(422);
    expect(reconnect.body.code).toBe('INVALID_CREDENTIALS');
    const [after] = await app.sql('select * from connection where id = $1', [decodeId('connection', connection.id)]);
    expect(after).toEqual(row);
  });
});

describe('error states', () => {
  it.each([
    ['user_bad_login', 'ERROR_REPAIRABLE', 'REPAIR_REQUIRED'],
    ['user_institution_down', 'ERROR_INSTITUTION', 'CONNECTION_NOT_USABLE'],
    ['user_provider_error', 'ERROR_PROVIDER', 'CONNECTION_NOT_USABLE'],
    ['user_service_error', 'ERROR_SERVICE', 'CONNECTION_NOT_USABLE'],
  ])('%s signs in, then the first sync ends in %s with its event; a refresh is refused with %s', async (username, status, code) => {
    const { profile, connection, row } = await connected({ username, password: 'whatever' });
    expect(row.status).toBe(status);
    expect((await eventsOf(profile.id, `connection.synced.errored.${status}`)).length).toBe(1);
    const refresh = await app.http.post(`/v1/connections/${connection.id}/transactions/refresh`, { auth: app.apiKey });
    expect(refresh.status).toBe(403);
    expect(refresh.body.code).toBe(code);
    expect(refresh.body.message).toContain(status);
  });

  it('repairs an ERROR_REPAIRABLE connection by reconnecting', async () => {
    const connection = await build.connection({ status: 'ERROR_REPAIRABLE', credential: await sandboxCredential({ username: 'user_bad_login', now }) });
    const id = encodeId('connection', connection.id);
    const reconnect = await app.http.post(`/v1/sandbox/connections/${id}/reconnect`, { auth: app.apiKey, json: { username: 'user_good', password: 'pass_good' } });
    expect(reconnect.status).toBe(200);
    expect(reconnect.body.status).toBe('INITIALIZING');
    expect((await settled(id)).status).toBe('SYNCED');
  });
});

describe('scheduled syncs', () => {
  it('syncs connections last synced over 6 hours ago and picks up the new day\'s activity', async () => {
    const due = await built({ lastSyncedAt: new Date(Date.now() - 7 * 3600_000) });
    now = new Date(now.getTime() + 2 * DAY);
    try {
      await app.service.connectionJobs.syncDue();
      await waitFor(async () => ((await eventsOf(due.profileId, 'connection.synced.successful')).length === 1 ? true : undefined), 'the scheduled sync');
      const [{ n }] = await app.sql('select count(*)::int as n from transaction where connection_id = $1', [due.connection.id]);
      expect(n).toBeGreaterThan(0);
      expect((await settled(due.id)).sync_cursor).toBe(String(Math.floor(now.getTime() / DAY)));
    } finally {
      now = new Date(now.getTime() - 2 * DAY);
    }
  });
});

describe('transactions refresh', () => {
  it('posts pending transactions in place, keeps their metadata, and reports the changes once', async () => {
    // Each connection's history is random: about one in fifty has no purchase pending on the clock's day,
    // and about 3 % of card authorisations are dropped instead of posting. Every pending row is marked.
    let found;
    for (let tries = 0; !found && tries < 10; tries++) {
      const candidate = await connected();
      const pendings = await app.sql(`select id, remote_id from transaction where connection_id = $1 and status = 'PENDING'`, [candidate.row.id]);
      if (pendings.length > 0) found = { ...candidate, pendings };
    }
    const { profile, connection, row, pendings } = found!;
    await markReviewed(profile.id, pendings.map((pending: { id: string }) => encodeId('transaction', pending.id)));
    const before = await app.sql('select count(*)::int as n from transaction where connection_id = $1', [row.id]);

    now = new Date(now.getTime() + 4 * DAY);
    try {
      const refresh = await app.http.post(`/v1/connections/${connection.id}/transactions/refresh`, { auth: app.apiKey });
      expect(refresh.status).toBe(202);
      expect(refresh.body).toEqual({ connectionId: connection.id, status: 'QUEUED' });
      await settled(connection.id);
      // Each authorisation either posted in place (same row: id, metadata) or was dropped (its row gone, no twin).
      let postedInPlace = 0;
      for (const pending of pendings) {
        const [posted] = await app.sql('select status, remote_id, metadata from transaction where id = $1', [pending.id]);
        const twin = await app.sql('select 1 from transaction where connection_id = $1 and remote_id = $2', [row.id, pending.remote_id.replace(/-p$/, '')]);
        if (!posted) {
          expect(twin).toEqual([]);
          continue;
        }
        expect(posted.status).toBe('POSTED');
        expect(posted.remote_id).toBe(pending.remote_id.replace(/-p$/, ''));
        expect(posted.metadata).toEqual({ reviewed: true });
        postedInPlace++;
      }
      expect(postedInPlace).toBeGreaterThan(0);
      // Never counted twice: no pending row survives next to the posted one that replaced it.
      const doubles = await app.sql(
        `select p.id from transaction p join transaction t on t.connection_id = p.connection_id and t.remote_id || '-p' = p.remote_id where p.connection_id = $1`,
        [row.id],
      );
      expect(doubles).toEqual([]);
      const after = await app.sql('select count(*)::int as n from transaction where connection_id = $1', [row.id]);
      expect(after[0].n).toBeGreaterThan(before[0].n);
      expect(await eventsOf(profile.id, 'connection.synced.successful')).toHaveLength(2);
    } finally {
      now = new Date(now.getTime() - 4 * DAY);
    }
  });

  it('answers 429 within 4 hours, 409 while one runs, and fires nothing when nothing changed', async () => {
    const connection = await built();
    const refresh = (id = connection.id) => app.http.post(`/v1/connections/${id}/transactions/refresh`, { auth: app.apiKey });
    const first = await refresh();
    expect(first.status).toBe(202);
    await settled(connection.id);
    expect(await eventsOf(connection.profileId, 'connection.synced.successful')).toEqual([]);

    const tooSoon = await refresh();
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.code).toBe('REFRESH_TOO_SOON');
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(4 * 3600 - 60);

    const running = await built({ refreshStartedAt: new Date(), lastRefreshAt: new Date(Date.now() - 5 * 3600_000) });
    expect((await refresh(running.id)).status).toBe(409);

    // Concurrent requests: exactly one is accepted, whichever instance they reach.
    const idle = await built({ lastRefreshAt: new Date(Date.now() - 5 * 3600_000) });
    const burst = await Promise.all(Array.from({ length: 5 }, () => refresh(idle.id)));
    // The others meet the running refresh (409), or, once it has finished, its 4-hour window (429).
    const statuses = burst.map((response) => response.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 202).every((status) => status === 409 || status === 429)).toBe(true);
    await settled(idle.id);
  });

  it('is refused without an API key, for unknown connections, and when the beta is off', async () => {
    const connection = await built();
    const profile = { id: connection.profileId };
    const refresh = `/v1/connections/${connection.id}/transactions/refresh`;
    expect((await app.http.post(refresh)).status).toBe(401);
    // 401 when there is no valid API secret bearer token; a session token or Basic credentials are not one.
    const session = await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profile.id } });
    for (const auth of [`Bearer ${session.body.token}`, basicAuth(profile.id, app.apiKey)]) {
      const refused = await app.http.post(refresh, { auth });
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toMatch(/Bearer/);
    }
    expect((await app.http.post('/v1/connections/conn_01jdq3v6x8f9k2m4n7p0r5s8tw/transactions/refresh', { auth: app.apiKey })).status).toBe(404);
    const environmentId = app.service.bootstrap.created!.environmentId;
    await asOperator(app, (admin) => admin.setTransactionsRefreshBeta(environmentId, false));
    const refused = await app.http.post(`/v1/connections/${connection.id}/transactions/refresh`, { auth: app.apiKey }).finally(() =>
      asOperator(app, (admin) => admin.setTransactionsRefreshBeta(environmentId, true)),
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('beta') });
  });
});

describe('balances and ACH numbers', () => {
  it('refreshes a balance in the background: a REFRESH balance becomes the latest, with balance.created', async () => {
    const connection = await built();
    const checking = connection.account('checking');
    const response = await app.http.post(`/v1/accounts/${checking.publicId}/balances/refresh`, { auth: app.apiKey });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ accountId: checking.publicId, status: 'QUEUED' });
    const latest = await waitFor(async () => {
      const [row] = await app.sql(`select b.* from account a join balance b on b.id = a.latest_balance_id where a.id = $1 and b.source = 'REFRESH'`, [checking.id]);
      return row;
    }, 'the refreshed balance');
    const events = await eventsOf(connection.profileId, 'balance.created');
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.record).toMatchObject({ id: encodeId('balance', latest.id), accountId: checking.publicId, source: 'REFRESH', currencyCode: 'USD' });
    expect(events[0]!.payload.record.current).toBe(Number(latest.current));
  });

  it('serves ACH numbers of verified depository accounts; tokenized numbers differ from the mask and change on reconnect', async () => {
    const connection = await built();
    const checking = connection.account('checking');
    const first = await app.http.get(`/v1/accounts/${checking.publicId}/ach_numbers`, { auth: app.apiKey });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ accountId: checking.publicId, number: expect.stringMatching(/^\d{16}$/), routing: '011401533' });
    expect(first.body.number.endsWith(checking.mask)).toBe(false);

    const reconnect = await app.http.post(`/v1/sandbox/connections/${connection.id}/reconnect`, { auth: app.apiKey, json: { username: 'user_good', password: 'pass_good' } });
    expect(reconnect.status).toBe(200);
    await settled(connection.id);
    expect((await accountOf(connection.id, 'checking')).verified).toBe(true);
    // Reconnecting unverified both depository accounts; the sync that followed verified them again.
    expect(await eventsOf(connection.profileId, 'account.verified')).toHaveLength(2);
    const second = await app.http.get(`/v1/accounts/${checking.publicId}/ach_numbers`, { auth: app.apiKey });
    expect(second.body.number).not.toBe(first.body.number);
  });

  it('answers 400 for a loan, 403 without ACCOUNT_NUMBERS, 409 before verification, 401 for Basic Auth', async () => {
    const connection = await built();
    const wrongKind = await app.http.get(`/v1/accounts/${connection.account('mortgage').publicId}/ach_numbers`, { auth: app.apiKey });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body).toMatchObject({ code: 'BAD_REQUEST', instruction: expect.stringContaining('DEPOSITORY') });

    const unverified = encodeId('account', (await build.account({ connection: connection.connection, verified: false })).id);
    const refusedUntilVerified = await app.http.get(`/v1/accounts/${unverified}/ach_numbers`, { auth: app.apiKey });
    expect(refusedUntilVerified.status).toBe(409);
    expect(refusedUntilVerified.body).toMatchObject({ code: 'CONFLICT', instruction: expect.stringContaining('account.verified') });
    const checking = connection.account('checking').publicId;
    expect((await app.http.get(`/v1/accounts/${checking}/ach_numbers`, { auth: basicAuth(connection.profileId, app.apiKey) })).status).toBe(401);

    const other = await built({ institutionId: 'ins_houndstooth' });
    const refused = await app.http.get(`/v1/accounts/${other.account('checking').publicId}/ach_numbers`, { auth: app.apiKey });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'PRODUCT_NOT_ENABLED', instruction: expect.stringContaining('ACCOUNT_NUMBERS') });
  });
});

describe('disconnecting and deleting', () => {
  it('disconnects in the background, idempotently, and refuses refreshes afterwards', async () => {
    const connection = await built();
    const response = await app.http.delete(`/v1/connections/${connection.id}`, { auth: app.apiKey });
    expect(response.status).toBe(202);
    expect(response.body.status).toBe('DISCONNECTING');
    expect((await settled(connection.id)).status).toBe('DISCONNECTED');
    expect(await eventsOf(connection.profileId, 'connection.disconnected')).toHaveLength(1);
    const again = await app.http.delete(`/v1/connections/${connection.id}`, { auth: app.apiKey });
    expect(again.status).toBe(202);
    expect(again.body.status).toBe('DISCONNECTED');
    const unusable = { status: 403, body: { code: 'CONNECTION_NOT_USABLE' } };
    expect(await app.http.post(`/v1/connections/${connection.id}/transactions/refresh`, { auth: app.apiKey })).toMatchObject(unusable);
    expect(await app.http.post(`/v1/accounts/${connection.account('checking').publicId}/balances/refresh`, { auth: app.apiKey })).toMatchObject(unusable);
  });

  it('deleting a profile removes every row of its financial data', async () => {
    const first = await built();
    const profile = first.connection.profile;
    const second = await built({ profile, institutionId: 'ins_tattersall_fcu' });
    for (const account of [...first.accounts, ...second.accounts]) {
      await build.balance({ account });
      await build.transactions(Array.from({ length: 20 }, () => ({})), { account });
    }
    await build.session(profile);
    await build.accountOwners(sandboxOwnersOf('checking', 'US'), first.accounts[0]);
    expect((await app.http.delete(`/v1/profiles/${first.profileId}`, { auth: app.apiKey })).status).toBe(202);
    await waitFor(async () => ((await app.sql('select 1 from profile where id = $1', [profile.id])).length === 0 ? true : undefined), 'the profile to be deleted');
    for (const table of ['connection', 'account', 'account_owners', 'balance', 'transaction', 'session']) {
      expect(await app.sql(`select 1 from ${table} where profile_id = $1`, [profile.id]), table).toEqual([]);
    }
    expect(await eventsOf(first.profileId, 'profile.deleted')).toHaveLength(1);
  });
});
