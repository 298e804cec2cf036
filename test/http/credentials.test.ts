import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { builders, type Builders } from '../support/builders.ts';
import { asOperator, createEnvironmentWithKey } from '../support/environments.ts';
import { basicAuth, createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let build: Builders;
beforeAll(async () => {
  app = await startTestApp();
  build = builders(app);
});
afterAll(() => app?.stop());

/** Every instance re-checks a credential it knows valid at least once a second (src/http/credentials.ts). */
const TRUSTED_MS = 1000;
/**
 * Once the second a known credential is trusted has passed since `revoked` (taken when the revocation
 * had returned), the next request is refused: no instance may still answer from memory. The request's
 * own duration does not count, so a busy machine cannot fail it, and one that is still answered 200
 * proves the trust outlived its second.
 */
async function refusedOnceTrustLapses(revoked: number, request: () => Promise<{ status: number }>) {
  await sleep(Math.max(0, revoked + TRUSTED_MS - Date.now()));
  expect((await request()).status).toBe(401);
}

const profileQuery = (auth: string) => app.http.post('/v1/graphql', { auth, json: { query: '{ profile { id email metadata } }' } });

async function issueSession(userId?: string, extra: Record<string, unknown> = {}) {
  return app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { ...(userId ? { userId } : {}), ...extra } });
}

describe('API keys (Bearer sk_…)', () => {
  it('administer the environment over REST', async () => {
    expect((await app.http.get('/v1/profiles', { auth: app.apiKey })).status).toBe(200);
    expect(app.apiKey).toMatch(/^sk_[\w-]{43}$/);
  });

  it('are refused with 401 and WWW-Authenticate when missing, unknown or revoked', async () => {
    const missing = await app.http.get('/v1/profiles');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/Bearer/);
    expect(missing.body).toMatchObject({ requestId: expect.any(String), errorId: expect.any(String), instruction: expect.any(String) });
    expect((await app.http.get('/v1/profiles', { auth: 'sk_not-a-real-key' })).status).toBe(401);
    expect((await app.http.get('/v1/profiles', { auth: 'Token abc' })).status).toBe(401);
    const { apiKey, apiKeyId } = await createEnvironmentWithKey(app);
    expect((await app.http.get('/v1/profiles', { auth: apiKey })).status).toBe(200);
    await asOperator(app, (admin) => admin.revokeKey(apiKeyId));
    await refusedOnceTrustLapses(Date.now(), () => app.http.get('/v1/profiles', { auth: apiKey }));
  });

  it('cannot query a profile\'s data over GraphQL (403: an API key acts as no profile)', async () => {
    const response = await app.http.post('/v1/graphql', { auth: app.apiKey, json: { query: '{ profile { id } }' } });
    expect(response.status).toBe(403);
  });

  it('stores only a hash of the secret', async () => {
    const rows = await app.sql('select secret_hash, last_four from api_key');
    expect(JSON.stringify(rows)).not.toContain(app.apiKey);
    expect(rows.map((row: { last_four: string }) => row.last_four)).toContain(app.apiKey.slice(-4));
  });
});

describe('Basic Auth (profileId:apiSecretKey)', () => {
  it('acts as its profile on GraphQL and on its own profile over REST', async () => {
    const profile = await createProfile(app);
    const auth = basicAuth(profile.id, app.apiKey);
    const graphql = await profileQuery(auth);
    expect(graphql.status).toBe(200);
    expect(graphql.body.data.profile).toEqual({ id: profile.id, email: profile.email, metadata: profile.metadata });
    expect((await app.http.get(`/v1/profiles/${profile.id}`, { auth })).body.id).toBe(profile.id);
    expect((await app.http.patch(`/v1/profiles/${profile.id}`, { auth, json: { name: 'Self-renamed' } })).body.name).toBe('Self-renamed');
  });

  it('never reaches another profile, and cannot administer the environment (401: not an API secret key)', async () => {
    const mine = await createProfile(app);
    const other = await createProfile(app);
    const auth = basicAuth(mine.id, app.apiKey);
    expect((await app.http.get(`/v1/profiles/${other.id}`, { auth })).status).toBe(404);
    expect((await app.http.patch(`/v1/profiles/${other.id}`, { auth, json: { name: 'x' } })).status).toBe(404);
    const listed = await app.http.get('/v1/profiles', { auth });
    expect(listed.status).toBe(401);
    expect(listed.headers['www-authenticate']).toMatch(/Bearer/);
    expect(listed.body.message).toBe('This operation needs an API secret key');
    expect((await app.http.post('/v1/profiles', { auth, json: {} })).status).toBe(401);
    expect((await app.http.delete(`/v1/profiles/${mine.id}`, { auth })).status).toBe(401);
    expect((await app.http.post('/v1/users/sessions', { auth, json: {} })).status).toBe(401);
  });

  it('is refused for a profile of another environment or a wrong secret', async () => {
    const { apiKey } = await createEnvironmentWithKey(app);
    const profile = await createProfile(app);
    expect((await profileQuery(basicAuth(profile.id, apiKey))).status).toBe(401);
    expect((await profileQuery(basicAuth(profile.id, 'sk_wrong'))).status).toBe(401);
    expect((await profileQuery(`Basic ${Buffer.from('no-colon').toString('base64')}`)).status).toBe(401);
  });
});

describe('session tokens', () => {
  it('are issued for an existing profile by id or uuid, merging metadata', async () => {
    const profile = await createProfile(app, { metadata: { plan: 'gold' } });
    const byId = await issueSession(profile.id, { metadata: { channel: 'ios' } });
    expect(byId.status).toBe(201);
    expect(byId.body).toEqual({
      token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      userId: profile.id,
      userUuid: profile.uuid,
      environmentId: expect.stringMatching(/^env_/),
      expiresAt: expect.any(String),
    });
    const hours = (Date.parse(byId.body.expiresAt) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect((await app.http.get(`/v1/profiles/${profile.id}`, { auth: app.apiKey })).body.metadata).toEqual({ plan: 'gold', channel: 'ios' });
    const byUuid = await issueSession(profile.uuid);
    expect(byUuid.body.userId).toBe(profile.id);
  });

  it('create a profile when no userId is given', async () => {
    const response = await issueSession(undefined, { uuid: crypto.randomUUID(), metadata: { source: 'signup' } });
    expect(response.status).toBe(201);
    const profile = await app.http.get(`/v1/profiles/${response.body.userId}`, { auth: app.apiKey });
    expect(profile.body).toMatchObject({ uuid: response.body.userUuid, metadata: { source: 'signup' } });
  });

  it('refuse unknown profiles (404), deleting ones (409) and bad metadata (422)', async () => {
    expect((await issueSession(encodeId('profile', crypto.randomUUID()))).status).toBe(404);
    const profile = await createProfile(app);
    expect((await issueSession(profile.id, { metadata: { email: 'a@b.co' } })).status).toBe(422);
    const deleting = await build.profile({ deletingAt: new Date() });
    expect((await issueSession(encodeId('profile', deleting.id))).status).toBe(409);
  });

  it('act as their profile on GraphQL and the session endpoints only', async () => {
    const profile = await createProfile(app);
    const { token } = (await issueSession(profile.id)).body;
    const auth = `Bearer ${token}`;
    expect((await profileQuery(auth)).body.data.profile.id).toBe(profile.id);
    const info = await app.http.get('/v1/users/session', { auth });
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ id: expect.stringMatching(/^ses_/), userId: profile.id, userUuid: profile.uuid });
    // API-key-only operations: a session token is no API secret key (401); others refuse the kind (403).
    expect((await app.http.get('/v1/profiles', { auth })).status).toBe(401);
    expect((await app.http.get(`/v1/profiles/${profile.id}`, { auth })).status).toBe(403);
    expect((await app.http.get('/v1/users/session', { auth: app.apiKey })).status).toBe(403);
  });

  it('stop working once revoked, on this instance at once and on another within a second', async () => {
    const other = await startTestApp({}, { shareDatabaseOf: app });
    try {
      const profile = await createProfile(app);
      const { token } = (await issueSession(profile.id)).body;
      const auth = `Bearer ${token}`;
      expect((await other.http.get('/v1/users/session', { auth })).status).toBe(200);
      expect((await app.http.delete('/v1/users/session', { auth })).status).toBe(204);
      const revoked = Date.now();
      expect((await app.http.get('/v1/users/session', { auth })).status).toBe(401);
      expect((await profileQuery(auth)).status).toBe(401);
      await refusedOnceTrustLapses(revoked, () => other.http.get('/v1/users/session', { auth }));
    } finally {
      await other.stop();
    }
  });

  it('are refused when forged, tampered with or for a deleted profile', async () => {
    const profile = await createProfile(app);
    const { token } = (await issueSession(profile.id)).body;
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: encodeId('profile', crypto.randomUUID()) })).toString('base64url')}.${signature}`;
    expect((await app.http.get('/v1/users/session', { auth: `Bearer ${forged}` })).status).toBe(401);
    await app.http.delete(`/v1/profiles/${profile.id}`, { auth: app.apiKey });
    await refusedOnceTrustLapses(Date.now(), () => app.http.get('/v1/users/session', { auth: `Bearer ${token}` }));
  });

  it('are refused by GET /v1/users/session (401, not 200 or 404) as soon as their profile is deleted, within the second a known token is trusted', async () => {
    const profile = await createProfile(app);
    const auth = `Bearer ${(await issueSession(profile.id)).body.token}`;
    expect((await app.http.get('/v1/users/session', { auth })).status).toBe(200);
    await app.http.delete(`/v1/profiles/${profile.id}`, { auth: app.apiKey });
    const whileMarked = await app.http.get('/v1/users/session', { auth });
    await app.sql('delete from session where profile_id = (select id from profile where uuid = $1)', [profile.uuid]);
    const onceRemoved = await app.http.get('/v1/users/session', { auth });
    expect([whileMarked.status, onceRemoved.status]).toEqual([401, 401]);
  });

  it('are limited to 10 active per profile per hour (429 with Retry-After); revoked ones do not count; Basic Auth is not limited', async () => {
    // The rolling windows themselves (hour and day, what ages out when) are SessionService's, tested in test/services.
    const profile = await createProfile(app);
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) tokens.push((await issueSession(profile.id)).body.token);
    const refused = await issueSession(profile.id);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('SESSION_LIMIT');
    expect(refused.body.message).toMatch(/10 active session tokens issued in the last hour/);
    expect(refused.body.instruction).toMatch(/Basic Auth/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect((await profileQuery(basicAuth(profile.id, app.apiKey))).status).toBe(200);
    await app.http.delete('/v1/users/session', { auth: `Bearer ${tokens[0]}` });
    expect((await issueSession(profile.id)).status).toBe(201);
    expect((await issueSession(profile.id)).status).toBe(429);
  });

  it('cannot be issued for another environment\'s profile', async () => {
    const { apiKey } = await createEnvironmentWithKey(app);
    const profile = await createProfile(app);
    const response = await app.http.post('/v1/users/sessions', { auth: apiKey, json: { userId: profile.id } });
    expect(response.status).toBe(404);
  });
});

describe('GraphQL without credentials', () => {
  it('is refused with 401 before execution', async () => {
    const response = await app.http.post('/v1/graphql', { json: { query: '{ profile { id } }' } });
    expect(response.status).toBe(401);
    expect(response.body.errorId).toMatch(/^err_/);
  });
});
