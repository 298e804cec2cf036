import type { EntityManager } from '@mikro-orm/postgresql';
import { uuidv7 } from '../../lib/ids.ts';
import type { WebhookOutcome } from '../../metrics/metrics.ts';
import { retryDelayMs } from './retry-policy.ts';
import { WebhookDelivery, type WebhookDeliveryEntity } from './webhook.entity.ts';

/** How an attempt ended: the receiver's answer, or why there was none. */
export interface Outcome {
  status?: number;
  excerpt?: string;
  retryAfter?: string;
  error?: string;
  durationMs?: number;
  /** The target was refused (not an allowed address): nothing was sent. */
  refused?: boolean;
}

/** What an attempt's answer means; no status: the endpoint never answered. */
export function answered(status: number | undefined): WebhookOutcome {
  if (status === undefined) return 'unreachable';
  if (status >= 200 && status < 300) return 'succeeded';
  return status === 410 ? 'gone' : 'failed';
}

/**
 * Stores the outcome on the attempt's row and, on failure, writes the row of the next attempt (none
 * after a redelivery, a 410, which disables the subscription, or the schedule's last delay), in one
 * flush. Returns that next row, for its attempt to be queued.
 */
export async function recordOutcome(em: EntityManager, delivery: WebhookDeliveryEntity, outcome: Outcome, now: Date): Promise<WebhookDeliveryEntity | undefined> {
  const meaning = answered(outcome.status);
  const succeeded = meaning === 'succeeded';
  Object.assign(delivery, {
    status: succeeded ? 'SUCCEEDED' : 'FAILED',
    at: now,
    responseStatus: outcome.status ?? null,
    durationMs: outcome.durationMs ?? null,
    responseExcerpt: outcome.excerpt || null,
    error: succeeded ? null : (outcome.error ?? `The endpoint answered ${outcome.status}`),
    claimedUntil: null,
  });
  let next: WebhookDeliveryEntity | undefined;
  const delay = succeeded || delivery.redelivery ? undefined : retryDelayMs(delivery.attempt, outcome.retryAfter, now);
  if (meaning === 'gone') {
    Object.assign(delivery.subscription, { disabled: true, disabledReason: `The endpoint answered 410 Gone at ${now.toISOString()}` });
  } else if (delay !== undefined) {
    const at = new Date(now.getTime() + delay);
    delivery.nextAttemptAt = at;
    next = em.create(WebhookDelivery, { id: uuidv7(), subscription: delivery.subscription, event: delivery.event, attempt: delivery.attempt + 1, redelivery: false, status: 'PENDING', at });
  }
  await em.flush();
  return next;
}
