import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepRecentStatements, queryStats, statementsSince } from '../../src/db/query-stats.ts';
import { encodeId } from '../../src/lib/ids.ts';
import { nextSecond, tally, warm } from '../support/bursts.ts';
import { asOperator, createEnvironmentWithKey } from '../support/environments.ts';
import { basicAuth, createProfile } from '../support/factories.ts';
import type { TestResponse } from '../support/http-client.ts';
import { trustingWebSocket, type Closed } from '../support/live-client.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

// The statements this file counts are those the service sends in this process.
keepRecentStatements();

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

const unknownKey = () => `sk_${crypto.randomUUID().replaceAll('-', '')}`;
// A session's own lookup names its id (the ended sessions' periodic load, which names none, is not a credential's lookup).
const CREDENTIAL_LOOKUP = /from api_key |from "profile" as "p0" where "p0"\."id" = \? and "p0"\."environment_id"|from session s join profile p on p\.id = s\.profile_id\s+where s\.id = /;

/** What `work` returned, and the credential lookups (API key, Basic pair's profile, session liveness) sent meanwhile. */
async function withLookups<T>(work: () => Promise<T>): Promise<{ result: T; lookups: number }> {
  const before = queryStats.statements;
  const result = await work();
  return { result, lookups: statementsSince(before).filter((sql) => CREDENTIAL_LOOKUP.test(sql)).length };
}

/**
 * `count` requests at once from this test's one address, just after a wall-clock second begins (on
 * keep-alive connections opened in an earlier second), and how many window seconds they spanned.
 */
async function atOnce(count: number, send: () => Promise<TestResponse>) {
  await Promise.all(Array.from({ length: 40 }, () => app.http.get('/healthz')));
  await nextSecond();
  const started = Date.now();
  const responses = await Promise.all(Array.from({ length: count }, send));
  const windows = Math.floor(Date.now() / 1000) - Math.floor(started / 1000) + 1;
  const unauthorized = responses.filter((r) => r.status === 401);
  for (const response of unauthorized) expect(response.headers['www-authenticate']).toMatch(/Bearer/);
  // Refused before a lookup by the address's lookup budget (100/s), or after it against the address's window (25/s).
  const limited = responses.filter((r) => r.status === 429);
  const limitedBeforeLookup = limited.filter((r) => r.headers['ratelimit-limit'] === '100').length;
  for (const response of [...unauthorized, ...limited]) expect(['25', '100']).toContain(response.headers['ratelimit-limit']);
  for (const response of unauthorized) expect(response.headers['ratelimit-limit']).toBe('25');
  return { unauthorized: unauthorized.length, limited: limited.length, limitedBeforeLookup, windows };
}

describe('invalid credentials are limited per address, and bounded before they cost a lookup', () => {
  it('the same unknown API key 200 times at once: one lookup; 401 for the address window of 25, then 429', async () => {
    const key = unknownKey();
    const { result, lookups } = await withLookups(() => atOnce(200, () => app.http.get('/v1/profiles', { auth: key })));
    expect(lookups).toBe(1);
    expect(result.unauthorized + result.limited).toBe(200);
    expect(result.limitedBeforeLookup).toBe(0);
    expect(result.unauthorized).toBeGreaterThanOrEqual(25);
    expect(result.unauthorized).toBeLessThanOrEqual(25 * result.windows);
  });

  it('200 different unknown API keys at once: only the requests the address\'s lookup budget admits are looked up', async () => {
    const { result, lookups } = await withLookups(() => atOnce(200, () => app.http.get('/v1/profiles', { auth: unknownKey() })));
    expect(result.unauthorized + result.limited).toBe(200);
    expect(result.unauthorized).toBeLessThanOrEqual(25 * result.windows);
    expect(lookups).toBeLessThanOrEqual(100 * result.windows);
    expect(lookups + result.limitedBeforeLookup).toBe(200);
  });

  it('remembers unknown keys, unknown Basic pairs and revoked sessions: repeating them costs no lookup', async () => {
    await nextSecond();
    const profile = await createProfile(app);
    const { token } = (await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profile.id } })).body;
    expect((await app.http.delete('/v1/users/session', { auth: `Bearer ${token}` })).status).toBe(204);
    const invalid = [unknownKey(), basicAuth(encodeId('profile', crypto.randomUUID()), app.apiKey), basicAuth(profile.id, unknownKey()), `Bearer ${token}`];
    await nextSecond();
    for (const auth of invalid) expect((await app.http.get('/v1/users/session', { auth })).status).toBe(401);
    const { result, lookups } = await withLookups(async () => {
      const statuses: number[] = [];
      for (let round = 0; round < 4; round++) for (const auth of invalid) statuses.push((await app.http.get('/v1/users/session', { auth })).status);
      return statuses;
    });
    expect(new Set(result)).toEqual(new Set([401]));
    expect(lookups).toBe(0);
  });

  it('looks an unknown secret up again after a few seconds, so an imported older-generation key starts working', async () => {
    const legacy = `legacy${crypto.randomUUID().replaceAll('-', '')}`;
    await nextSecond();
    expect((await app.http.get('/v1/profiles', { auth: legacy })).status).toBe(401);
    await asOperator(app, async (admin) => {
      const [environment] = await admin.listEnvironments();
      await admin.importLegacyKey(encodeId('environment', environment!.id), 'imported', legacy);
    });
    await waitFor(async () => ((await app.http.get('/v1/profiles', { auth: legacy })).status === 200 ? true : undefined), 'the imported key to work', 10_000);
  });
});

describe('valid credentials keep their own window (100/s each)', () => {
  it('a key this instance has never seen: its first burst of 60 is counted against the key (100/s), not the address (25/s)', async () => {
    const { apiKey } = await createEnvironmentWithKey(app);
    await nextSecond();
    const responses = await Promise.all(Array.from({ length: 60 }, () => app.http.get('/v1/profiles', { auth: apiKey })));
    expect(responses.map((r) => r.status)).toEqual(Array(60).fill(200));
    expect(new Set(responses.map((r) => r.headers['ratelimit-limit']))).toEqual(new Set(['100']));
  });

  it('a session token never seen before succeeds from an address whose anonymous window is used up; invalid credentials from it are still refused', async () => {
    await warm(() => app.http.get('/healthz'));
    const profile = await createProfile(app);
    // The steps must share one window second: retry a bounded number of times when they straddle two.
    for (let attempt = 0; attempt < 5; attempt++) {
      const { token } = (await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profile.id } })).body;
      await nextSecond();
      const second = Math.floor(Date.now() / 1000);
      const anonymous = await Promise.all(Array.from({ length: 30 }, () => app.http.get('/healthz')));
      const valid = await app.http.get('/v1/users/session', { auth: `Bearer ${token}` });
      const invalid = await app.http.get('/v1/profiles', { auth: unknownKey() });
      if (Math.floor(Date.now() / 1000) !== second) continue;
      expect(tally(anonymous)).toMatchObject({ ok: 25, limited: 5 });
      expect(valid.status).toBe(200);
      expect(valid.headers['ratelimit-limit']).toBe('100');
      expect(invalid.status).toBe(429);
      expect(invalid.headers['ratelimit-limit']).toBe('25');
      return;
    }
    throw new Error('could not fit the steps into one second in 5 attempts');
  });

  it('a hot Basic pair costs no lookup per request', async () => {
    const profile = await createProfile(app);
    const auth = basicAuth(profile.id, app.apiKey);
    expect((await app.http.get(`/v1/profiles/${profile.id}`, { auth })).status).toBe(200);
    await nextSecond();
    const { result: seconds, lookups } = await withLookups(async () => {
      const first = Math.floor(Date.now() / 1000);
      for (let i = 0; i < 20; i++) expect((await app.http.post('/v1/graphql', { auth, json: { query: '{ profile { id } }' } })).status).toBe(200);
      return Math.floor(Date.now() / 1000) - first + 1;
    });
    // Re-checked at most once a second: a recheck reads the key and the pair's profile (two lookups),
    // so 20 requests cost two lookups per second they span (one second or two on a quiet machine, more
    // on a loaded one), never one per request.
    expect(seconds).toBeLessThan(10);
    expect(lookups).toBeLessThanOrEqual(2 * seconds);
  });
});

describe('the revocation feed: known credentials hold until revoked', () => {
  /** Longer than the one-second re-check that applies while the feed does not vouch for an answer. */
  const PAST_RECHECK_MS = 1500;

  it('answers a known API key, Basic pair and session token from memory for longer than a second when nothing was revoked', async () => {
    const profile = await createProfile(app);
    const { token } = (await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profile.id } })).body;
    const requests = [
      () => app.http.get('/v1/profiles', { auth: app.apiKey }),
      () => app.http.get(`/v1/profiles/${profile.id}`, { auth: basicAuth(profile.id, app.apiKey) }),
      () => app.http.get('/v1/users/session', { auth: `Bearer ${token}` }),
    ];
    for (const request of requests) expect((await request()).status).toBe(200);
    await sleep(PAST_RECHECK_MS);
    const { result, lookups } = await withLookups(() => Promise.all(requests.map((request) => request())));
    expect(result.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(lookups).toBe(0);
  });

  it('on another instance, a key revoked and a profile deleted are refused within a second although their answers were held longer', async () => {
    const other = await startTestApp({}, { shareDatabaseOf: app });
    try {
      const { apiKey, apiKeyId } = await createEnvironmentWithKey(app);
      const profile = await createProfile(app);
      const { token } = (await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profile.id } })).body;
      const byKey = () => other.http.get('/v1/profiles', { auth: apiKey });
      const byPair = () => other.http.get(`/v1/profiles/${profile.id}`, { auth: basicAuth(profile.id, app.apiKey) });
      const bySession = () => other.http.get('/v1/users/session', { auth: `Bearer ${token}` });
      for (const request of [byKey, byPair, bySession]) expect((await request()).status).toBe(200);
      await sleep(PAST_RECHECK_MS);
      const held = await withLookups(() => Promise.all([byKey(), byPair(), bySession()]));
      expect(held.lookups).toBe(0);
      await asOperator(app, (admin) => admin.revokeKey(apiKeyId));
      expect((await app.http.delete(`/v1/profiles/${profile.id}`, { auth: app.apiKey })).status).toBe(202);
      const revoked = Date.now();
      await sleep(Math.max(0, revoked + 1000 - Date.now()));
      expect([(await byKey()).status, (await byPair()).status, (await bySession()).status]).toEqual([401, 401, 401]);
    } finally {
      await other.stop();
    }
  });
});

describe('every door spends the one credential-lookup budget of its client address', () => {
  /** A graphql-ws socket, open, with how it closes. */
  async function openSocket() {
    const Socket = trustingWebSocket();
    const socket = new Socket(`wss://localhost:${app.service.port}/v1/graphql`, 'graphql-transport-ws');
    const closed = new Promise<Closed>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return { socket, closed };
  }

  it('HTTP and WebSocket connection_init count in one window of 100 a second: past it an init closes 1013 without a lookup, and HTTP, GraphQL and SSE answer 429', async () => {
    const subscription = { query: 'subscription { connectionCreated { eventId } }' };
    // The steps must share one window second: retry a bounded number of times when they straddle two
    // (a hundred requests and ten inits fit in one on a quiet machine, not always on a loaded one).
    for (let attempt = 0; attempt < 10; attempt++) {
      const sockets = await Promise.all(Array.from({ length: 10 }, openSocket));
      await Promise.all(Array.from({ length: 40 }, () => app.http.get('/healthz')));
      await nextSecond();
      const second = Math.floor(Date.now() / 1000);
      const { result, lookups } = await withLookups(async () => {
        const rest = await Promise.all(Array.from({ length: 95 }, () => app.http.get('/v1/profiles', { auth: unknownKey() })));
        const inits = await Promise.all(
          sockets.map(({ socket, closed }) => {
            socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${unknownKey()}` } }));
            return closed;
          }),
        );
        const graphql = await app.http.post('/v1/graphql', { auth: unknownKey(), json: { query: '{ __typename }' } });
        const stream = await app.http.post('/v1/graphql/stream', { auth: unknownKey(), json: subscription, headers: { Accept: 'text/event-stream' } });
        return { rest, inits, graphql, stream };
      });
      if (Math.floor(Date.now() / 1000) !== second) continue;
      const { rest, inits, graphql, stream } = result;
      // The 95 requests were each admitted to a lookup (refused after it, against the address's window of 25).
      expect(rest.filter((r) => r.status === 429 && r.headers['ratelimit-limit'] === '100')).toHaveLength(0);
      // Five inits took the budget's last slots and were looked up (4401); the other five closed before any lookup.
      expect(inits.filter(({ code }) => code === 4401)).toHaveLength(5);
      const refused = inits.filter(({ code }) => code === 1013);
      expect(refused).toHaveLength(5);
      for (const { reason } of refused) expect(reason).toBe('Rate limit of 100 requests per second exceeded: retry in 1 s');
      expect(lookups).toBe(100);
      for (const response of [graphql, stream]) {
        expect(response.status).toBe(429);
        expect(response.headers['ratelimit-limit']).toBe('100');
        expect(response.body.code).toBe('RATE_LIMITED');
      }
      return;
    }
    throw new Error('could not fit the steps into one second in 10 attempts');
  });
});
