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
/** Failed attempts a subscription's reachability counts at most. */
export const REACHABILITY_FAILURES = 1000;
/** Attempts a range redelivery reads at most per call. */
export const RANGE_ROWS = 10_000;

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
  // Each subscription's latest success and latest failure, and the failures after that success (at most
  // REACHABILITY_FAILURES read): three short reads of the (subscription_id, status, id) index each.
  reachability: `select s.id as "subscriptionId", ok.at as "lastSuccessAt", ok.id as "lastSuccessId", bad.at as "lastFailureAt", bad.id as "lastFailureId",
            (select count(*)::int from (select 1 from webhook_delivery f
               where f.subscription_id = s.id and f.status = 'FAILED' and f.id > coalesce(ok.id, '00000000-0000-0000-0000-000000000000'::uuid)
               limit ${REACHABILITY_FAILURES}) failures) as "consecutiveFailures"
       from unnest($1::uuid[]) as s(id)
       left join lateral (select id, at from webhook_delivery d where d.subscription_id = s.id and d.status = 'SUCCEEDED' order by d.id desc limit 1) ok on true
       left join lateral (select id, at from webhook_delivery d where d.subscription_id = s.id and d.status = 'FAILED' order by d.id desc limit 1) bad on true`,
  // A range redelivery holds its subscription's row until it commits: two at once queue nothing twice,
  // and a subscription deleted meanwhile is not found (its delete holds the row first).
  lockSubscription: `select id from webhook_subscription where id = $1 for no key update`,
  // The latest attempt of each event of a subscription in the id range ($2, $3), reading at most
  // RANGE_ROWS attempts in event order (the (subscription_id, event_id) index); `full` says the read
  // stopped there, so that its last event may have attempts beyond it.
  latestAttempts: `with scanned as (
         select event_id, id, status from webhook_delivery
          where subscription_id = $1 and event_id > $2::uuid and event_id < $3::uuid
          order by event_id, id limit ${RANGE_ROWS}
       )
       select distinct on (event_id) event_id as "eventId", status, (select count(*) from scanned) = ${RANGE_ROWS} as "full"
         from scanned order by event_id, id desc`,
  // One more attempt of each event (their numbers follow the attempts it has), made once (a redelivery).
  redeliver: `insert into webhook_delivery (id, subscription_id, event_id, attempt, redelivery, status, at)
       select r.id, $1::uuid, r.event_id, (select count(*) from webhook_delivery d where d.subscription_id = $1::uuid and d.event_id = r.event_id) + 1, true, 'PENDING', $3
         from jsonb_to_recordset($2::jsonb) as r(id uuid, event_id uuid)`,
};

/** A subscription's endpoint as its attempts show it. */
export interface Reachability {
  lastSuccessAt: Date | null;
  lastSuccessId: string | null;
  lastFailureAt: Date | null;
  lastFailureId: string | null;
  consecutiveFailures: number;
}

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

/** Each subscription's reachability (see webhookStatements.reachability). */
export async function reachabilityOf(em: EntityManager, subscriptionIds: string[]): Promise<Map<string, Reachability>> {
  if (subscriptionIds.length === 0) return new Map();
  const { rows } = await run<Reachability & { subscriptionId: string }>(em, webhookStatements.reachability, [subscriptionIds]);
  return new Map(rows.map(({ subscriptionId, ...reachability }) => [subscriptionId, reachability]));
}

/** The latest attempt's status of each event in a subscription's id range, in event order; `full`: the read stopped at RANGE_ROWS attempts. */
export async function latestAttempts(tx: EntityManager, subscriptionId: string, range: { after: string; before: string }): Promise<{ latest: Array<{ eventId: string; status: string }>; full: boolean }> {
  const { rows } = await run<{ eventId: string; status: string; full: boolean }>(tx, webhookStatements.latestAttempts, [subscriptionId, range.after, range.before]);
  return { latest: rows.map(({ eventId, status }) => ({ eventId, status })), full: rows[0]?.full ?? false };
}

/** Locks a subscription's row for the caller's transaction; false when it is gone. */
export async function lockSubscription(tx: EntityManager, subscriptionId: string): Promise<boolean> {
  return (await run(tx, webhookStatements.lockSubscription, [subscriptionId])).rows.length > 0;
}

/** Writes one PENDING redelivery row per given row id and event; due `at`. */
export async function insertRedeliveries(tx: EntityManager, subscriptionId: string, rows: Array<{ id: string; eventId: string }>, at: Date): Promise<void> {
  await run(tx, webhookStatements.redeliver, [subscriptionId, JSON.stringify(rows.map(({ id, eventId }) => ({ id, event_id: eventId }))), at]);
}
