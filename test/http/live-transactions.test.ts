import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { basicAuth, createProfile } from '../support/factories.ts';
import { liveClient } from '../support/live-client.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const DAY = 86_400_000;
let now = new Date('2026-06-10T15:00:00Z');
let app: TestApp;
let baseUrl: string;

beforeAll(async () => {
  // One household for every connection: a random one has no pending purchase on the day about once in a hundred, and then its next sync modifies and removes nothing.
  app = await startTestApp({}, { sandboxNow: () => now, sandboxSeed: () => 'live-transactions' });
  baseUrl = `https://localhost:${app.service.port}`;
});
afterAll(() => app?.stop());

const TRANSACTIONS_CHANGED = `subscription { transactionsChanged { eventId connection { id } added modified removed truncated } }`;
type Changed = { eventId: string; connection: { id: string }; added: string[]; modified: string[]; removed: string[]; truncated: boolean };

async function connect(profileId: string): Promise<string> {
  const response = await app.http.post('/v1/sandbox/connections', {
    auth: app.apiKey,
    json: { profileId, institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good' },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.id as string;
}

/** The public ids of the connection's stored transactions (of `status` when given), sorted. */
async function storedIds(connectionId: string, status?: string): Promise<string[]> {
  const rows = await app.sql<{ id: string }>('select id from transaction where connection_id = $1 and ($2::text is null or status = $2)', [decodeId('connection', connectionId), status ?? null]);
  return rows.map(({ id }) => encodeId('transaction', id)).sort();
}

const changedOf = (result: { data?: unknown; errors?: unknown }): Changed => {
  expect(result.errors).toBeUndefined();
  return (result.data as { transactionsChanged: Changed }).transactionsChanged;
};

describe('transactionsChanged', () => {
  it("carries the ids a sync added, modified and removed, after commit, and nothing of another profile", async () => {
    const [profile, other] = [await createProfile(app), await createProfile(app)];
    const mine = liveClient(baseUrl, basicAuth(profile.id, app.apiKey));
    const theirs = liveClient(baseUrl, basicAuth(other.id, app.apiKey));
    const start = now;
    try {
      const changes = mine.subscribe(TRANSACTIONS_CHANGED);
      const othersChanges = theirs.subscribe(TRANSACTIONS_CHANGED);
      // Both sockets are acknowledged and subscribed once a round trip on each has come back.
      await Promise.all([mine, theirs].map(({ client }) => new Promise((resolve) => client.subscribe({ query: '{ __typename }' }, { next: resolve, error: resolve, complete: () => {} }))));

      // The first sync adds a sandbox history of more than 1,000 transactions: the first 1,000 ids, all
      // stored, and `truncated` (the count in the event log is exact).
      const connectionId = await connect(profile.id);
      const first = changedOf(await changes.next(1));
      expect(first.connection.id).toBe(connectionId);
      expect(first.eventId).toMatch(/^evt_/);
      const storedFirst = await storedIds(connectionId);
      expect(storedFirst.length).toBeGreaterThan(1000);
      expect(new Set(first.added).size).toBe(1000);
      expect(first.added.filter((id) => !storedFirst.includes(id))).toEqual([]);
      expect({ modified: first.modified, removed: first.removed, truncated: first.truncated }).toEqual({ modified: [], removed: [], truncated: true });
      const logged = await app.http.get(`/v1/events/${first.eventId}`, { auth: app.apiKey });
      expect(logged.body.metadata).toEqual({
        changes: { added: storedFirst.length, modified: 0, removed: 0 },
        transactions: { added: first.added, modified: [], removed: [], truncated: true },
      });

      // Days later the pendings have posted in place (modified) or been dropped (removed).
      const pendings = await storedIds(connectionId, 'PENDING');
      expect(pendings.length).toBeGreaterThan(0);
      now = new Date(now.getTime() + 4 * DAY);
      const refresh = await app.http.post(`/v1/connections/${connectionId}/transactions/refresh`, { auth: app.apiKey });
      expect(refresh.status, refresh.text).toBe(202);
      const later = changedOf(await changes.next(2));
      expect(later.connection.id).toBe(connectionId);
      expect(later.truncated).toBe(false);
      // Every id the sync added is stored, and every stored transaction is one of the first sync's or this one's.
      const stored = await storedIds(connectionId);
      expect(stored.filter((id) => !storedFirst.includes(id))).toEqual([...later.added].sort());
      for (const id of later.modified) expect(stored.includes(id), id).toBe(true);
      for (const id of later.removed) expect(stored.includes(id), id).toBe(false);
      for (const id of pendings) expect(later.modified.includes(id) || later.removed.includes(id), id).toBe(true);
      expect(later.modified.length + later.removed.length).toBeGreaterThan(0);

      // The other profile's own change comes after the first profile's in the feed's one order: had
      // the first profile's changes reached it, they would be there before it.
      const theirConnection = await connect(other.id);
      await othersChanges.next(1);
      expect(othersChanges.results.map((result) => changedOf(result).connection.id)).toEqual([theirConnection]);
      expect(changes.results).toHaveLength(2);
    } finally {
      now = start;
      await Promise.all([mine.dispose(), theirs.dispose()]);
    }
  });
});
