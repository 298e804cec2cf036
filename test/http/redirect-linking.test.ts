import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId } from '../../src/lib/ids.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { createProfile, sessionFor } from '../support/factories.ts';
import { callBack, sandboxBankChoice, startRedirect } from '../support/redirect-links.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.stop();
});

async function connectionsOf(profileId: string) {
  return app.sql('select id, status, institution_id, generation from connection where profile_id = $1 order by id', [decodeId('profile', profileId)]);
}

async function connectionIn(profileId: string, status: string) {
  return waitFor(async () => {
    const rows = await connectionsOf(profileId);
    return rows.length === 1 && rows[0].status === status ? rows[0] : undefined;
  }, `the connection to be ${status}`);
}

/** A profile with a session, and a redirect link it started at the German sandbox bank. */
async function startedAtTheBank() {
  const profile = await createProfile(app);
  const token = await sessionFor(app, profile.id);
  const link = await startRedirect(app, token, { provider: 'sandbox', institutionId: 'ins_sandbox_bank_de' });
  return { profile, token, ...link };
}

describe('institution search', () => {
  it('lists the environment\'s institutions by country and name fragment, sorted and paged, for an API key or a session', async () => {
    const germany = await app.http.get('/v1/institutions?country=DE', { auth: app.apiKey });
    expect(germany.status).toBe(200);
    expect(germany.body).toEqual([{ id: 'ins_sandbox_bank_de', name: 'Sandbox Bank Deutschland', provider: 'sandbox', countries: ['DE'], logoUrl: null, products: ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_OWNERS', 'STATEMENTS'] }]);

    const token = await sessionFor(app, (await createProfile(app)).id);
    const byName = await app.http.get('/v1/institutions?name=SVERIGE', { auth: token });
    expect(byName.body.map((institution: { id: string }) => institution.id)).toEqual(['ins_sandbox_bank_se']);

    const everything = await app.http.get('/v1/institutions?limit=2&page=2', { auth: app.apiKey });
    expect(everything.headers['total-count']).toBe('8');
    expect(everything.body.map((institution: { name: string }) => institution.name)).toEqual(['Kea Bank', 'Quokka Investments']);
    expect((await app.http.get('/v1/institutions?country=FR', { auth: app.apiKey })).body).toEqual([]);
  });

  it('refuses a malformed country, and lists no sandbox banks in a PRODUCTION environment', async () => {
    const lower = await app.http.get('/v1/institutions?country=de', { auth: app.apiKey });
    expect(lower.status).toBe(422);
    expect(lower.body).toMatchObject({ code: 'VALIDATION_FAILED', requestId: expect.any(String), errorId: expect.any(String) });
    const production = await createEnvironmentWithKey(app, 'PRODUCTION');
    expect((await app.http.get('/v1/institutions', { auth: production.apiKey })).body).toEqual([]);
    expect((await app.http.get('/v1/institutions?provider=sandbox', { auth: production.apiKey })).status).toBe(403);
  });
});

describe('redirect linking', () => {
  it('asks for an institution first, then sends a redirect bank\'s end-user to its page with a one-time state and a path-scoped cookie', async () => {
    const token = await sessionFor(app, (await createProfile(app)).id);
    const search = await app.http.post('/v1/connect/link', { auth: token, json: {} });
    expect(search.body).toEqual({ provider: 'sandbox', kind: 'INSTITUTION_SEARCH' });
    const credentials = await app.http.post('/v1/connect/link', { auth: token, json: { institutionId: 'ins_houndstooth' } });
    expect(credentials.body).toMatchObject({ kind: 'CREDENTIALS', institutions: [{ id: 'ins_houndstooth' }] });
    expect(credentials.headers['set-cookie']).toBeUndefined();
    expect((await app.http.post('/v1/connect/link', { auth: token, json: { institutionId: 'ins_nowhere' } })).status).toBe(404);

    const response = await app.http.post('/v1/connect/link', { auth: token, json: { institutionId: 'ins_sandbox_bank_de' } });
    const url = new URL(response.body.url);
    expect(url.origin).toBe(`https://localhost:${app.service.port}`);
    expect(url.pathname).toBe('/v1/sandbox/bank');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    expect(Date.parse(response.body.expiresAt) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    expect(response.headers['set-cookie']).toEqual([expect.stringMatching(/^tributary_link=[\w-]{43}; Path=\/v1\/connect\/callback; Max-Age=900; HttpOnly; Secure; SameSite=Lax$/)]);
    const [stored] = await app.sql('select state_hash, browser_hash from link_state order by created_at desc limit 1');
    expect(JSON.stringify(stored)).not.toContain(url.searchParams.get('state'));
  });

  it('approve: connects the bank, syncs it, and refuses the same state a second time', async () => {
    const { profile, state, cookie } = await startedAtTheBank();
    const approve = await sandboxBankChoice(app, state, 'Approve');
    const outcome = await callBack(app, approve, cookie);
    expect(outcome.get('institution')).toBe('Sandbox Bank Deutschland');
    const connection = await connectionIn(profile.id, 'SYNCED');
    expect(outcome.get('linked')).toMatch(/^conn_/);
    expect(decodeId('connection', outcome.get('linked')!)).toBe(connection.id);
    expect(connection.institution_id).toBe('ins_sandbox_bank_de');
    const currencies = await app.sql('select distinct currency_code from account where connection_id = $1', [connection.id]);
    expect(currencies).toEqual([{ currency_code: 'EUR' }]);

    expect((await callBack(app, approve, cookie)).get('link_error')).toBe('expired');
    expect((await app.http.get(`/v1/sandbox/bank?state=${state}`)).status).toBe(404);
    expect(await connectionsOf(profile.id)).toHaveLength(1);
  });

  it('of two callbacks racing with the same state, one connects and the other reads expired', async () => {
    const { profile, state, cookie } = await startedAtTheBank();
    const approve = await sandboxBankChoice(app, state, 'Approve');
    const outcomes = await Promise.all([callBack(app, approve, cookie), callBack(app, approve, cookie)]);
    expect(outcomes.map((outcome) => (outcome.has('linked') ? 'linked' : outcome.get('link_error'))).sort()).toEqual(['expired', 'linked']);
    expect(await connectionsOf(profile.id)).toHaveLength(1);
  });

  it('cancel and bank error at the bank: nothing connected, the state used up, a new start works', async () => {
    const { profile, token, state, cookie } = await startedAtTheBank();
    expect((await callBack(app, await sandboxBankChoice(app, state, 'Cancel'), cookie)).get('link_error')).toBe('cancelled');
    expect((await callBack(app, { state, code: 'anything' }, cookie)).get('link_error')).toBe('expired');

    const again = await startRedirect(app, token, { institutionId: 'ins_sandbox_bank_de' });
    expect((await callBack(app, await sandboxBankChoice(app, again.state, 'Bank error'), again.cookie)).get('link_error')).toBe('bank_error');
    expect(await connectionsOf(profile.id)).toEqual([]);

    const third = await startRedirect(app, token, { institutionId: 'ins_sandbox_bank_de' });
    expect((await callBack(app, await sandboxBankChoice(app, third.state, 'Approve'), third.cookie)).get('linked')).toMatch(/^conn_/);
  });

  it('without the browser\'s cookie, with another session\'s cookie, or with a tampered state: nothing happens, and the same answer for each', async () => {
    const owner = await startedAtTheBank();
    const approve = await sandboxBankChoice(app, owner.state, 'Approve');
    const intruder = await startedAtTheBank();

    expect((await callBack(app, approve)).get('link_error')).toBe('invalid');
    expect((await callBack(app, approve, intruder.cookie)).get('link_error')).toBe('invalid');
    expect((await callBack(app, approve, 'tributary_link=forged')).get('link_error')).toBe('invalid');
    // Its last character changed (to another one: a state ending in A stayed the same state one run in 64).
    expect((await callBack(app, { ...approve, state: `${owner.state.slice(0, -1)}${owner.state.endsWith('A') ? 'B' : 'A'}` }, owner.cookie)).get('link_error')).toBe('invalid');
    expect((await callBack(app, { ...approve, state: 'never-issued' }, intruder.cookie)).get('link_error')).toBe('invalid');
    expect((await callBack(app, { code: approve.code! }, owner.cookie)).get('link_error')).toBe('invalid');
    expect(await connectionsOf(owner.profile.id)).toEqual([]);
    expect(await connectionsOf(intruder.profile.id)).toEqual([]);

    // None of that used the owner's state up.
    expect((await callBack(app, approve, owner.cookie)).get('linked')).toMatch(/^conn_/);
    expect(await connectionsOf(intruder.profile.id)).toEqual([]);
  });

  it('an expired state, or one whose session was revoked, connects nothing', async () => {
    const expired = await startedAtTheBank();
    const approve = await sandboxBankChoice(app, expired.state, 'Approve');
    await app.sql('update link_state set expires_at = now() - interval \'1 second\' where profile_id = $1', [decodeId('profile', expired.profile.id)]);
    expect((await callBack(app, approve, expired.cookie)).get('link_error')).toBe('expired');

    const revoked = await startedAtTheBank();
    expect((await app.http.delete('/v1/users/session', { auth: revoked.token })).status).toBe(204);
    expect((await callBack(app, await sandboxBankChoice(app, revoked.state, 'Approve'), revoked.cookie)).get('link_error')).toBe('expired');
    expect(await connectionsOf(expired.profile.id)).toEqual([]);
    expect(await connectionsOf(revoked.profile.id)).toEqual([]);
  });

  it('an authorization code the bank did not issue for this institution is a bank error', async () => {
    const { profile, state, cookie } = await startedAtTheBank();
    const forged = Buffer.from(JSON.stringify({ institutionId: 'ins_sandbox_bank_se', nonce: '00' })).toString('base64url');
    expect((await callBack(app, { state, code: forged }, cookie)).get('link_error')).toBe('bank_error');
    expect(await connectionsOf(profile.id)).toEqual([]);
  });

  it('repairs a redirect bank\'s connection by sending the end-user straight to its bank', async () => {
    const profile = await createProfile(app);
    const created = await app.http.post('/v1/sandbox/connections', {
      auth: app.apiKey,
      json: { profileId: profile.id, institutionId: 'ins_sandbox_bank_se', username: 'user_bad_login', password: 'any' },
    });
    expect(created.status).toBe(201);
    await connectionIn(profile.id, 'ERROR_REPAIRABLE');
    const token = await sessionFor(app, profile.id);
    const repair = await startRedirect(app, token, { connectionId: created.body.id });
    expect(repair.body.institution).toEqual({ id: 'ins_sandbox_bank_se', name: 'Sandbox Bank Sverige' });
    const outcome = await callBack(app, await sandboxBankChoice(app, repair.state, 'Approve'), repair.cookie);
    expect(outcome.get('linked')).toBe(created.body.id);
    const repaired = await connectionIn(profile.id, 'SYNCED');
    expect(repaired.generation).toBe(2);
  });

  it('answers a malformed callback with the contract\'s error, never a 500', async () => {
    const response = await app.http.get(`/v1/connect/callback?state=${'x'.repeat(201)}`);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', requestId: expect.any(String), errorId: expect.any(String) });
    expect((await app.http.get('/v1/sandbox/bank?state=unknown')).status).toBe(404);
  });
});
