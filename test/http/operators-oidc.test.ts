import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { SIGN_IN_WINDOW_MS } from '../../src/modules/operator/sign-in.ts';
import type { FakeOidcProvider } from '../fakes/oidc/server.ts';
import { asOperator, signIn, type ConsoleSession } from '../support/console.ts';
import { OIDC_CLIENT, startOidcApp } from '../support/oidc-app.ts';
import type { TestApp } from '../support/test-app.ts';

/**
 * Operators' sign-in through an OpenID Connect provider: a real one (node-oidc-provider) over
 * loopback HTTPS, with the service registered as its client. The browser's part is played here over
 * HTTP (the provider's sign-in form, the redirects, the cookies); test/http/console-browser-oidc.test.ts
 * plays it in Chromium.
 */

/** The service's clock: moved past the attempt's lifetime and the sign-in windows, never slept through. */
let offsetMs = 0;
let app: TestApp;
let provider: FakeOidcProvider;
let stop: () => Promise<void>;
let owner: ConsoleSession;
let environmentId: string;

beforeAll(async () => {
  ({ app, provider, stop } = await startOidcApp({ now: () => new Date(Date.now() + offsetMs) }));
  owner = await signIn(app, app.service.firstOperator!.email, app.service.firstOperator!.password);
  environmentId = encodeId('environment', app.environmentId);
});
afterAll(() => stop?.());
// Each test in a fresh second: the browser's requests come without a credential, and callers without
// one may send 25 a second (per address, on the service's clock).
beforeEach(() => {
  offsetMs += 1000;
});

/** An operator with a role in the bootstrap environment, made by the owner; `login` signs in as them at the provider. */
async function operatorAtProvider(role: 'VIEWER' | 'DEVELOPER', emailVerified = true) {
  const email = `${role.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.com`;
  const created = await app.http.post('/v1/operators', asOperator(owner, environmentId, { json: { email, role } }));
  expect(created.status).toBe(201);
  const login = `login-${email}`;
  // The provider may spell the email in capitals: operators' emails compare ignoring case.
  provider.accounts.set(login, { email: email.toUpperCase(), emailVerified });
  return { id: created.body.operator.id as string, email, login, password: created.body.password as string };
}

/** The service's start: where it sends the browser, and the attempt's cookie. */
async function start() {
  const started = await app.http.get('/v1/console/oidc/start');
  expect(started.status).toBe(303);
  const setCookie = String(started.headers['set-cookie']);
  return { authorizationUrl: started.headers.location!, setCookie, cookie: setCookie.split(';')[0]! };
}

/** The provider's way back to the service (a path and query on the service), with the browser's cookie. */
async function callback(callbackUrl: string, cookie?: string) {
  const url = new URL(callbackUrl);
  expect(url.origin).toBe(`https://localhost:${app.service.port}`);
  return app.http.get(`${url.pathname}${url.search}`, { headers: cookie ? { Cookie: cookie } : {} });
}

/** The whole way: start, sign in at the provider as `login`, come back. */
async function signInThrough(login: string) {
  const { authorizationUrl, cookie } = await start();
  return callback(await provider.signIn(authorizationUrl, login), cookie);
}

const refusedWith = (reason: string) => ({ status: 303, location: `/console#/?sign_in_error=${reason}`, cookie: undefined });
const outcome = (response: Awaited<ReturnType<typeof callback>>) => ({ status: response.status, location: response.headers.location, cookie: response.headers['set-cookie'] });

async function auditedSignIns(email: string | null) {
  return app.sql<{ operator_id: string | null; outcome: string; status: number; client_address: string }>(
    "select operator_id, outcome, status, client_address from operator_audit where action = 'completeOidcSignIn' and email is not distinct from $1 order by id",
    [email],
  );
}

describe('OpenID Connect sign-in', () => {
  it('tells the console it is on, under its name', async () => {
    const options = await app.http.get('/v1/console/sign-in');
    expect(options.status).toBe(200);
    expect(options.body).toEqual({ oidc: { name: OIDC_CLIENT.name } });
  });

  it('sends the browser to the provider with PKCE, state and nonce, kept encrypted in a cookie only the callback receives', async () => {
    const { authorizationUrl, setCookie } = await start();
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(provider.issuer);
    const query = Object.fromEntries(url.searchParams);
    expect(query).toMatchObject({ client_id: OIDC_CLIENT.clientId, response_type: 'code', scope: 'openid email', code_challenge_method: 'S256', redirect_uri: `https://localhost:${app.service.port}/v1/console/oidc/callback` });
    expect(query.state).toMatch(/^[\w-]{40,}$/);
    expect(query.nonce).toMatch(/^[\w-]{40,}$/);
    expect(query.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(setCookie).toMatch(/^__Secure-tributary-oidc=[^;]+; Path=\/v1\/console\/oidc\/callback; Max-Age=600; HttpOnly; Secure; SameSite=Lax$/);
    expect(setCookie).not.toContain(query.state);
    expect(setCookie).not.toContain(query.nonce);
  });

  it('signs an existing operator in with the same session as a password, and audits it', async () => {
    const { id, email, login } = await operatorAtProvider('DEVELOPER');
    const response = await signInThrough(login);
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe('/console');
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^__Secure-tributary-operator=[\w-]{43}; Max-Age=43200; Path=\/v1; HttpOnly; Secure; SameSite=Strict$/);
    const cookie = setCookie.split(';')[0]!;
    const session = await app.http.get('/v1/console/session', { headers: { Cookie: cookie } });
    expect(session.status).toBe(200);
    expect(session.body.operator).toMatchObject({ id, email });
    // A change made with it is the operator's own, with its CSRF token, as after a password sign-in.
    const profile = await app.http.post('/v1/profiles', asOperator({ cookie, csrfToken: session.body.csrfToken, origin: app.service.url }, environmentId, { json: {} }));
    expect(profile.status).toBe(201);
    expect(await auditedSignIns(email)).toEqual([{ operator_id: expect.any(String), outcome: 'SUCCEEDED', status: 200, client_address: '127.0.0.1' }]);
  });

  it('asks no TOTP code: the provider authenticated the operator', async () => {
    const { email, login, password } = await operatorAtProvider('VIEWER');
    const own = await signIn(app, email, password);
    const { secret } = (await app.http.post('/v1/console/totp', asOperator(own))).body;
    expect((await app.http.post('/v1/console/totp/confirm', asOperator(own, undefined, { json: { code: new TOTP({ secret: Secret.fromBase32(secret) }).generate() } }))).status).toBe(200);
    const response = await signInThrough(login);
    expect(response.headers.location).toBe('/console');
  });

  it('refuses an unknown email, an unverified one and a disabled operator alike, opening no session, and audits each', async () => {
    provider.accounts.set('stranger', { email: 'stranger@example.com', emailVerified: true });
    expect(outcome(await signInThrough('stranger'))).toEqual(refusedWith('refused'));
    const unverified = await operatorAtProvider('VIEWER', false);
    expect(outcome(await signInThrough(unverified.login))).toEqual(refusedWith('refused'));
    const disabled = await operatorAtProvider('VIEWER');
    expect((await app.http.send('PATCH', `/v1/operators/${disabled.id}`, asOperator(owner, environmentId, { json: { disabled: true } }))).status).toBe(200);
    expect(outcome(await signInThrough(disabled.login))).toEqual(refusedWith('refused'));
    // An account the provider knows without an email.
    expect(outcome(await signInThrough('no-email-at-all'))).toEqual(refusedWith('refused'));
    expect(await auditedSignIns('stranger@example.com')).toEqual([{ operator_id: null, outcome: 'REFUSED', status: 401, client_address: '127.0.0.1' }]);
    expect(await auditedSignIns(unverified.email)).toEqual([expect.objectContaining({ operator_id: expect.any(String), outcome: 'REFUSED', status: 401 })]);
    expect(await auditedSignIns(disabled.email)).toEqual([expect.objectContaining({ outcome: 'REFUSED', status: 401 })]);
  });

  it('refuses an answer that is not this browser\'s, or was tampered with, or is used again', async () => {
    const { login } = await operatorAtProvider('VIEWER');
    const { authorizationUrl, cookie } = await start();
    const answer = await provider.signIn(authorizationUrl, login);
    const tampered = (name: string, value: string) => {
      const url = new URL(answer);
      url.searchParams.set(name, value);
      return url.href;
    };
    // Another state, another code: refused before or at the provider; and the code is not spent by them.
    expect(outcome(await callback(tampered('state', 'x'.repeat(43)), cookie))).toEqual(refusedWith('refused'));
    expect(outcome(await callback(tampered('code', 'forged-code'), cookie))).toEqual(refusedWith('refused'));
    expect(outcome(await callback(tampered('iss', 'https://elsewhere.example.com'), cookie))).toEqual(refusedWith('refused'));
    // Another browser (no cookie, or its own attempt's), and a cookie that was altered.
    expect(outcome(await callback(answer))).toEqual(refusedWith('expired'));
    expect(outcome(await callback(answer, (await start()).cookie))).toEqual(refusedWith('refused'));
    expect(outcome(await callback(answer, `${cookie.slice(0, -4)}AAAA`))).toEqual(refusedWith('expired'));
    // The real answer signs in once; a replay of it (the back button) does not.
    expect((await callback(answer, cookie)).headers.location).toBe('/console');
    expect(outcome(await callback(answer, cookie))).toEqual(refusedWith('refused'));
  });

  it('tells a cancelled sign-in and one finished too late apart', async () => {
    const { authorizationUrl, cookie } = await start();
    expect(outcome(await callback(await provider.cancel(authorizationUrl), cookie))).toEqual(refusedWith('cancelled'));
    const { login } = await operatorAtProvider('VIEWER');
    const late = await start();
    const answer = await provider.signIn(late.authorizationUrl, login);
    offsetMs += 11 * 60_000;
    expect(outcome(await callback(answer, late.cookie))).toEqual(refusedWith('expired'));
  });

  it('counts its attempts with password sign-ins, per account', async () => {
    // The next sign-in window, from its start (at most 15 minutes on: the owner's session stays alive):
    // windows are fixed (multiples of 15 minutes), and one that ended midway would let the sign-in through.
    offsetMs += SIGN_IN_WINDOW_MS - ((Date.now() + offsetMs) % SIGN_IN_WINDOW_MS);
    const { email, login } = await operatorAtProvider('VIEWER');
    for (let i = 0; i < 10; i++) expect((await app.http.post('/v1/console/sign-in', { json: { email, password: 'guess' } })).status).toBe(401);
    expect(outcome(await signInThrough(login))).toEqual(refusedWith('rate_limited'));
    expect(await auditedSignIns(email)).toEqual([expect.objectContaining({ outcome: 'REFUSED', status: 429 })]);
    offsetMs += 15 * 60_000;
    expect((await signInThrough(login)).headers.location).toBe('/console');
  });
});
