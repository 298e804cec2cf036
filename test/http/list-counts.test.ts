import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { decodeId, encodeId, uuidv7 } from '../../src/lib/ids.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

// The rule (contracts/rest.yaml, Pagination): Current-Page, Total-Count and Total-Pages are exact and
// sent only while the list holds at most 10,000 items; above that only Page-Items and the cursor.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ WEBHOOK_CA_FILE: inject('tls').certFile });
});
afterAll(() => app?.stop());

/** `count` new uuidv7 ids, in order. */
const ids = (count: number) => Array.from({ length: count }, () => uuidv7());

/** Events of the environment written straight to the log (already relayed: not in the outbox). */
async function insertEvents(environmentId: string, eventIds: string[], type = 'profile.created') {
  await app.sql(
    `insert into event (id, environment_id, profile_id, type, at, payload)
     select id, $2, null, $3, now(), jsonb_build_object('type', $3::text, 'profile', null, 'metadata', '{}'::jsonb,
              'record', jsonb_build_object('id', 'p_${'0'.repeat(26)}', 'uuid', gen_random_uuid(), 'metadata', null, 'at', now()))
       from unnest($1::uuid[]) as id`,
    [eventIds, environmentId, type],
  );
}

const COUNTS = ['current-page', 'total-count', 'total-pages'];

describe('list counts bounded at 10,000 items', () => {
  it('the event log counts exactly up to 10,000 events; above, it leaves the counts out and pages with the cursor', async () => {
    const { environmentId, apiKey } = await createEnvironmentWithKey(app);
    const environment = decodeId('environment', environmentId)!;
    const logged = ids(10_000);
    await insertEvents(environment, logged);
    const first = await app.http.get('/v1/events?limit=100', { auth: apiKey });
    expect(first.headers).toMatchObject({ 'current-page': '1', 'page-items': '100', 'total-count': '10000', 'total-pages': '100', 'next-cursor': encodeId('event', logged[99]!) });
    const last = await app.http.get(`/v1/events?limit=100&after=${encodeId('event', logged[9899]!)}`, { auth: apiKey });
    expect(last.headers).toMatchObject({ 'current-page': '100', 'page-items': '100', 'total-count': '10000' });
    expect(last.headers['next-cursor']).toBeUndefined();

    const [extra, deleted] = ids(2);
    await insertEvents(environment, [extra!]);
    await insertEvents(environment, [deleted!], 'profile.deleted');
    const uncounted = await app.http.get(`/v1/events?limit=100&after=${encodeId('event', logged[9899]!)}`, { auth: apiKey });
    for (const header of COUNTS) expect(uncounted.headers).not.toHaveProperty(header);
    expect(uncounted.headers).toMatchObject({ 'page-items': '100', 'next-cursor': encodeId('event', logged[9999]!) });
    const rest = await app.http.get(`/v1/events?limit=100&after=${uncounted.headers['next-cursor'] as string}`, { auth: apiKey });
    expect(rest.body.map((event: { id: string }) => event.id)).toEqual([encodeId('event', extra!), encodeId('event', deleted!)]);
    expect(rest.headers['next-cursor']).toBeUndefined();
    // A filter narrowing the log to a few events counts them again.
    const filtered = await app.http.get('/v1/events?type=profile.deleted', { auth: apiKey });
    expect(filtered.headers).toMatchObject({ 'current-page': '1', 'page-items': '1', 'total-count': '1', 'total-pages': '1' });
  });

  it('profiles page by page up to the 10,000th, then after a cursor; counts only while at most 10,000', async () => {
    const { environmentId, apiKey } = await createEnvironmentWithKey(app);
    const profiles = ids(10_001);
    const insert = (some: string[]) =>
      app.sql(`insert into profile (id, environment_id, uuid, created_at) select id, $2, gen_random_uuid(), now() from unnest($1::uuid[]) as id`, [some, decodeId('environment', environmentId)]);
    await insert(profiles.slice(0, 10_000));
    const lastPage = await app.http.get('/v1/profiles?page=100&limit=100', { auth: apiKey });
    expect(lastPage.body.map((profile: { id: string }) => profile.id)).toEqual(profiles.slice(9900, 10_000).map((id) => encodeId('profile', id)));
    expect(lastPage.headers).toMatchObject({ 'current-page': '100', 'page-items': '100', 'total-count': '10000', 'total-pages': '100' });
    expect(lastPage.headers['next-cursor']).toBeUndefined();

    await insert(profiles.slice(10_000));
    const uncounted = await app.http.get('/v1/profiles?page=100&limit=100', { auth: apiKey });
    for (const header of COUNTS) expect(uncounted.headers).not.toHaveProperty(header);
    expect(uncounted.headers).toMatchObject({ 'page-items': '100', 'next-cursor': encodeId('profile', profiles[9999]!) });
    const beyond = await app.http.get(`/v1/profiles?limit=100&after=${uncounted.headers['next-cursor'] as string}`, { auth: apiKey });
    expect(beyond.body.map((profile: { id: string }) => profile.id)).toEqual([encodeId('profile', profiles[10_000]!)]);
    expect(beyond.headers['next-cursor']).toBeUndefined();

    const pastPages = await app.http.get('/v1/profiles?page=101&limit=100', { auth: apiKey });
    expect(pastPages.status).toBe(422);
    expect(pastPages.body.errors.page).toEqual([expect.stringContaining('`after`')]);
    const both = await app.http.get(`/v1/profiles?page=2&after=${encodeId('profile', profiles[0]!)}`, { auth: apiKey });
    expect(both.status).toBe(422);
    expect(Object.keys(both.body.errors)).toEqual(['page']);
  });

  it('a subscription\'s attempts page newest first after a cursor, placed in the whole list while it is counted', async () => {
    const { environmentId, apiKey } = await createEnvironmentWithKey(app);
    const receiver = await startReceiver();
    const subscription = await app.http.post('/v1/webhooks/subscriptions', { auth: apiKey, json: { name: 'counts', targetUrl: receiver.url, eventTypes: ['profile.deleted'] } });
    expect(subscription.status, subscription.text).toBe(201);
    const [eventId] = ids(1);
    await insertEvents(decodeId('environment', environmentId)!, [eventId!]);
    const attempts = ids(3);
    await app.sql(
      `insert into webhook_delivery (id, subscription_id, event_id, attempt, redelivery, status, at)
       select id, $2, $3, n, false, 'FAILED', now() from unnest($1::uuid[]) with ordinality as a(id, n)`,
      [attempts, decodeId('webhookSubscription', subscription.body.id), eventId],
    );
    const path = `/v1/webhooks/subscriptions/${subscription.body.id}/deliveries`;
    const newest = await app.http.get(`${path}?limit=2`, { auth: apiKey });
    expect(newest.body.map((attempt: { attempt: number }) => attempt.attempt)).toEqual([3, 2]);
    expect(newest.headers).toMatchObject({ 'current-page': '1', 'total-count': '3', 'next-cursor': encodeId('webhookDelivery', attempts[1]!) });
    const oldest = await app.http.get(`${path}?limit=2&after=${newest.headers['next-cursor'] as string}`, { auth: apiKey });
    expect(oldest.body.map((attempt: { attempt: number }) => attempt.attempt)).toEqual([1]);
    expect(oldest.headers).toMatchObject({ 'current-page': '2', 'page-items': '1', 'total-count': '3', 'total-pages': '2' });
    expect(oldest.headers['next-cursor']).toBeUndefined();
    await receiver.close();
  });
});
