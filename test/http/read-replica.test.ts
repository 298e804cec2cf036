import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth } from '../support/factories.ts';
import { startStreamingReplication, type StreamingReplication } from '../support/streaming-replica.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * DATABASE_REPLICA_URL against a real hot standby fed by streaming replication. Pausing WAL replay on
 * the standby freezes what it shows, so every answer tells where it was read: a stale value comes
 * from the replica, a fresh one from the primary.
 */
let replication: StreamingReplication;
let app: TestApp;

beforeAll(async () => {
  replication = await startStreamingReplication('tributary');
  app = await startTestApp({ DATABASE_REPLICA_URL: replication.standbyUrl }, { databaseUrl: replication.primaryUrl });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await replication?.stop();
});

afterEach(() => replication.resumeReplay());

const graphql = (auth: string, body: unknown) => app.http.post('/v1/graphql', { auth, json: body });
const RENAME = 'mutation($name: String) { profileUpdate(input: { name: $name }) { success record { name } } }';
const NAME = '{ profile { name } }';

/** A profile named `name`, already on the standby. */
async function replicatedProfile(name: string): Promise<{ id: string; auth: string }> {
  const created = await app.http.post('/v1/profiles', { auth: app.apiKey, json: { name } });
  expect(created.status).toBe(201);
  await replication.caughtUp();
  return { id: created.body.id, auth: basicAuth(created.body.id, app.apiKey) };
}

describe('read replica', () => {
  it('serves REST GETs and GraphQL queries from the replica, while writes and what they return come from the primary', async () => {
    const profile = await replicatedProfile('Before');
    await replication.pauseReplay();

    const patched = await app.http.patch(`/v1/profiles/${profile.id}`, { auth: app.apiKey, json: { name: 'After' } });
    expect(patched.status).toBe(200);
    expect(patched.body.name).toBe('After');
    expect((await app.http.get(`/v1/profiles/${profile.id}`, { auth: app.apiKey })).body.name).toBe('Before');
    const listed = await app.http.get('/v1/profiles?limit=100', { auth: app.apiKey });
    expect(listed.body.find((item: { id: string }) => item.id === profile.id)?.name).toBe('Before');
    expect((await graphql(profile.auth, { query: NAME })).body.data.profile.name).toBe('Before');

    const mutated = await graphql(profile.auth, { query: RENAME, variables: { name: 'Mutated' } });
    expect(mutated.body.data.profileUpdate).toEqual({ success: true, record: { name: 'Mutated' } });
    // In a batch, a query after a mutation reads what the mutation wrote; one before it still reads the replica.
    const batch = await graphql(profile.auth, [{ query: NAME }, { query: RENAME, variables: { name: 'Batched' } }, { query: NAME }]);
    expect(batch.body.map((result: { data: unknown }) => result.data)).toEqual([
      { profile: { name: 'Before' } },
      { profileUpdate: { success: true, record: { name: 'Batched' } } },
      { profile: { name: 'Batched' } },
    ]);

    await replication.resumeReplay();
    expect((await app.http.get(`/v1/profiles/${profile.id}`, { auth: app.apiKey })).body.name).toBe('Batched');
    expect((await graphql(profile.auth, { query: NAME })).body.data.profile.name).toBe('Batched');
  });

  it('checks credentials on the primary: a session issued while the replica lags works, and a revoked one is refused at once', async () => {
    const profile = await replicatedProfile('Session');
    await replication.pauseReplay();

    const issued = await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profile.id } });
    expect(issued.status).toBe(201);
    const token = `Bearer ${issued.body.token}`;
    expect((await app.http.get('/v1/users/session', { auth: token })).status).toBe(200);
    expect((await graphql(token, { query: NAME })).body.data.profile.name).toBe('Session');

    expect((await app.http.delete('/v1/users/session', { auth: token })).status).toBe(204);
    // The standby still holds the session as issued and live; the primary says it is revoked.
    expect((await app.http.get('/v1/users/session', { auth: token })).status).toBe(401);
    expect((await graphql(token, { query: NAME })).status).toBe(401);
  });

  it('answers a GET for a record the replica does not have yet from the primary, and still 404 for one that does not exist', async () => {
    await replicatedProfile('Existing');
    await replication.pauseReplay();

    const created = await app.http.post('/v1/profiles', { auth: app.apiKey, json: { name: 'Just created' } });
    expect(created.status).toBe(201);
    const fetched = await app.http.get(`/v1/profiles/${created.body.id}`, { auth: app.apiKey });
    expect(fetched.status).toBe(200);
    expect(fetched.body.name).toBe('Just created');
    // The list comes from the replica, which has not seen it yet.
    const listed = await app.http.get('/v1/profiles?limit=100', { auth: app.apiKey });
    expect(listed.body.map((item: { id: string }) => item.id)).not.toContain(created.body.id);
    expect((await app.http.get('/v1/profiles/p_01jdq3v6x8f9k2m4n7p0r5s8tw', { auth: app.apiKey })).status).toBe(404);
  });
});
