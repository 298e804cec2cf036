import type { EntityManager } from '@mikro-orm/postgresql';
import { idOrderPage, offsetPage, type IdOrderPage, type OffsetPage } from '../../db/list-page.ts';
import { run } from '../../db/statement.ts';
import { WebhookDelivery, WebhookSubscription, type WebhookDeliveryEntity, type WebhookSubscriptionEntity } from './webhook.entity.ts';

/** A delivery row owed an attempt, with the id of the job that makes it. */
export interface OwedDelivery {
  id: string;
  subscriptionId: string;
  environmentId: string;
  at: string;
  jobId: string;
}

/** Owed rows the relay's sweep reads per pass. */
export const SWEEP_ROWS = 100;

/** The statements of the webhook_delivery table; test/stores.test.ts prepares each. */
export const webhookStatements = {
  // A row never claimed keeps its own id as job id; a lapsed claim gets a hash of the row and the claim.
  owed: `select d.id, d.subscription_id as "subscriptionId", s.environment_id as "environmentId", d.at,
            coalesce(md5(d.id::text || extract(epoch from d.claimed_until)::text)::uuid, d.id) as "jobId"
       from webhook_delivery d join webhook_subscription s on s.id = d.subscription_id
      where d.status = 'PENDING' and d.at <= $1 and (d.claimed_until is null or d.claimed_until < $2) and d.at >= $3::timestamptz and (d.at, d.id) > ($3::timestamptz, $4::uuid)
      order by d.at, d.id limit ${SWEEP_ROWS}`,
  claim: `update webhook_delivery set claimed_until = $1 where id = any($2::uuid[]) and status = 'PENDING' and (claimed_until is null or claimed_until < $3) returning id`,
  // Before a group of outcomes is settled, in its transaction: the subscriptions of its rows, in id order
  // and in the strongest mode `settle` takes on one (disabling it). A subscription's delete locks its row
  // and then, through the cascade, its delivery rows; `settle` locks its delivery rows first and then the
  // subscription (the next attempt's row checks its key), so without this the two deadlocked (40P01).
  lockSubscriptions: `select id from webhook_subscription where id = any($1::uuid[]) order by id for no key update`,
  // One statement for a group of outcomes: each row settled, the next attempts' rows written (not for a
  // subscription deleted meanwhile: its rows went with it), the subscriptions that answered 410 disabled.
  settle: `with outcome as (
         select * from jsonb_to_recordset($1::jsonb) as o(id uuid, status text, at timestamptz, "responseStatus" int, "durationMs" int,
           "responseExcerpt" text, error text, "nextAttemptAt" timestamptz, retry jsonb, disable jsonb)
       ), settled as (
         update webhook_delivery d set status = o.status, at = o.at, response_status = o."responseStatus", duration_ms = o."durationMs",
                response_excerpt = o."responseExcerpt", error = o.error, next_attempt_at = o."nextAttemptAt", claimed_until = null
           from outcome o where d.id = o.id
       ), retried as (
         insert into webhook_delivery (id, subscription_id, event_id, attempt, redelivery, status, at)
         select (o.retry->>'id')::uuid, s.id, (o.retry->>'eventId')::uuid, (o.retry->>'attempt')::int, false, 'PENDING', (o.retry->>'at')::timestamptz
           from outcome o join webhook_subscription s on s.id = (o.retry->>'subscriptionId')::uuid
       ), disabled as (
         update webhook_subscription s set disabled = true, disabled_reason = o.disable->>'reason'
           from outcome o where s.id = (o.disable->>'subscriptionId')::uuid
       )
       select count(*)::int as settled from outcome`,
};

/** An attempt's outcome as its row keeps it, with what follows from it. */
export interface Settlement {
  id: string;
  subscriptionId: string;
  status: 'SUCCEEDED' | 'FAILED';
  at: Date;
  responseStatus: number | null;
  durationMs: number | null;
  responseExcerpt: string | null;
  error: string | null;
  nextAttemptAt: Date | null;
  /** The next attempt's row. */
  retry?: { id: string; subscriptionId: string; eventId: string; attempt: number; at: Date };
  /** The subscription to disable, and why. */
  disable?: { subscriptionId: string; reason: string };
}

/**
 * PENDING rows due by `dueBy` that no live claim holds at `now`, in (at, id) order after `from`: up to
 * SWEEP_ROWS of them.
 */
export async function owedDeliveries(em: EntityManager, dueBy: Date, now: Date, from: { at: string; id: string }): Promise<OwedDelivery[]> {
  return (await run<OwedDelivery>(em, webhookStatements.owed, [dueBy, now, from.at, from.id])).rows;
}

/** Claims the PENDING rows among `ids` until `until`, but none a claim still live at `now` holds; returns the ids claimed. */
export async function claimDeliveries(em: EntityManager, ids: string[], until: Date, now: Date): Promise<string[]> {
  return (await run<{ id: string }>(em, webhookStatements.claim, [until, ids, now])).rows.map(({ id }) => id);
}

/** Writes a group of outcomes in one statement, in a transaction that first locks their subscriptions (webhookStatements.lockSubscriptions). */
export async function settleDeliveries(em: EntityManager, settlements: Settlement[]): Promise<void> {
  const subscriptionIds = [...new Set(settlements.map(({ subscriptionId }) => subscriptionId))];
  await em.transactional(async (tx) => {
    await run(tx, webhookStatements.lockSubscriptions, [subscriptionIds]);
    await run(tx, webhookStatements.settle, [JSON.stringify(settlements)]);
  });
}

/** Page `page` of the environment's subscriptions, oldest first. */
export function subscriptionPage(em: EntityManager, environmentId: string, page: number, limit: number): Promise<OffsetPage<WebhookSubscriptionEntity>> {
  return offsetPage(em, WebhookSubscription, { environment: environmentId }, { createdAt: 'asc', id: 'asc' }, page, limit);
}

export function subscriptionById(em: EntityManager, environmentId: string, id: string): Promise<WebhookSubscriptionEntity | null> {
  return em.findOne(WebhookSubscription, { id, environment: environmentId });
}

/** The subscriptions of these environments that are not disabled (the relay fans events out to them). */
export function enabledSubscriptions(em: EntityManager, environmentIds: string[]): Promise<WebhookSubscriptionEntity[]> {
  return em.find(WebhookSubscription, { environment: { $in: environmentIds }, disabled: false });
}

/** Removes a subscription, and with it (the schema's cascade) its delivery rows. */
export async function removeSubscription(em: EntityManager, id: string): Promise<void> {
  await em.nativeDelete(WebhookSubscription, { id });
}

/** A page of a subscription's delivery rows (of one event, when given), newest first: page `page`, or the rows older than id `afterId`. */
export function deliveryPage(
  em: EntityManager,
  subscriptionId: string,
  eventId: string | undefined,
  from: { page: number } | { afterId: string },
  limit: number,
): Promise<IdOrderPage<WebhookDeliveryEntity>> {
  return idOrderPage(em, WebhookDelivery, { subscription: subscriptionId, ...(eventId ? { event: eventId } : {}) }, from, limit, 'desc');
}

/** How many delivery rows (attempts) a subscription has for an event. */
export function countAttempts(em: EntityManager, subscriptionId: string, eventId: string): Promise<number> {
  return em.count(WebhookDelivery, { subscription: subscriptionId, event: eventId });
}

/** Delivery rows with their subscriptions and events, for their attempts (claimed rows: they exist). */
export function deliveriesToAttempt(em: EntityManager, ids: string[]): Promise<WebhookDeliveryEntity[]> {
  return em.find(WebhookDelivery, { id: { $in: ids } }, { populate: ['subscription', 'event'] });
}
