import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { waitFor } from '../support/wait.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ WEBHOOK_CA_FILE: inject('tls').certFile });
});
afterAll(() => app?.stop());

async function subscribe(targetUrl: string, extra: Record<string, unknown> = {}, apiKey = app.apiKey) {
  return app.http.post('/v1/webhooks/subscriptions', { auth: apiKey, json: { name: 'Ledger sync', targetUrl, ...extra } });
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

  it('delivers only the chosen event types, and checks them', async () => {
    const receiver = await startReceiver();
    try {
      expect((await subscribe(receiver.url, { eventTypes: ['connection.sync'] })).status).toBe(422);
      expect((await subscribe(receiver.url, { eventTypes: ['nope'] })).body.errors).toHaveProperty('eventTypes.0');
      const created = await subscribe(receiver.url, { eventTypes: ['profile.deleted'] });
      expect(created.status).toBe(201);
      const profile = await createProfile(app);
      await app.http.delete(`/v1/profiles/${profile.id}`, { auth: app.apiKey });
      await waitFor(async () => (receiver.received.length > 0 ? true : undefined), 'profile.deleted');
      expect(receiver.received.map((request) => JSON.parse(request.body).type)).toEqual(['profile.deleted']);
      // The relay takes events in order: profile.created was passed over by the time profile.deleted was delivered.
      const rows = await app.sql('select e.type from webhook_delivery d join event e on e.id = d.event_id where d.subscription_id = $1', [decodeId('webhookSubscription', created.body.id)]);
      expect(rows).toEqual([{ type: 'profile.deleted' }]);
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

  it('refuses plain http in PRODUCTION with 422 naming the field', async () => {
    const production = await createEnvironmentWithKey(app, 'PRODUCTION');
    const refused = await subscribe('http://hooks.example.com/x', {}, production.apiKey);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.targetUrl[0]).toMatch(/https/);
  });
});

describe('redelivery racing the deletion of its subscription', () => {
  async function profileEvent() {
    const profile = await createProfile(app);
    const events = await app.http.get(`/v1/events?profileId=${profile.id}&type=profile.created`, { auth: app.apiKey });
    return events.body[0].id as string;
  }

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
