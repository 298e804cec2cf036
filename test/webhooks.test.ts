import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { decodeId, encodeId, uuidv7 } from '../src/lib/ids.ts';
import { RETRY_DELAYS_SECONDS, WebhookDeliveries, type QueuedAttempt } from '../src/modules/webhook/delivery.ts';
import { WebhookService } from '../src/modules/webhook/webhook.service.ts';
import { loadSecrets } from '../src/secrets.ts';
import { createEnvironmentWithKey } from './support/environments.ts';
import { createProfile } from './support/factories.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { startReceiver } from './support/webhook-receiver.ts';
import { waitFor } from './support/wait.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ WEBHOOK_CA_FILE: inject('tls').certFile });
});
afterAll(() => app?.stop());

async function subscribe(targetUrl: string, extra: Record<string, unknown> = {}, apiKey = app.apiKey) {
  return app.http.post('/v1/webhooks/subscriptions', { auth: apiKey, json: { name: 'Ledger sync', targetUrl, ...extra } });
}

/** A delivery engine on the app's database with a clock the test moves; attempts it queues are captured, not run. */
function controlledDeliveries(options: { allowPrivate?: boolean } = {}) {
  let now = new Date();
  const queued: QueuedAttempt[] = [];
  const { cipher } = loadSecrets(loadConfig({ NODE_ENV: 'test', DATA_DIR: app.dataDir }));
  const deliveries = new WebhookDeliveries({
    orm: app.service.orm,
    cipher,
    logger: createLogger('silent'),
    allowPrivate: options.allowPrivate ?? true,
    caFile: inject('tls').certFile,
    now: () => now,
    enqueue: async (attempts) => void queued.push(...attempts),
  });
  return { deliveries, queued, advanceTo: (at: Date) => (now = at), now: () => now };
}

/** A PENDING first attempt of a fresh event for a subscription, as the relay would write it. */
async function owedDelivery(subscriptionId: string, at: Date) {
  const [environment] = await app.sql('select environment_id from webhook_subscription where id = $1', [decodeId('webhookSubscription', subscriptionId)]);
  const eventId = uuidv7();
  await app.sql(`insert into event (id, environment_id, type, at, payload, dispatched_at) values ($1, $2, 'profile.created', now(), $3, now())`, [
    eventId,
    environment.environment_id,
    JSON.stringify({ type: 'profile.created', profile: null, record: { id: 'p_x' }, metadata: {} }),
  ]);
  const id = uuidv7();
  await app.sql(`insert into webhook_delivery (id, subscription_id, event_id, attempt, redelivery, status, at) values ($1, $2, $3, 1, false, 'PENDING', $4)`, [
    id,
    decodeId('webhookSubscription', subscriptionId),
    eventId,
    at,
  ]);
  return id;
}

describe('webhook subscriptions', () => {
  it('delivers a signed event that the standardwebhooks library verifies, and logs the attempt', async () => {
    const receiver = await startReceiver();
    try {
      const created = await subscribe(receiver.url, { eventTypes: ['profile'] });
      expect(created.status).toBe(201);
      expect(created.body.secret).toMatch(/^whsec_/);
      const listed = await app.http.get(`/v1/webhooks/subscriptions/${created.body.id}`, { auth: app.apiKey });
      expect(listed.body).not.toHaveProperty('secret');

      const profile = await createProfile(app);
      await waitFor(async () => (receiver.received.length > 0 ? true : undefined), 'the delivery');
      const [delivery] = receiver.received;
      const event = new Webhook(created.body.secret).verify(delivery!.body, delivery!.headers) as { id: string; record: unknown };
      expect(event).toMatchObject({ id: delivery!.headers['webhook-id'], type: 'profile.created', profile: { id: profile.id, uuid: profile.uuid }, record: { id: profile.id }, metadata: {} });
      expect(event.record).not.toHaveProperty('email');

      const attempts = await waitFor(async () => {
        const response = await app.http.get(`/v1/webhooks/subscriptions/${created.body.id}/deliveries`, { auth: app.apiKey });
        return response.body[0]?.status === 'SUCCEEDED' ? response.body : undefined;
      }, 'the attempt to be recorded');
      expect(attempts[0]).toMatchObject({ eventId: event.id, attempt: 1, responseStatus: 200, responseExcerpt: 'ok', error: null, nextAttemptAt: null });
      expect(attempts[0].durationMs).toBeGreaterThanOrEqual(0);

      const redeliver = await app.http.post(`/v1/webhooks/subscriptions/${created.body.id}/events/${event.id}/redeliver`, { auth: app.apiKey });
      expect(redeliver.status).toBe(202);
      expect(redeliver.body).toMatchObject({ status: 'PENDING', attempt: 2 });
      await waitFor(async () => (receiver.received.length === 2 ? true : undefined), 'the redelivery');
      expect(receiver.received[1]!.headers['webhook-id']).toBe(event.id);
    } finally {
      await receiver.close();
      await app.sql('delete from webhook_subscription');
    }
  });

  it('delivers only the chosen event types (exact or whole-segment prefixes), and checks them', async () => {
    const receiver = await startReceiver();
    try {
      expect((await subscribe(receiver.url, { eventTypes: ['connection.sync'] })).status).toBe(422);
      expect((await subscribe(receiver.url, { eventTypes: ['nope'] })).body.errors).toHaveProperty('eventTypes.0');
      expect((await subscribe(receiver.url, { eventTypes: ['connection.synced'] })).status).toBe(201);
      const profile = await createProfile(app);
      await app.http.post('/v1/sandbox/connections', { auth: app.apiKey, json: { profileId: profile.id, institutionId: 'ins_houndstooth', username: 'user_good', password: 'pass_good' } });
      await waitFor(async () => (receiver.received.length > 0 ? true : undefined), 'connection.synced.successful');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(receiver.received.map((request) => JSON.parse(request.body).type)).toEqual(['connection.synced.successful']);
    } finally {
      await receiver.close();
      await app.sql('delete from webhook_subscription');
    }
  });

  it('rotates the secret: both secrets sign for 24 hours', async () => {
    const receiver = await startReceiver();
    try {
      const created = await subscribe(receiver.url);
      const rotated = await app.http.post(`/v1/webhooks/subscriptions/${created.body.id}/rotate-secret`, { auth: app.apiKey });
      expect(rotated.status).toBe(200);
      expect(new Date(rotated.body.previousSecretExpiresAt).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
      await createProfile(app);
      await waitFor(async () => (receiver.received.length > 0 ? true : undefined), 'the delivery');
      const [delivery] = receiver.received;
      expect(delivery!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
      for (const secret of [created.body.secret, rotated.body.secret]) expect(() => new Webhook(secret).verify(delivery!.body, delivery!.headers)).not.toThrow();
    } finally {
      await receiver.close();
      await app.sql('delete from webhook_subscription');
    }
  });

  it('updates, pauses and deletes subscriptions; other environments see none of them', async () => {
    const created = await subscribe('https://localhost:9/hooks');
    const other = await createEnvironmentWithKey(app);
    expect((await app.http.get(`/v1/webhooks/subscriptions/${created.body.id}`, { auth: other.apiKey })).status).toBe(404);
    const paused = await app.http.patch(`/v1/webhooks/subscriptions/${created.body.id}`, { auth: app.apiKey, json: { disabled: true, name: 'Paused' } });
    expect(paused.body).toMatchObject({ name: 'Paused', disabled: true, disabledReason: expect.stringContaining('Disabled') });
    const list = await app.http.get('/v1/webhooks/subscriptions', { auth: app.apiKey });
    expect(list.headers['total-count']).toBe('1');
    expect((await app.http.delete(`/v1/webhooks/subscriptions/${created.body.id}`, { auth: app.apiKey })).status).toBe(204);
    expect((await app.http.get(`/v1/webhooks/subscriptions/${created.body.id}`, { auth: app.apiKey })).status).toBe(404);
  });

  it.each(['127.0.0.1', '::1'] as const)('delivers to an IP address target (%s), its certificate checked against that address', async (address) => {
    const receiver = await startReceiver(undefined, address);
    try {
      const created = await subscribe(receiver.url);
      const clock = controlledDeliveries();
      const id = await owedDelivery(created.body.id, clock.now());
      await clock.deliveries.attempt(id);
      const [row] = await app.sql('select status, error from webhook_delivery where id = $1', [id]);
      expect(row).toEqual({ status: 'SUCCEEDED', error: null });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
      await app.sql('delete from webhook_subscription');
    }
  });

  it('refuses plain http in PRODUCTION and private addresses unless allowed, also at delivery time', async () => {
    const production = await createEnvironmentWithKey(app, 'PRODUCTION');
    const refused = await subscribe('http://hooks.example.com/x', {}, production.apiKey);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.targetUrl[0]).toMatch(/https/);

    const receiver = await startReceiver();
    try {
      const created = await subscribe(receiver.url);
      const strict = controlledDeliveries({ allowPrivate: false });
      const id = await owedDelivery(created.body.id, strict.now());
      await strict.deliveries.attempt(id);
      const [row] = await app.sql('select status, error from webhook_delivery where id = $1', [id]);
      expect(row).toMatchObject({ status: 'FAILED', error: expect.stringMatching(/private, loopback, link-local or other non-public/) });
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
      await app.sql('delete from webhook_subscription');
    }
  });
});

describe('redelivery racing the deletion of its subscription', () => {
  async function profileEvent() {
    const profile = await createProfile(app);
    const events = await app.http.get(`/v1/events?profileId=${profile.id}&type=profile.created`, { auth: app.apiKey });
    return events.body[0].id as string;
  }

  it('is not found when the subscription is deleted between its lookup and the new attempt', async () => {
    const eventId = await profileEvent();
    const created = await subscribe('https://localhost:9/hooks');
    const subscriptionId = decodeId('webhookSubscription', created.body.id)!;
    const [{ environment_id: environmentId }] = await app.sql('select environment_id from webhook_subscription where id = $1', [subscriptionId]);
    const { cipher } = loadSecrets(loadConfig({ NODE_ENV: 'test', DATA_DIR: app.dataDir }));
    const webhooks = new WebhookService(app.service.orm.em.fork(), cipher, environmentId, { allowPrivate: true });
    const subscription = await webhooks.get(created.body.id);
    await app.sql('delete from webhook_subscription where id = $1', [subscriptionId]);
    await expect(webhooks.redeliver(subscription, eventId)).rejects.toMatchObject({ status: 404, message: 'Webhook subscription not found' });
  });

  it('answers 202 or 404, never 500, when a redelivery and a deletion race', async () => {
    const eventId = await profileEvent();
    for (let round = 0; round < 20; round++) {
      const created = await subscribe('https://localhost:9/hooks');
      const [redelivered, deleted] = await Promise.all([
        app.http.post(`/v1/webhooks/subscriptions/${created.body.id}/events/${eventId}/redeliver`, { auth: app.apiKey }),
        app.http.delete(`/v1/webhooks/subscriptions/${created.body.id}`, { auth: app.apiKey }),
      ]);
      expect(deleted.status).toBe(204);
      expect([202, 404]).toContain(redelivered.status);
      if (redelivered.status === 404) expect(redelivered.body).toMatchObject({ message: expect.stringMatching(/not found/), requestId: expect.any(String), errorId: expect.any(String) });
    }
  });
});

describe('retries', () => {
  it('retries failures on the documented schedule, honours Retry-After, and stops after about three days', async () => {
    const receiver = await startReceiver((_request, index) => (index === 0 ? { status: 503, headers: { 'Retry-After': '3600' } } : { status: index === 1 ? 302 : 500 }));
    try {
      const created = await subscribe(receiver.url);
      const clock = controlledDeliveries();
      let id = await owedDelivery(created.body.id, clock.now());
      const delays: number[] = [];
      for (let attempt = 1; attempt <= RETRY_DELAYS_SECONDS.length + 1; attempt++) {
        await clock.deliveries.attempt(id);
        const [row] = await app.sql('select status, response_status, next_attempt_at, at from webhook_delivery where id = $1', [id]);
        expect(row.status).toBe('FAILED');
        if (attempt === RETRY_DELAYS_SECONDS.length + 1) {
          expect(row.next_attempt_at).toBeNull();
          break;
        }
        const next = clock.queued.at(-1)!;
        delays.push((next.at.getTime() - clock.now().getTime()) / 1000);
        clock.advanceTo(next.at);
        id = next.deliveryId;
      }
      expect(delays).toEqual([3600, ...RETRY_DELAYS_SECONDS.slice(1)]);
      expect(delays.reduce((sum, delay) => sum + delay, 0) / 86_400).toBeGreaterThan(2.9);
      expect(receiver.received).toHaveLength(RETRY_DELAYS_SECONDS.length + 1);
    } finally {
      await receiver.close();
      await app.sql('delete from webhook_subscription');
    }
  });

  it('ends an attempt after 15 s even while the endpoint keeps trickling its answer', { timeout: 60_000 }, async () => {
    const receiver = await startReceiver(() => 'trickle');
    try {
      const created = await subscribe(receiver.url);
      const clock = controlledDeliveries();
      const id = await owedDelivery(created.body.id, clock.now());
      await clock.deliveries.attempt(id);
      const [row] = await app.sql('select status, error from webhook_delivery where id = $1', [id]);
      expect(row).toEqual({ status: 'FAILED', error: 'no answer within 15 s' });
    } finally {
      await receiver.close();
      await app.sql('delete from webhook_subscription');
    }
  });

  it('queues an owed row again under its own job id (a no-op while that job waits), and a lapsed claim once more', async () => {
    const created = await subscribe('https://localhost:9/hooks');
    try {
      const clock = controlledDeliveries();
      const waiting = await owedDelivery(created.body.id, clock.now());
      const lapsed = await owedDelivery(created.body.id, clock.now());
      await app.sql('update webhook_delivery set claimed_until = $2 where id = $1', [lapsed, new Date(clock.now().getTime() + 1000)]);
      // A minute on (for this engine only): both rows are owed; the service's own relay does not see them yet.
      clock.advanceTo(new Date(clock.now().getTime() + 60_000));
      await clock.deliveries.relay();
      await clock.deliveries.relay();
      const jobIds = (deliveryId: string) => clock.queued.filter((attempt) => attempt.deliveryId === deliveryId).map((attempt) => attempt.jobId);
      expect(jobIds(waiting)).toEqual([waiting, waiting]);
      const [lapseJob, again] = jobIds(lapsed);
      expect(lapseJob).not.toBe(lapsed);
      expect(again).toBe(lapseJob);
    } finally {
      await app.sql('delete from webhook_subscription');
    }
  });

  it('disables the subscription when the endpoint answers 410 Gone, with no further attempt', async () => {
    const receiver = await startReceiver(() => ({ status: 410 }));
    try {
      const created = await subscribe(receiver.url);
      const clock = controlledDeliveries();
      await clock.deliveries.attempt(await owedDelivery(created.body.id, clock.now()));
      expect(clock.queued).toEqual([]);
      const subscription = await app.http.get(`/v1/webhooks/subscriptions/${created.body.id}`, { auth: app.apiKey });
      expect(subscription.body).toMatchObject({ disabled: true, disabledReason: expect.stringContaining('410 Gone') });
    } finally {
      await receiver.close();
      await app.sql('delete from webhook_subscription');
    }
  });
});

describe('the event log', () => {
  it('lists the environment\'s events with filters and a cursor, and reads one', async () => {
    const profile = await createProfile(app);
    await app.http.patch(`/v1/profiles/${profile.id}`, { auth: app.apiKey, json: { name: 'Renamed' } });
    await app.http.delete(`/v1/profiles/${profile.id}`, { auth: app.apiKey });
    await waitFor(async () => {
      const response = await app.http.get(`/v1/events?profileId=${profile.id}&type=profile`, { auth: app.apiKey });
      return response.body.length === 2 ? response.body : undefined;
    }, 'profile.deleted');
    const first = await app.http.get(`/v1/events?profileId=${profile.id}&limit=1`, { auth: app.apiKey });
    expect(first.body[0].type).toBe('profile.created');
    expect(first.headers['next-cursor']).toBe(first.body[0].id);
    expect(first.headers['total-count']).toBe('2');
    const second = await app.http.get(`/v1/events?profileId=${profile.id}&limit=1&after=${first.headers['next-cursor'] as string}`, { auth: app.apiKey });
    expect(second.body[0].type).toBe('profile.deleted');
    expect(second.headers['current-page']).toBe('2');
    expect(second.headers['next-cursor']).toBeUndefined();
    const one = await app.http.get(`/v1/events/${second.body[0].id}`, { auth: app.apiKey });
    expect(one.body).toEqual(second.body[0]);
    const other = await createEnvironmentWithKey(app);
    expect((await app.http.get(`/v1/events/${second.body[0].id}`, { auth: other.apiKey })).status).toBe(404);
    const future = await app.http.get(`/v1/events?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, { auth: app.apiKey });
    expect(future.body).toEqual([]);
    expect(encodeId('event', decodeId('event', one.body.id)!)).toBe(one.body.id);
  });
});
