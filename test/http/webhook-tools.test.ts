import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { waitFor } from '../support/wait.ts';

/*
 * The operator's webhook tools, over HTTPS against real receivers: a test event, a range of failed
 * events delivered again, and each subscription's reachability; the public URL the environments show.
 */

const PUBLIC_URL = 'https://tributary.example.com';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ WEBHOOK_CA_FILE: inject('tls').certFile, PUBLIC_URL });
});
afterAll(() => app?.stop());

async function subscribe(targetUrl: string, extra: Record<string, unknown> = {}) {
  const created = await app.http.post('/v1/webhooks/subscriptions', { auth: app.apiKey, json: { name: 'Tools', targetUrl, ...extra } });
  expect(created.status).toBe(201);
  return created.body as { id: string; secret: string; reachability: unknown };
}

/** The subscription's attempts, once `done` holds for them. */
function attemptsOnce(subscriptionId: string, done: (attempts: Array<Record<string, unknown>>) => boolean, what: string) {
  return waitFor(async () => {
    const response = await app.http.get(`/v1/webhooks/subscriptions/${subscriptionId}/deliveries?limit=100`, { auth: app.apiKey });
    return done(response.body) ? (response.body as Array<Record<string, unknown>>) : undefined;
  }, what);
}

const settled = (attempts: Array<Record<string, unknown>>) => attempts.length > 0 && attempts.every((attempt) => attempt.status !== 'PENDING');

describe('a test event', () => {
  it('is signed, sent to that subscription only, logged with its attempt, and in the event log', async () => {
    const receiver = await startReceiver();
    const bystander = await startReceiver();
    try {
      const subscription = await subscribe(receiver.url, { eventTypes: ['profile.deleted'] });
      await subscribe(bystander.url);
      const sent = await app.http.post(`/v1/webhooks/subscriptions/${subscription.id}/test`, { auth: app.apiKey });
      expect(sent.status).toBe(202);
      expect(sent.body).toMatchObject({ subscriptionId: subscription.id, status: 'PENDING', attempt: 1 });

      await waitFor(async () => (receiver.received.length > 0 ? true : undefined), 'the test event');
      const [delivery] = receiver.received;
      const event = new Webhook(subscription.secret).verify(delivery!.body, delivery!.headers);
      expect(event).toMatchObject({ id: sent.body.eventId, type: 'webhook.test', profile: null, record: { subscriptionId: subscription.id, name: 'Tools', targetUrl: receiver.url }, metadata: {} });
      const [attempt] = await attemptsOnce(subscription.id, settled, 'the attempt to be recorded');
      expect(attempt).toMatchObject({ id: sent.body.id, eventId: sent.body.eventId, status: 'SUCCEEDED', responseStatus: 200, nextAttemptAt: null });
      expect((await app.http.get(`/v1/events/${sent.body.eventId}`, { auth: app.apiKey })).body).toEqual(event);

      // The relay never fans it out: a profile event reaches the bystander, the test event did not.
      await createProfile(app);
      await waitFor(async () => (bystander.received.length > 0 ? true : undefined), 'the bystander\'s profile event');
      expect(bystander.received.map((request) => JSON.parse(request.body).type)).not.toContain('webhook.test');
    } finally {
      await receiver.close();
      await bystander.close();
      await app.sql('delete from webhook_subscription');
    }
  });

  it('goes to a disabled subscription too, once, without retries', async () => {
    const receiver = await startReceiver(() => ({ status: 503 }));
    try {
      const subscription = await subscribe(receiver.url, { disabled: true });
      const sent = await app.http.post(`/v1/webhooks/subscriptions/${subscription.id}/test`, { auth: app.apiKey });
      expect(sent.status).toBe(202);
      const attempts = await attemptsOnce(subscription.id, settled, 'the failed attempt');
      expect(attempts).toEqual([expect.objectContaining({ status: 'FAILED', responseStatus: 503, nextAttemptAt: null })]);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
      await app.sql('delete from webhook_subscription');
    }
  });
});

describe('redelivering a range', () => {
  it('queues each failed event once, oldest first, within the limit, and goes on from `next`', async () => {
    let failing = false;
    const receiver = await startReceiver(() => ({ status: failing ? 500 : 200 }));
    try {
      const subscription = await subscribe(receiver.url, { eventTypes: ['profile.created'] });
      const hooks = `/v1/webhooks/subscriptions/${subscription.id}`;
      const profiles = [await createProfile(app), await createProfile(app), await createProfile(app)];
      const eventIds: string[] = [];
      for (const profile of profiles) {
        const events = await app.http.get(`/v1/events?profileId=${profile.id}&type=profile.created`, { auth: app.apiKey });
        eventIds.push(events.body[0].id);
      }
      await attemptsOnce(subscription.id, (attempts) => attempts.length === 3 && settled(attempts), 'three deliveries');
      // The endpoint breaks: one-shot redeliveries of the first two events fail, the third stays delivered.
      failing = true;
      for (const eventId of eventIds.slice(0, 2)) expect((await app.http.post(`${hooks}/events/${eventId}/redeliver`, { auth: app.apiKey })).status).toBe(202);
      await attemptsOnce(subscription.id, (attempts) => attempts.length === 5 && settled(attempts), 'the failed redeliveries');
      // A fourth event fails its first attempt: its retry is pending, so the range passes it over.
      const pending = await createProfile(app);
      await attemptsOnce(subscription.id, (attempts) => attempts.some((attempt) => attempt.status === 'PENDING' && attempt.attempt === 2), 'a pending retry');
      failing = false;
      const before = receiver.received.length;

      const first = await app.http.post(`${hooks}/redeliver`, { auth: app.apiKey, json: { limit: 1 } });
      expect(first.status).toBe(202);
      expect(first.body).toEqual({ queued: 1, next: eventIds[0] });
      // Twice at once after it: the second failed event is queued by one of them only, the first by neither.
      const rest = await Promise.all([app.http.post(`${hooks}/redeliver`, { auth: app.apiKey }), app.http.post(`${hooks}/redeliver`, { auth: app.apiKey, json: { after: first.body.next } })]);
      expect(rest.map((response) => response.status)).toEqual([202, 202]);
      expect(rest.map((response) => response.body.queued).sort()).toEqual([0, 1]);
      expect(rest.map((response) => response.body.next)).toEqual([null, null]);

      await waitFor(async () => {
        const attempts = await app.http.get(`${hooks}/deliveries?limit=100`, { auth: app.apiKey });
        return attempts.body.filter((attempt: { status: string }) => attempt.status === 'SUCCEEDED').length >= 5 ? true : undefined;
      }, 'the redeliveries');
      const redelivered = receiver.received.slice(before).map((request) => request.headers['webhook-id']);
      expect(redelivered.filter((id) => id === eventIds[0])).toHaveLength(1);
      expect(redelivered.filter((id) => id === eventIds[1])).toHaveLength(1);
      expect(redelivered).not.toContain(eventIds[2]);
      const pendingEvent = (await app.http.get(`/v1/events?profileId=${pending.id}&type=profile.created`, { auth: app.apiKey })).body[0].id;
      const ofPending = await app.http.get(`${hooks}/deliveries?eventId=${pendingEvent}`, { auth: app.apiKey });
      expect(ofPending.body.every((attempt: { attempt: number }) => attempt.attempt <= 2)).toBe(true);

      // SUCCEEDED asks for the delivered ones: the three events whose latest attempt succeeded (within since/until).
      const delivered = await app.http.post(`${hooks}/redeliver`, { auth: app.apiKey, json: { status: 'SUCCEEDED', until: new Date(Date.now() + 60_000).toISOString(), since: '2020-01-01T00:00:00Z' } });
      expect(delivered.body.queued).toBeGreaterThanOrEqual(3);
      expect((await app.http.post(`${hooks}/redeliver`, { auth: app.apiKey, json: { since: new Date(Date.now() + 60_000).toISOString() } })).body).toEqual({ queued: 0, next: null });
    } finally {
      await receiver.close();
      await app.sql('delete from webhook_subscription');
    }
  });

  it('refuses a bad range with 422 and another environment\'s subscription with 404', async () => {
    const subscription = await subscribe('https://localhost:9/hooks');
    try {
      const hooks = `/v1/webhooks/subscriptions/${subscription.id}`;
      for (const json of [{ status: 'PENDING' }, { limit: 1001 }, { limit: 0 }, { since: 'yesterday' }, { after: 'p_01jdq3v6x8f9k2m4n7p0r5s8tw' }, { extra: true }]) {
        const refused = await app.http.post(`${hooks}/redeliver`, { auth: app.apiKey, json });
        expect(refused.status, JSON.stringify(json)).toBe(422);
        expect(refused.body).toMatchObject({ requestId: expect.any(String), errorId: expect.any(String) });
      }
      const other = await createEnvironmentWithKey(app);
      for (const operation of ['redeliver', 'test']) {
        const response = await app.http.post(`${hooks}/${operation}`, { auth: other.apiKey });
        expect(response.status, operation).toBe(404);
      }
      expect((await app.sql('select count(*)::int as n from webhook_delivery where subscription_id = (select id from webhook_subscription limit 1)'))[0]).toEqual({ n: 0 });
    } finally {
      await app.sql('delete from webhook_subscription');
    }
  });
});

describe('reachability', () => {
  it('shows the last attempt, the last success and the failures since, in the subscription and the list', async () => {
    let status = 200;
    const receiver = await startReceiver(() => ({ status }));
    try {
      const subscription = await subscribe(receiver.url, { eventTypes: ['profile.deleted'] });
      expect(subscription.reachability).toEqual({ lastAttemptAt: null, lastAttemptStatus: null, lastSuccessAt: null, consecutiveFailures: 0 });
      const hooks = `/v1/webhooks/subscriptions/${subscription.id}`;
      const test = async (count: number) => {
        await app.http.post(`${hooks}/test`, { auth: app.apiKey });
        return attemptsOnce(subscription.id, (attempts) => attempts.length === count && settled(attempts), `${count} attempts`);
      };
      const [success] = await test(1);
      const afterSuccess = (await app.http.get(hooks, { auth: app.apiKey })).body.reachability;
      expect(afterSuccess).toEqual({ lastAttemptAt: success!.at, lastAttemptStatus: 'SUCCEEDED', lastSuccessAt: success!.at, consecutiveFailures: 0 });

      status = 502;
      await test(2);
      const [latest] = await test(3);
      const reachability = (await app.http.get(hooks, { auth: app.apiKey })).body.reachability;
      expect(reachability).toEqual({ lastAttemptAt: latest!.at, lastAttemptStatus: 'FAILED', lastSuccessAt: success!.at, consecutiveFailures: 2 });
      const listed = await app.http.get('/v1/webhooks/subscriptions', { auth: app.apiKey });
      expect(listed.body.find((item: { id: string }) => item.id === subscription.id).reachability).toEqual(reachability);

      status = 200;
      await test(4);
      expect((await app.http.get(hooks, { auth: app.apiKey })).body.reachability).toMatchObject({ lastAttemptStatus: 'SUCCEEDED', consecutiveFailures: 0 });
    } finally {
      await receiver.close();
      await app.sql('delete from webhook_subscription');
    }
  });
});

describe('the environments', () => {
  it('show the public URL and where providers send their webhooks', async () => {
    const [environment] = (await app.http.get('/v1/environments', { auth: app.apiKey })).body;
    expect(environment).toMatchObject({
      id: encodeId('environment', app.environmentId),
      publicUrl: PUBLIC_URL,
      providerWebhookUrl: `${PUBLIC_URL}/v1/providers/{provider}/webhooks?environment=${encodeId('environment', app.environmentId)}`,
    });
  });
});
