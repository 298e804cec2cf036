import pg from 'pg';
import { expect, it } from 'vitest';
import { settlement, type Outcome } from '../../src/modules/webhook/outcome-recorder.ts';
import { deliveriesToAttempt, removeSubscription, settleDeliveries } from '../../src/modules/webhook/webhook.store.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import { asTestSql, type TestDatabase } from '../support/test-database.ts';
import { waitFor } from '../support/wait.ts';

let db: TestDatabase;
let build: Builders;

withServiceTier((tier) => ({ db, build } = tier));

/** Waits until `count` of the service's statements in this database wait for a lock. */
const lockWaits = (count: number, what: string) =>
  waitFor(async () => {
    const [{ waiting }] = await db.sql<{ waiting: number }>(
      `select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and usename <> current_user`,
    );
    return waiting >= count ? true : undefined;
  }, what);

// A subscription's delete locks its row, then (the cascade) its delivery rows; an outcome's write that
// locked its delivery row before the subscription's (the next attempt's row checks its key, a 410
// disables it) deadlocked with it, and PostgreSQL aborted one of the two (40P01). The delete's cascade
// is held at an earlier row so that the outcome's write comes in between, as it did now and then.
it.each<[string, Outcome]>([
  ['a failure, whose next attempt it writes', { error: 'connect ECONNREFUSED' }],
  ['a 410, which disables the subscription', { status: 410 }],
])("writes the outcome of %s while the subscription is being deleted, and the delete goes through", async (_, outcome) => {
  const { subscription } = await build.webhookSubscription();
  const earlier = await build.delivery(subscription, await build.event());
  const attempted = await build.delivery(subscription, await build.event());
  const [delivery] = await deliveriesToAttempt(db.em(), [attempted.id]);

  const holder = new pg.Client({ connectionString: asTestSql(db.url) });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('select 1 from webhook_delivery where id = $1 for update', [earlier.id]);
    const deleting = removeSubscription(db.em(), subscription.id);
    await lockWaits(1, "the delete's cascade to wait at the earlier row");
    // The cascade has not reached the attempted row yet: the outcome's write can lock it.
    expect(await db.sql('select 1 from webhook_delivery where id = $1 for update skip locked', [attempted.id])).toHaveLength(1);
    const settling = settleDeliveries(db.em(), [settlement(delivery!, outcome, new Date())]);
    await lockWaits(2, "the outcome's write to wait for a lock");
    await holder.query('commit');

    const ended = await Promise.allSettled([deleting, settling]);
    expect(ended.map((result) => (result.status === 'rejected' ? String(result.reason) : 'done'))).toEqual(['done', 'done']);
    expect(await db.sql('select id from webhook_delivery where subscription_id = $1', [subscription.id])).toEqual([]);
  } finally {
    await holder.end();
  }
});
