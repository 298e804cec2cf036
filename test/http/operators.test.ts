import { TOTP, Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { asOperator, signIn, type ConsoleSession } from '../support/console.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/** The service's clock: moved forward by tests, never slept through. */
let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);

let app: TestApp;
let owner: { email: string; password: string };
let environmentId: string;
beforeAll(async () => {
  app = await startTestApp({}, { now });
  owner = app.service.firstOperator!;
  environmentId = encodeId('environment', app.environmentId);
});
afterAll(() => app?.stop());

/** A new operator with `role` in the bootstrap environment, made by the first operator through the contract. */
async function newOperator(role: 'OWNER' | 'DEVELOPER' | 'VIEWER', inEnvironment = environmentId) {
  const session = await signIn(app, owner.email, owner.password);
  const email = `${role.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.com`;
  const created = await app.http.post('/v1/operators', asOperator(session, inEnvironment, { json: { email, role } }));
  expect(created.status).toBe(201);
  return { id: created.body.operator.id as string, email, password: created.body.password as string };
}

const RULE = { descriptionContains: 'csrf test', category: { primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_COFFEE' } };

function codeAt(secret: string, at: Date): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });
}

describe('the first operator', () => {
  it('is created once, owner of every environment, with a password only its start shows', async () => {
    expect(owner.email).toBe('admin@tributary.local');
    expect(owner.password.length).toBeGreaterThanOrEqual(20);
    const [row] = await app.sql('select password_hash from operator where email = $1', [owner.email]);
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(JSON.stringify(await app.sql('select * from operator'))).not.toContain(owner.password);
    const second = await startTestApp({}, { shareDatabaseOf: app });
    try {
      expect(second.service.firstOperator).toBeUndefined();
    } finally {
      await second.stop();
    }
    const session = await signIn(app, owner.email, owner.password);
    expect(session.response.body.operator).toMatchObject({ email: owner.email, roles: [{ environmentId: null, role: 'OWNER' }], totpEnabled: false, disabled: false });
  });
});

describe('sign-in', () => {
  it('sets an HttpOnly, Secure, SameSite=Strict cookie on /v1 holding a token stored only hashed', async () => {
    const { response, cookie } = await signIn(app, owner.email.toUpperCase(), owner.password);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^__Secure-tributary-operator=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/v1; HttpOnly; Secure; SameSite=Strict$/);
    const token = cookie.split('=')[1]!;
    expect(JSON.stringify(await app.sql('select * from operator_session'))).not.toContain(token);
    const session = await app.http.get('/v1/console/session', { headers: { Cookie: cookie } });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ operator: { email: owner.email }, csrfToken: response.body.csrfToken, totpEnrolmentRequired: false });
  });

  it('answers an unknown email and a wrong password alike', async () => {
    const wrong = await app.http.post('/v1/console/sign-in', { json: { email: owner.email, password: 'not it' } });
    const unknown = await app.http.post('/v1/console/sign-in', { json: { email: 'nobody@example.com', password: 'not it' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const shape = (body: Record<string, unknown>) => ({ code: body.code, message: body.message, instruction: body.instruction });
    expect(shape(wrong.body)).toEqual(shape(unknown.body));
    expect(wrong.body.code).toBe('SIGN_IN_REFUSED');
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('asks for a TOTP code once an operator turns TOTP on, and accepts each code once', async () => {
    const developer = await newOperator('DEVELOPER');
    const session = await signIn(app, developer.email, developer.password);
    const started = await app.http.post('/v1/console/totp', asOperator(session));
    expect(started.status).toBe(201);
    expect(started.body.uri).toMatch(/^otpauth:\/\/totp\/Tributary:.+\?.*secret=/);
    const { secret } = started.body;
    const [stored] = await app.sql('select totp_pending_encrypted from operator where email = $1', [developer.email]);
    expect(stored.totp_pending_encrypted).toMatch(/^v2\./);
    expect(stored.totp_pending_encrypted).not.toContain(secret);
    expect((await app.http.post('/v1/console/totp/confirm', asOperator(session, undefined, { json: { code: '000000' === codeAt(secret, now()) ? '111111' : '000000' } }))).status).toBe(422);
    const confirmed = await app.http.post('/v1/console/totp/confirm', asOperator(session, undefined, { json: { code: codeAt(secret, now()) } }));
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.operator.totpEnabled).toBe(true);

    const withoutCode = await app.http.post('/v1/console/sign-in', { json: { email: developer.email, password: developer.password } });
    expect(withoutCode.status).toBe(401);
    expect(withoutCode.body.code).toBe('TOTP_REQUIRED');
    const wrongPassword = await app.http.post('/v1/console/sign-in', { json: { email: developer.email, password: 'nope' } });
    expect(wrongPassword.body.code).toBe('SIGN_IN_REFUSED');
    offsetMs += 60_000; // the next step: the confirming code was the last one accepted
    const code = codeAt(secret, now());
    expect((await signIn(app, developer.email, developer.password, code)).response.status).toBe(200);
    const replayed = await app.http.post('/v1/console/sign-in', { json: { email: developer.email, password: developer.password, totpCode: code } });
    expect(replayed.status).toBe(401);
    expect(replayed.body.code).toBe('SIGN_IN_REFUSED');
  });

  it('lets an owner require TOTP: until it is on, only the session\'s own operations are open', async () => {
    const viewer = await newOperator('VIEWER');
    const ownerSession = await signIn(app, owner.email, owner.password);
    expect((await app.http.patch(`/v1/operators/${viewer.id}`, asOperator(ownerSession, environmentId, { json: { totpRequired: true } }))).body.totpRequired).toBe(true);
    const session = await signIn(app, viewer.email, viewer.password);
    expect(session.response.body.totpEnrolmentRequired).toBe(true);
    const refused = await app.http.get('/v1/profiles', asOperator(session, environmentId));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('TOTP_ENROLMENT_REQUIRED');
    const { secret } = (await app.http.post('/v1/console/totp', asOperator(session))).body;
    await app.http.post('/v1/console/totp/confirm', asOperator(session, undefined, { json: { code: codeAt(secret, now()) } }));
    expect((await app.http.get('/v1/profiles', asOperator(session, environmentId))).status).toBe(200);
  });
});

describe('the console session', () => {
  it('refuses a state-changing request without the CSRF token, with another, or from another origin', async () => {
    const session = await signIn(app, owner.email, owner.password);
    const other = await signIn(app, owner.email, owner.password);
    const create = (options: ConsoleSession) => app.http.post('/v1/categorization/rules', asOperator(options, environmentId, { json: RULE }));
    for (const forged of [{ ...session, csrfToken: '' }, { ...session, csrfToken: other.csrfToken }, { ...session, origin: 'https://evil.example' }]) {
      const refused = await create(forged);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('CSRF_REFUSED');
    }
    const withoutOrigin = await app.http.post('/v1/categorization/rules', { headers: { Cookie: session.cookie, 'X-CSRF-Token': session.csrfToken, 'Tributary-Environment': environmentId }, json: {} });
    expect(withoutOrigin.body.code).toBe('CSRF_REFUSED');
    expect(await app.sql(`select 1 from categorization_rule where description_contains = 'csrf test'`)).toEqual([]);
    expect((await create(session)).status).toBe(201);
  });

  it('ends after 30 idle minutes, and 12 hours after sign-in however busy', async () => {
    const idle = await signIn(app, owner.email, owner.password);
    const busy = await signIn(app, owner.email, owner.password);
    offsetMs += 29 * 60_000;
    expect((await app.http.get('/v1/console/session', asOperator(busy))).status).toBe(200);
    offsetMs += 2 * 60_000;
    expect((await app.http.get('/v1/console/session', asOperator(idle))).status).toBe(401);
    for (let hour = 0; hour < 23; hour++) {
      expect((await app.http.get('/v1/console/session', asOperator(busy))).status).toBe(200);
      offsetMs += 29 * 60_000;
    }
    offsetMs += 29 * 60_000;
    const ended = await app.http.get('/v1/console/session', asOperator(busy));
    expect(ended.status).toBe(401);
    expect(ended.body.code).toBe('UNAUTHENTICATED');
  });

  it('ends at sign-out, and when the operator is disabled', async () => {
    const session = await signIn(app, owner.email, owner.password);
    const signedOut = await app.http.delete('/v1/console/session', asOperator(session));
    expect(signedOut.status).toBe(204);
    expect(String(signedOut.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await app.http.get('/v1/console/session', asOperator(session))).status).toBe(401);

    const developer = await newOperator('DEVELOPER');
    const theirs = await signIn(app, developer.email, developer.password);
    const ownerSession = await signIn(app, owner.email, owner.password);
    expect((await app.http.patch(`/v1/operators/${developer.id}`, asOperator(ownerSession, environmentId, { json: { disabled: true } }))).body.disabled).toBe(true);
    expect((await app.http.get('/v1/console/session', asOperator(theirs))).status).toBe(401);
    const again = await app.http.post('/v1/console/sign-in', { json: { email: developer.email, password: developer.password } });
    expect(again.body.code).toBe('SIGN_IN_REFUSED');
  });

  it('acts only on an environment it names, and is not a GraphQL credential', async () => {
    const session = await signIn(app, owner.email, owner.password);
    const unnamed = await app.http.get('/v1/profiles', asOperator(session));
    expect(unnamed.status).toBe(400);
    const graphql = await app.http.post('/v1/graphql', asOperator(session, environmentId, { json: { query: '{ profile { id } }' } }));
    expect(graphql.status).toBe(403);
  });
});

describe('operator management and the audit log', () => {
  it('shows a password once at creation and reset; a reset ends their sessions', async () => {
    const viewer = await newOperator('VIEWER');
    const theirs = await signIn(app, viewer.email, viewer.password);
    const ownerSession = await signIn(app, owner.email, owner.password);
    const reset = await app.http.post(`/v1/operators/${viewer.id}/password-reset`, asOperator(ownerSession, environmentId));
    expect(reset.status).toBe(200);
    expect((await app.http.get('/v1/console/session', asOperator(theirs))).status).toBe(401);
    expect((await signIn(app, viewer.email, reset.body.password)).response.status).toBe(200);
    const listed = await app.http.get('/v1/operators?limit=100', asOperator(ownerSession, environmentId));
    expect(listed.body.map((operator: { email: string }) => operator.email)).toContain(viewer.email);
    expect(JSON.stringify(listed.body)).not.toContain('password');
    const taken = await app.http.post('/v1/operators', asOperator(ownerSession, environmentId, { json: { email: viewer.email.toUpperCase(), role: 'VIEWER' } }));
    expect(taken.status).toBe(409);
  });

  it('keeps an append-only entry of each change and each sign-in, listed by cursor to owners', async () => {
    const developer = await newOperator('DEVELOPER');
    const session = await signIn(app, developer.email, developer.password);
    await app.http.post('/v1/console/sign-in', { json: { email: developer.email, password: 'wrong' } });
    const created = await app.http.post('/v1/categorization/rules', asOperator(session, environmentId, { json: RULE }));
    expect(created.status).toBe(201);
    const refused = await app.http.post('/v1/operators', asOperator(session, environmentId, { json: { email: 'x@example.com', role: 'OWNER' }, headers: { 'User-Agent': 'audit-test' } }));
    expect(refused.status).toBe(403);

    const ownerSession = await signIn(app, owner.email, owner.password);
    const entries: Array<Record<string, unknown>> = [];
    let after = '';
    for (;;) {
      const page = await app.http.get(`/v1/audit-log?limit=100${after}`, asOperator(ownerSession, environmentId));
      expect(page.status).toBe(200);
      entries.push(...page.body);
      if (!page.headers['next-cursor']) break;
      after = `&after=${String(page.headers['next-cursor'])}`;
    }
    const mine = entries.filter((entry) => entry.email === developer.email);
    expect(mine.map(({ action, outcome, status }) => ({ action, outcome, status }))).toEqual([
      { action: 'signInOperator', outcome: 'SUCCEEDED', status: 200 },
      { action: 'signInOperator', outcome: 'REFUSED', status: 401 },
      { action: 'createCategorizationRule', outcome: 'SUCCEEDED', status: 201 },
      { action: 'createOperator', outcome: 'REFUSED', status: 403 },
    ]);
    expect(mine[3]).toMatchObject({ operatorId: developer.id, environmentId, userAgent: 'audit-test', clientAddress: expect.stringMatching(/127\.0\.0\.1|::1/) });
    expect(mine[2]!.environmentId).toBe(environmentId);
    await expect(app.sql('update operator_audit set outcome = $1', ['SUCCEEDED'])).rejects.toThrow(/append-only/);
    await expect(app.sql('delete from operator_audit')).rejects.toThrow(/append-only/);

    // An owner of one environment sees that environment's entries only, not sign-ins.
    const { environmentId: otherEnvironment } = await createEnvironmentWithKey(app);
    const localOwner = await newOperator('OWNER', otherEnvironment);
    const local = await signIn(app, localOwner.email, localOwner.password);
    const theirs = await app.http.get('/v1/audit-log?limit=100', asOperator(local, otherEnvironment));
    expect(theirs.body.every((entry: { environmentId: string }) => entry.environmentId === otherEnvironment)).toBe(true);
  });
});
