import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, basicAuth } from '../support/factories.ts';
import { liveClient } from '../support/live-client.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let baseUrl: string;

beforeAll(async () => {
  app = await startTestApp();
  baseUrl = `https://localhost:${app.service.port}`;
});
afterAll(() => app?.stop());

const CONNECTION_EVENTS = `subscription { connectionSynced { eventId at status connection { id status accounts { id } } } }`;
const CREATED = `subscription { connectionCreated { eventId status connection { id } } }`;

async function connect(profileId: string) {
  const response = await app.http.post('/v1/sandbox/connections', {
    auth: app.apiKey,
    json: { profileId, institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good' },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string };
}

async function sessionOf(profileId: string): Promise<string> {
  const response = await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profileId } });
  expect(response.status, response.text).toBe(201);
  return response.body.token as string;
}

describe('subscriptions over graphql-ws', () => {
  it("deliver a profile's committed connection events, read when sent, and nothing of another profile", async () => {
    const [profile, other] = [await createProfile(app), await createProfile(app)];
    const mine = liveClient(baseUrl, basicAuth(profile.id, app.apiKey));
    const theirs = liveClient(baseUrl, `Bearer ${await sessionOf(other.id)}`);
    try {
      const synced = mine.subscribe(CONNECTION_EVENTS);
      const created = mine.subscribe(CREATED);
      const othersCreated = theirs.subscribe(CREATED);
      const othersSynced = theirs.subscribe(CONNECTION_EVENTS);
      // Both sockets are acknowledged and subscribed once a round trip on each has come back.
      await Promise.all([mine, theirs].map(({ client }) => new Promise((resolve) => client.subscribe({ query: '{ __typename }' }, { next: resolve, error: resolve, complete: () => {} }))));

      const connection = await connect(profile.id);
      const first = await created.next(1);
      expect(first.errors).toBeUndefined();
      expect(first.data).toEqual({ connectionCreated: { eventId: expect.stringMatching(/^evt_/), status: 'INITIALIZING', connection: { id: connection.id } } });
      const sync = await synced.next(1);
      expect(sync.errors).toBeUndefined();
      const event = (sync.data as { connectionSynced: { status: string; connection: { id: string; status: string; accounts: unknown[] } } }).connectionSynced;
      expect(event.status).toBe('SYNCED');
      expect(event.connection.id).toBe(connection.id);
      expect(event.connection.accounts.length).toBeGreaterThan(0);

      // The other profile's own event comes after the first profile's in the feed's one order: had
      // the first profile's events reached it, they would be there before it.
      const theirConnection = await connect(other.id);
      const theirFirst = await othersCreated.next(1);
      expect(theirFirst.data).toMatchObject({ connectionCreated: { connection: { id: theirConnection.id } } });
      expect(othersCreated.results).toHaveLength(1);
      await othersSynced.next(1);
      expect(othersSynced.results.map((result) => (result.data as { connectionSynced: { connection: { id: string } } }).connectionSynced.connection.id)).toEqual([theirConnection.id]);
      expect(created.results).toHaveLength(1);
    } finally {
      await Promise.all([mine.dispose(), theirs.dispose()]);
    }
  });
});
