import { expect, it } from 'vitest';
import { MAX_ATTEMPTS_IN_FLIGHT } from '../../src/modules/webhook/dispatcher.ts';
import { MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT } from '../../src/modules/webhook/fair-share.ts';
import { builders, type Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { waitFor } from '../support/wait.ts';
import { startWebhookWorker } from '../support/webhook-worker.ts';

let db: TestDatabase;
let build: Builders;

withServiceTier((tier) => ({ db, build } = tier));

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
  const stops = [await startWebhookWorker(db), await startWebhookWorker(db)];
  try {
    await slow.event({ inOutbox: true });
    await waitFor(async () => (stalled.received.length >= share ? true : undefined), "the slow tenant's attempts");
    await fast.event({ inOutbox: true });
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
