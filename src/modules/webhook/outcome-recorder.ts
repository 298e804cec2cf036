import { uuidv7 } from '../../lib/ids.ts';
import type { WebhookOutcome } from '../../metrics/metrics.ts';
import type { QueuedAttempt } from './attempt-queue.ts';
import { retryDelayMs } from './retry-policy.ts';
import type { WebhookDeliveryEntity } from './webhook.entity.ts';
import type { Settlement } from './webhook.store.ts';

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
 * What an outcome writes: the attempt's row settled and, on failure, the row of the next attempt (none
 * after a redelivery, a 410, which disables the subscription, or the schedule's last delay), whose
 * attempt is to be queued once written.
 */
export function settlement(delivery: WebhookDeliveryEntity, outcome: Outcome, now: Date): Settlement & { next?: QueuedAttempt } {
  const meaning = answered(outcome.status);
  const succeeded = meaning === 'succeeded';
  const { subscription } = delivery;
  const settled: Settlement & { next?: QueuedAttempt } = {
    id: delivery.id,
    subscriptionId: subscription.id,
    status: succeeded ? 'SUCCEEDED' : 'FAILED',
    at: now,
    responseStatus: outcome.status ?? null,
    durationMs: outcome.durationMs ?? null,
    responseExcerpt: outcome.excerpt || null,
    error: succeeded ? null : (outcome.error ?? `The endpoint answered ${outcome.status}`),
    nextAttemptAt: null,
  };
  const delay = succeeded || delivery.redelivery ? undefined : retryDelayMs(delivery.attempt, outcome.retryAfter, now);
  if (meaning === 'gone') {
    settled.disable = { subscriptionId: subscription.id, reason: `The endpoint answered 410 Gone at ${now.toISOString()}` };
  } else if (delay !== undefined) {
    const at = new Date(now.getTime() + delay);
    const id = uuidv7();
    settled.nextAttemptAt = at;
    settled.retry = { id, subscriptionId: subscription.id, eventId: delivery.event.id, attempt: delivery.attempt + 1, at };
    settled.next = { deliveryId: id, subscriptionId: subscription.id, environmentId: subscription.environment.id, at, jobId: id };
  }
  return settled;
}

/** An attempt of a disabled subscription (not a redelivery) fails without being sent, and ends there. */
export function disabledSettlement(delivery: WebhookDeliveryEntity): Settlement {
  return { id: delivery.id, subscriptionId: delivery.subscription.id, status: 'FAILED', at: delivery.at, responseStatus: null, durationMs: null, responseExcerpt: null, error: 'The subscription is disabled', nextAttemptAt: null };
}
