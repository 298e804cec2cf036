import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
import type { WebhookBacklog } from '../../metrics/metrics.ts';

/** The health figures' statements of the delivery log; test/stores.test.ts prepares each. */
export const webhookBacklogStatements = {
  /**
   * The attempts owed (PENDING rows, read through the `status, at` index), of environment $2 or every
   * environment (null), by environment: `due` those whose time has come by $1 (waiting for a worker),
   * `scheduled` the retries set for later.
   */
  backlog: `select s.environment_id as "environmentId", count(*) filter (where d.at <= $1)::int as due, count(*) filter (where d.at > $1)::int as scheduled
       from webhook_delivery d join webhook_subscription s on s.id = d.subscription_id
      where d.status = 'PENDING' and ($2::uuid is null or s.environment_id = $2::uuid)
      group by s.environment_id`,
};

/**
 * The webhook attempts owed at `now` by environment (only `environmentId`'s when given): what the
 * health figures show in `/metrics` and `/v1/metrics/summary` alike, read from the delivery log every
 * process writes. An environment that owes none has no row.
 */
export async function webhookBacklog(em: EntityManager, now: Date, environmentId?: string): Promise<WebhookBacklog[]> {
  return (await run<WebhookBacklog>(em, webhookBacklogStatements.backlog, [now, environmentId ?? null])).rows;
}
