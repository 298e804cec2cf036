import { PgBoss } from 'pg-boss';
import { expect, inject, it } from 'vitest';
import { JOB_SCHEMA } from '../../src/jobs/queue.ts';
import { createLogger } from '../../src/logger.ts';
import { openAttemptQueue } from '../../src/modules/webhook/attempt-queue.ts';
import { WebhookDeliveries } from '../../src/modules/webhook/delivery.ts';
import { fairFetches, MAX_ATTEMPTS_IN_FLIGHT, MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT } from '../../src/modules/webhook/dispatcher.ts';
import { builders, type Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { waitFor } from '../support/wait.ts';

let db: TestDatabase;
let build: Builders;

withServiceTier((tier) => ({ db, build } = tier));

/** One worker process's webhook delivery: its own pg-boss on the test database, relaying and making attempts. */
async function startWorker() {
  const boss = new PgBoss({ connectionString: db.url, schema: JOB_SCHEMA, max: 4, supervise: false, schedule: false, migrate: false });
  await boss.start();
  const queue = await openAttemptQueue(boss);
  const deliveries = new WebhookDeliveries({ orm: db.orm, cipher: db.cipher, logger: createLogger('silent'), allowPrivate: true, caFile: inject('tls').certFile, enqueue: queue.add });
  deliveries.start(queue);
  return async () => {
    await deliveries.stop();
    await boss.stop({ graceful: false, close: true });
  };
}

it("delivers a tenant's event while another tenant's many stalled endpoints hold only their share of two workers' slots", { timeout: 90_000 }, async () => {
  const workers = 2;
  const share = workers * MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT;
  const stalled = await startReceiver(() => 'hang');
  let stalledWhenPromptAnswered: number | undefined;
  const prompt = await startReceiver(() => {
    stalledWhenPromptAnswered ??= stalled.received.length;
    return { status: 200 };
  });
  const before = new Date(Date.now() - 60_000);
  const slowEnvironment = await build.environment();
  const slow = builders({ ...db, environmentId: slowEnvironment.id });
  const fast = builders({ ...db, environmentId: (await build.environment()).id });
  // More stalled subscriptions than both workers have slots: shared oldest first, they would take every one.
  const stalledSubscriptions = workers * MAX_ATTEMPTS_IN_FLIGHT + 8;
  for (let index = 0; index < stalledSubscriptions; index++) await slow.webhookSubscription({ targetUrl: stalled.url, createdAt: before });
  await fast.webhookSubscription({ targetUrl: prompt.url, createdAt: before });
  const stops = [await startWorker(), await startWorker()];
  try {
    await slow.event({ dispatchedAt: null });
    await waitFor(async () => (stalled.received.length >= share ? true : undefined), "the slow tenant's attempts");
    await fast.event({ dispatchedAt: null });
    await waitFor(async () => (prompt.received.length === 1 ? true : undefined), "the fast tenant's event");

    // Delivered while the slow tenant had no more than its share in flight and most of its attempts still waiting.
    expect(stalledWhenPromptAnswered).toBeLessThanOrEqual(share);
    const [{ waiting }] = await db.sql(
      `select count(*)::int as waiting from webhook_delivery d join webhook_subscription s on s.id = d.subscription_id
        where s.environment_id = $1 and d.status = 'PENDING' and d.claimed_until is null`,
      [slowEnvironment.id],
    );
    expect(waiting).toBeGreaterThanOrEqual(stalledSubscriptions - share);
  } finally {
    await stalled.close();
    await prompt.close();
    await Promise.all(stops.map((stop) => stop()));
  }
});

it('fetches for the environments with the fewest attempts in flight first, never for one at its cap', () => {
  expect(fairFetches(new Map())).toEqual([[]]);
  const inFlight = new Map([['one', 1], ['three', 3], ['another three', 3], ['full', MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT]]);
  expect(fairFetches(inFlight)).toEqual([['one', 'three', 'another three', 'full'], ['three', 'another three', 'full'], ['full']]);
});
