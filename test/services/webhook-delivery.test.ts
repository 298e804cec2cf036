import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { recordEvent } from '../../src/modules/event/event.service.ts';
import { RETRY_DELAYS_SECONDS } from '../../src/modules/webhook/retry-policy.ts';
import type { WebhookSubscriptionEntity } from '../../src/modules/webhook/webhook.entity.ts';
import { builders, type Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';
import { controlledDeliveries } from '../support/webhook-deliveries.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

let db: TestDatabase;
let build: Builders;

withServiceTier((tier) => ({ db, build } = tier));

/** A PENDING first attempt of a new event for the subscription, due now, as the relay writes it. */
async function owed(subscription: WebhookSubscriptionEntity, overrides: Parameters<Builders['delivery']>[2] = {}) {
  return build.delivery(subscription, await build.event({ record: { id: 'p_test' } }), overrides);
}

const stored = async (deliveryId: string) => (await db.sql('select * from webhook_delivery where id = $1', [deliveryId]))[0];

describe('the relay', () => {
  it('fans each new event out to the enabled subscriptions of its environment that want its type and existed when it happened', async () => {
    const environment = await build.environment();
    const scoped = builders({ ...db, environmentId: environment.id });
    const before = new Date(Date.now() - 60_000);
    const subscribe = async (overrides: Parameters<Builders['webhookSubscription']>[0]) => (await scoped.webhookSubscription({ createdAt: before, ...overrides })).subscription;
    const everything = await subscribe({ eventTypes: [] });
    const exact = await subscribe({ eventTypes: ['connection.synced.successful'] });
    const prefix = await subscribe({ eventTypes: ['connection.synced'] });
    const otherType = await subscribe({ eventTypes: ['profile', 'connection.synced.errored'] });
    await subscribe({ disabled: true });
    const later = await subscribe({ createdAt: new Date(Date.now() + 60_000) });
    await build.webhookSubscription({ createdAt: before });
    const event = await scoped.event({ type: 'connection.synced.successful', inOutbox: true });

    const clock = controlledDeliveries(db);
    await clock.deliveries.relay();
    const rows = await db.sql('select id, subscription_id, attempt, status, redelivery from webhook_delivery where event_id = $1', [event.id]);
    expect(rows.map((row) => row.subscription_id).sort()).toEqual([everything.id, exact.id, prefix.id].sort());
    expect(rows.every((row) => row.attempt === 1 && row.status === 'PENDING' && !row.redelivery)).toBe(true);
    expect(rows.map((row) => row.subscription_id)).not.toContain(otherType.id);
    expect(rows.map((row) => row.subscription_id)).not.toContain(later.id);
    // Each row's job carries the row's id, so queueing it again is a no-op.
    const ids = new Set(rows.map((row) => row.id));
    expect(clock.queued.filter((attempt) => ids.has(attempt.deliveryId)).map((attempt) => attempt.jobId).sort()).toEqual([...ids].sort());

    expect(await db.sql('select 1 from event_outbox where event_id = $1', [event.id])).toEqual([]);
    await clock.deliveries.relay();
    expect(await db.sql('select count(*)::int as n from webhook_delivery where event_id = $1', [event.id])).toEqual([{ n: 3 }]);
  });

  it('relays a backlog past one pass (100 events) in one relay, each event once per subscription', async () => {
    const environment = await build.environment();
    const scoped = builders({ ...db, environmentId: environment.id });
    const before = new Date(Date.now() - 60_000);
    const subscriptions = [await scoped.webhookSubscription({ createdAt: before }), await scoped.webhookSubscription({ createdAt: before })];
    const em = db.orm.em.fork();
    const events = Array.from({ length: 250 }, (_, i) => recordEvent(em, environment.id, 'profile.created', null, { id: `p_${i}` }));
    await em.flush();
    const ids = events.map((event) => event.id);

    const clock = controlledDeliveries(db);
    await clock.deliveries.relay();
    const rows = await db.sql('select event_id, subscription_id from webhook_delivery where event_id = any($1::uuid[])', [ids]);
    const expected = events.flatMap((event) => subscriptions.map(({ subscription }) => `${event.id} ${subscription.id}`));
    expect(rows.map((row) => `${row.event_id} ${row.subscription_id}`).sort()).toEqual(expected.sort());
    expect(await db.sql('select count(*)::int as n from event_outbox where event_id = any($1::uuid[])', [ids])).toEqual([{ n: 0 }]);
    // 500 owed rows would fill the sweeps of the other tests in this file's database.
    await db.sql('delete from webhook_delivery where event_id = any($1::uuid[])', [ids]);
  });

  it('queues an owed row again under its own job id (a no-op while that job waits), and a lapsed claim once more under one new id', async () => {
    const { subscription } = await build.webhookSubscription();
    const clock = controlledDeliveries(db);
    const waiting = await owed(subscription, { at: clock.now() });
    const lapsed = await owed(subscription, { at: clock.now(), claimedUntil: new Date(clock.now().getTime() + 1000) });
    // A minute on, for this engine: both rows are owed.
    clock.advanceTo(new Date(clock.now().getTime() + 60_000));
    await clock.deliveries.relay();
    await clock.deliveries.relay();
    const jobIds = (deliveryId: string) => clock.queued.filter((attempt) => attempt.deliveryId === deliveryId).map((attempt) => attempt.jobId);
    expect(jobIds(waiting.id)).toEqual([waiting.id, waiting.id]);
    const [lapseJob, again] = jobIds(lapsed.id);
    expect(lapseJob).not.toBe(lapsed.id);
    expect(again).toBe(lapseJob);
  });
});

describe('an attempt', () => {
  it('POSTs the event in its public envelope, signed with the current and, until it expires, the previous secret', async () => {
    const receiver = await startReceiver();
    try {
      const previousSecret = 'whsec_' + Buffer.alloc(24, 1).toString('base64');
      const { subscription, secret } = await build.webhookSubscription({ targetUrl: receiver.url, previousSecret, previousSecretExpiresAt: new Date(Date.now() + 3600_000) });
      const profile = await build.profile({ metadata: { plan: 'gold' } });
      const event = await build.event({ type: 'profile.created', profile, record: { id: encodeId('profile', profile.id) } });
      const delivery = await build.delivery(subscription, event);
      const clock = controlledDeliveries(db);
      await clock.deliveries.attempt(delivery.id);
      const [request] = receiver.received;
      for (const key of [secret, previousSecret]) {
        expect(new Webhook(key).verify(request!.body, request!.headers)).toEqual({
          id: encodeId('event', event.id),
          at: event.at.toISOString(),
          type: 'profile.created',
          profile: { id: encodeId('profile', profile.id), uuid: profile.uuid, metadata: { plan: 'gold' } },
          record: { id: encodeId('profile', profile.id) },
          metadata: {},
        });
      }
      expect(await stored(delivery.id)).toMatchObject({ status: 'SUCCEEDED', response_status: 200, response_excerpt: 'ok', error: null, next_attempt_at: null, claimed_until: null });

      // Once the previous secret has expired, only the current one signs.
      clock.advanceTo(new Date(Date.now() + 2 * 3600_000));
      await clock.deliveries.attempt((await owed(subscription, { at: clock.now() })).id);
      expect(receiver.received[1]!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('is made once: not for a row another worker holds, nor for a row already settled', async () => {
    const receiver = await startReceiver();
    try {
      const { subscription } = await build.webhookSubscription({ targetUrl: receiver.url });
      const clock = controlledDeliveries(db);
      const held = await owed(subscription, { claimedUntil: new Date(clock.now().getTime() + 10_000) });
      const settled = await owed(subscription, { status: 'SUCCEEDED' });
      await clock.deliveries.attempt(held.id);
      await clock.deliveries.attempt(settled.id);
      expect(receiver.received).toEqual([]);
      expect((await stored(held.id)).status).toBe('PENDING');
    } finally {
      await receiver.close();
    }
  });

  it.each(['127.0.0.1', '::1'] as const)('reaches an IP address target (%s), its certificate checked against that address', async (address) => {
    const receiver = await startReceiver(undefined, address);
    try {
      const { subscription } = await build.webhookSubscription({ targetUrl: receiver.url });
      const delivery = await owed(subscription);
      await controlledDeliveries(db).deliveries.attempt(delivery.id);
      expect(await stored(delivery.id)).toMatchObject({ status: 'SUCCEEDED', error: null });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('refuses, at delivery time, a private address unless allowed, and plain http in PRODUCTION', async () => {
    const receiver = await startReceiver();
    try {
      const { subscription } = await build.webhookSubscription({ targetUrl: receiver.url });
      const delivery = await owed(subscription);
      await controlledDeliveries(db, { allowPrivate: false }).deliveries.attempt(delivery.id);
      expect(await stored(delivery.id)).toMatchObject({ status: 'FAILED', error: expect.stringMatching(/private, loopback, link-local or other non-public/) });

      const production = await build.environment({ mode: 'PRODUCTION' });
      const plain = await builders({ ...db, environmentId: production.id }).webhookSubscription({ targetUrl: receiver.url.replace('https:', 'http:') });
      const refused = await owed(plain.subscription);
      await controlledDeliveries(db).deliveries.attempt(refused.id);
      expect(await stored(refused.id)).toMatchObject({ status: 'FAILED', error: expect.stringMatching(/^Refused: .*https/) });
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('is not sent for a disabled subscription, except as a redelivery asked for', async () => {
    const receiver = await startReceiver();
    try {
      const { subscription } = await build.webhookSubscription({ targetUrl: receiver.url, disabled: true, disabledReason: 'paused' });
      const clock = controlledDeliveries(db);
      const skipped = await owed(subscription);
      await clock.deliveries.attempt(skipped.id);
      expect(await stored(skipped.id)).toMatchObject({ status: 'FAILED', error: 'The subscription is disabled' });
      const redelivery = await owed(subscription, { attempt: 2, redelivery: true });
      await clock.deliveries.attempt(redelivery.id);
      expect((await stored(redelivery.id)).status).toBe('SUCCEEDED');
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('retries', () => {
  it('retries failures on the documented schedule, honours Retry-After, and stops after about three days', async () => {
    const receiver = await startReceiver((_request, index) => (index === 0 ? { status: 503, headers: { 'Retry-After': '3600' } } : { status: index === 1 ? 302 : 500 }));
    try {
      const { subscription } = await build.webhookSubscription({ targetUrl: receiver.url });
      const clock = controlledDeliveries(db);
      let id = (await owed(subscription, { at: clock.now() })).id;
      const delays: number[] = [];
      for (let attempt = 1; attempt <= RETRY_DELAYS_SECONDS.length + 1; attempt++) {
        await clock.deliveries.attempt(id);
        const row = await stored(id);
        expect(row).toMatchObject({ status: 'FAILED', attempt });
        if (attempt === RETRY_DELAYS_SECONDS.length + 1) {
          expect(row.next_attempt_at).toBeNull();
          break;
        }
        const next = clock.queued.at(-1)!;
        expect(row.next_attempt_at).toEqual(next.at);
        delays.push((next.at.getTime() - clock.now().getTime()) / 1000);
        clock.advanceTo(next.at);
        id = next.deliveryId;
      }
      expect(delays).toEqual([3600, ...RETRY_DELAYS_SECONDS.slice(1)]);
      expect(delays.reduce((sum, delay) => sum + delay, 0) / 86_400).toBeGreaterThan(2.9);
      expect(receiver.received).toHaveLength(RETRY_DELAYS_SECONDS.length + 1);
    } finally {
      await receiver.close();
    }
  });

  it('makes no further attempt after a failed redelivery', async () => {
    const receiver = await startReceiver(() => ({ status: 500 }));
    try {
      const { subscription } = await build.webhookSubscription({ targetUrl: receiver.url });
      const clock = controlledDeliveries(db);
      const redelivery = await owed(subscription, { redelivery: true });
      await clock.deliveries.attempt(redelivery.id);
      expect(await stored(redelivery.id)).toMatchObject({ status: 'FAILED', response_status: 500, next_attempt_at: null });
      expect(clock.queued).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('disables the subscription when the endpoint answers 410 Gone, with no further attempt', async () => {
    const receiver = await startReceiver(() => ({ status: 410 }));
    try {
      const { subscription } = await build.webhookSubscription({ targetUrl: receiver.url });
      const clock = controlledDeliveries(db);
      await clock.deliveries.attempt((await owed(subscription)).id);
      expect(clock.queued).toEqual([]);
      const [row] = await db.sql('select disabled, disabled_reason from webhook_subscription where id = $1', [subscription.id]);
      expect(row).toEqual({ disabled: true, disabled_reason: expect.stringContaining('410 Gone') });
    } finally {
      await receiver.close();
    }
  });

  // The deadline is 15 s (TIMEOUT_MS); these tests shorten it to 2 s.
  it('ends an attempt at its deadline when the resolver never answers, recorded as a failure with its retry queued', async () => {
    const { subscription } = await build.webhookSubscription({ targetUrl: 'https://hooks.unanswered.example/tributary' });
    const delivery = await owed(subscription);
    const clock = controlledDeliveries(db, { resolve: () => new Promise(() => {}), attemptTimeoutMs: 2000 });
    await clock.deliveries.attempt(delivery.id);
    expect(await stored(delivery.id)).toMatchObject({ status: 'FAILED', error: 'no answer within 2 s', claimed_until: null, next_attempt_at: clock.queued[0]!.at });
    expect(clock.queued).toHaveLength(1);
  });

  it('ends an attempt at its deadline even while the endpoint keeps trickling its answer', async () => {
    const receiver = await startReceiver(() => 'trickle');
    try {
      const { subscription } = await build.webhookSubscription({ targetUrl: receiver.url });
      const delivery = await owed(subscription);
      await controlledDeliveries(db, { attemptTimeoutMs: 2000 }).deliveries.attempt(delivery.id);
      expect(await stored(delivery.id)).toMatchObject({ status: 'FAILED', error: 'no answer within 2 s' });
    } finally {
      await receiver.close();
    }
  });
});
