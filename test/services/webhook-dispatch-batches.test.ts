import pg from 'pg';
import { expect, it } from 'vitest';
import { JOB_SCHEMA } from '../../src/jobs/queue.ts';
import { CLAIM_MS, JOB_EXPIRY_SECONDS } from '../../src/modules/webhook/attempt-deadlines.ts';
import { builders, type Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import { asTestSql, type TestDatabase } from '../support/test-database.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { waitFor } from '../support/wait.ts';
import { startWebhookWorker } from '../support/webhook-worker.ts';

let db: TestDatabase;
let build: Builders;

withServiceTier((tier) => ({ db, build } = tier));

/** A receiver that answers after a while and keeps the most requests it ever held at once. */
async function countingReceiver() {
  let open = 0;
  const receiver = Object.assign(await startReceiver(() => {
    receiver.most = Math.max(receiver.most, ++open);
    // Registered before the receiver's own answer timer of the same delay, so it runs first.
    setTimeout(() => open--, 50);
    return { status: 200, delayMs: 50 };
  }), { most: 0 });
  return receiver;
}

it('fetches attempts in batches yet never makes two of one subscription at once, and delivers what a batch put back', { timeout: 60_000 }, async () => {
  const before = new Date(Date.now() - 60_000);
  const tenants = [builders({ ...db, environmentId: (await build.environment()).id }), builders({ ...db, environmentId: (await build.environment()).id })];
  const receivers: Array<Awaited<ReturnType<typeof countingReceiver>>> = [];
  for (const [index, tenant] of tenants.entries()) {
    for (let subscription = 0; subscription < 2 + index; subscription++) {
      const receiver = await countingReceiver();
      receivers.push(receiver);
      await tenant.webhookSubscription({ targetUrl: receiver.url, createdAt: before });
    }
  }
  // Every event is owed before the worker starts: its first fetches find several jobs of each subscription.
  const events = 6;
  for (const tenant of tenants) for (let index = 0; index < events; index++) await tenant.event({ inOutbox: true });
  const stop = await startWebhookWorker(db);
  try {
    await waitFor(async () => (receivers.every((receiver) => receiver.received.length >= events) ? true : undefined), 'every delivery');
    for (const receiver of receivers) {
      expect(receiver.most).toBe(1);
      expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(events);
    }
    const statuses = await waitFor(async () => {
      const rows = await db.sql<{ status: string; n: number }>(`select status, count(*)::int as n from webhook_delivery group by status`);
      return rows.every((row) => row.status === 'SUCCEEDED') ? rows : undefined;
    }, 'every outcome recorded');
    expect(statuses).toEqual([{ status: 'SUCCEEDED', n: receivers.length * events }]);
    // Jobs a fetch did not take went back, and were fetched and completed like the others. Each would
    // have been given back by pg-boss once a claim could have lapsed, had its worker died holding it.
    const jobs = await waitFor(async () => {
      const rows = await db.sql<{ state: string; expiry: number; n: number }>(
        `select state, expire_seconds as expiry, count(*)::int as n from ${JOB_SCHEMA}.job where name = 'webhook.deliver' group by 1, 2`,
      );
      return rows.every((row) => row.state === 'completed') ? rows : undefined;
    }, 'every job completed');
    expect(jobs).toEqual([{ state: 'completed', expiry: JOB_EXPIRY_SECONDS, n: receivers.length * events }]);
    expect(JOB_EXPIRY_SECONDS * 1000).toBeGreaterThan(CLAIM_MS);
    expect(JOB_EXPIRY_SECONDS).toBeLessThan(60);
  } finally {
    await stop();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  }
});

it("fetches a few jobs at a time for one subscription's backlog, not every free slot's, and delivers it all", { timeout: 60_000 }, async () => {
  const tenant = builders({ ...db, environmentId: (await build.environment()).id });
  const receiver = await startReceiver(() => ({ status: 200 }));
  await tenant.webhookSubscription({ targetUrl: receiver.url, createdAt: new Date(Date.now() - 60_000) });
  const events = 20;
  for (let index = 0; index < events; index++) await tenant.event({ inOutbox: true });
  let fetched = 0;
  let putBack = 0;
  const stop = await startWebhookWorker(db, (queue) => ({
    ...queue,
    async fetch(skipped, limit) {
      const jobs = await queue.fetch(skipped, limit);
      fetched += jobs.length;
      return jobs;
    },
    restore(jobs) {
      putBack += jobs.length;
      return queue.restore(jobs);
    },
  }));
  try {
    await waitFor(async () => (new Set(receiver.received.map((request) => request.headers['webhook-id'])).size === events ? true : undefined), 'every delivery');
    // Every free slot's worth a fetch would fetch up to 32 jobs and put 31 back for each attempt. The
    // first fetch may, finding 20; after it, each fetch asks for two and puts one back.
    expect(putBack).toBeLessThanOrEqual(events - 1 + events);
    expect(fetched - putBack).toBeGreaterThanOrEqual(events);
  } finally {
    await stop();
    await receiver.close();
  }
});

it("sends nothing more to an endpoint that answered 410: the subscription's next attempt waits for it to be disabled", { timeout: 60_000 }, async () => {
  const gone = await startReceiver(() => ({ status: 410 }));
  const tenant = builders({ ...db, environmentId: (await build.environment()).id });
  const { subscription } = await tenant.webhookSubscription({ targetUrl: gone.url, createdAt: new Date(Date.now() - 60_000) });
  for (let index = 0; index < 4; index++) await tenant.event({ inOutbox: true });
  // Holds the write that disables the subscription (not the relay's rows, whose key check this lock lets through).
  const holder = new pg.Client({ connectionString: asTestSql(db.url) });
  await holder.connect();
  await holder.query('begin');
  await holder.query('select 1 from webhook_subscription where id = $1 for no key update', [subscription.id]);
  const stop = await startWebhookWorker(db);
  try {
    await waitFor(async () => {
      const [{ waiting }] = await db.sql<{ waiting: number }>(`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%webhook_subscription%'`);
      return gone.received.length === 1 && waiting > 0 ? true : undefined;
    }, 'the outcome of the first attempt to wait for the lock');
    // Time enough for a slot freed too early to send the next event.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await holder.query('commit');
    const rows = await waitFor(async () => {
      const settled = await db.sql<{ status: string; error: string | null }>(`select status, error from webhook_delivery where subscription_id = $1`, [subscription.id]);
      return settled.length === 4 && settled.every((row) => row.status !== 'PENDING') ? settled : undefined;
    }, 'every attempt settled');
    expect(gone.received).toHaveLength(1);
    expect(rows.map((row) => row.error).sort()).toEqual(['The endpoint answered 410', 'The subscription is disabled', 'The subscription is disabled', 'The subscription is disabled']);
  } finally {
    await holder.end();
    await stop();
    await gone.close();
  }
});
