import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { basicAuth, createProfile, sessionFor } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

/** A new profile with a sandbox connection at Houndstooth Bank (checking and a card), its first sync ended. */
async function connected(username = 'user_good') {
  const profile = await createProfile(app);
  const response = await app.http.post('/v1/sandbox/connections', {
    auth: app.apiKey,
    json: { profileId: profile.id, institutionId: 'ins_houndstooth', username, password: username === 'user_good' ? 'pass_good' : 'any' },
  });
  expect(response.status, response.text).toBe(201);
  const connectionId = response.body.id as string;
  await runsRecorded(connectionId, 1);
  return { profile, connectionId };
}

/** Waits until the connection's history holds `count` runs (a run is listed once it has ended). */
async function runsRecorded(connectionId: string, count: number) {
  await waitFor(async () => {
    const [row] = await app.sql('select count(*)::int as n from connection_sync where connection_id = $1', [decodeId('connection', connectionId)]);
    return row.n >= count ? true : undefined;
  }, `${count} sync runs of ${connectionId}`);
}

const syncs = (connectionId: string, auth: string, query = '') => app.http.get(`/v1/connections/${connectionId}/syncs${query}`, { auth });

describe('a connection’s sync history', () => {
  it('records a successful sync with what started it and the counts its connection.synced.successful reported', async () => {
    const { profile, connectionId } = await connected();
    const listed = await syncs(connectionId, app.apiKey);
    expect(listed.status).toBe(200);
    const events = await app.http.get(`/v1/events?profileId=${profile.id}&type=connection.synced.successful`, { auth: app.apiKey });
    expect(events.body).toHaveLength(1);
    expect(listed.body).toEqual([
      {
        id: expect.stringMatching(/^sync_[0-9a-hjkmnp-tv-z]{26}$/),
        connectionId,
        trigger: 'LINK',
        startedAt: expect.any(String),
        endedAt: expect.any(String),
        outcome: 'SUCCEEDED',
        status: 'SYNCED',
        errorCode: null,
        errorMessage: null,
        providerRequestId: null,
        changes: events.body[0].metadata.changes,
      },
    ]);
    expect(listed.body[0].changes.added).toBeGreaterThan(100);
    expect(Date.parse(listed.body[0].startedAt)).toBeLessThanOrEqual(Date.parse(listed.body[0].endedAt));
    expect(listed.headers).toMatchObject({ 'page-items': '1', 'current-page': '1', 'total-count': '1', 'total-pages': '1' });
    expect(listed.headers['next-cursor']).toBeUndefined();
  });

  it('records a failed sync with the status it entered and its reason, and no counts', async () => {
    const { connectionId } = await connected('user_bad_login');
    const listed = await syncs(connectionId, app.apiKey);
    expect(listed.body).toEqual([
      expect.objectContaining({ trigger: 'LINK', outcome: 'FAILED', status: 'ERROR_REPAIRABLE', errorCode: null, errorMessage: expect.stringMatching(/\w/), providerRequestId: null, changes: null }),
    ]);
    const [connection] = await app.sql('select status from connection where id = $1', [decodeId('connection', connectionId)]);
    expect(connection.status).toBe('ERROR_REPAIRABLE');
  });

  it('pages newest first, by page or after the Next-Cursor', async () => {
    const { connectionId } = await connected();
    for (const count of [2, 3]) {
      await app.service.connectionJobs.sync(decodeId('connection', connectionId)!);
      await runsRecorded(connectionId, count);
    }
    const all = await syncs(connectionId, app.apiKey);
    expect(all.body.map((run: { trigger: string }) => run.trigger)).toEqual(['SCHEDULED', 'SCHEDULED', 'LINK']);
    const ids = all.body.map((run: { id: string }) => run.id);
    expect([...ids].sort().reverse()).toEqual(ids);

    const first = await syncs(connectionId, app.apiKey, '?limit=2');
    expect(first.body.map((run: { id: string }) => run.id)).toEqual(ids.slice(0, 2));
    expect(first.headers).toMatchObject({ 'next-cursor': ids[1], 'current-page': '1', 'total-count': '3', 'total-pages': '2' });
    const rest = await syncs(connectionId, app.apiKey, `?limit=2&after=${first.headers['next-cursor'] as string}`);
    expect(rest.body.map((run: { id: string }) => run.id)).toEqual(ids.slice(2));
    expect(rest.headers['next-cursor']).toBeUndefined();
    expect(rest.headers['current-page']).toBe('2');
    expect((await syncs(connectionId, app.apiKey, '?page=2&limit=2')).body.map((run: { id: string }) => run.id)).toEqual(ids.slice(2));

    const both = await syncs(connectionId, app.apiKey, `?page=2&after=${ids[0]}`);
    expect(both.status).toBe(422);
    expect(both.body.errors).toHaveProperty('page');
    expect((await syncs(connectionId, app.apiKey, `?after=${encodeId('event', crypto.randomUUID())}`)).status).toBe(422);
  });

  it('is read by the environment’s API keys and as the connection’s profile; another environment or profile gets 404', async () => {
    const { profile, connectionId } = await connected();
    const expected = (await syncs(connectionId, app.apiKey)).body;
    expect((await syncs(connectionId, `Bearer ${await sessionFor(app, profile.id)}`)).body).toEqual(expected);
    expect((await syncs(connectionId, basicAuth(profile.id, app.apiKey))).body).toEqual(expected);

    const stranger = await createProfile(app);
    const elsewhere = await createEnvironmentWithKey(app);
    const refusals = [
      await syncs(connectionId, `Bearer ${await sessionFor(app, stranger.id)}`),
      await syncs(connectionId, basicAuth(stranger.id, app.apiKey)),
      await syncs(connectionId, elsewhere.apiKey),
      await syncs(encodeId('connection', crypto.randomUUID()), app.apiKey),
    ];
    expect(refusals.map((response) => response.status)).toEqual([404, 404, 404, 404]);
    expect((await syncs(connectionId, '')).status).toBe(401);
  });
});
