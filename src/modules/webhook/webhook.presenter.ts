import type { components } from '../../../generated/rest.ts';
import { encodeId } from '../../lib/ids.ts';
import type { WebhookDeliveryEntity, WebhookSubscriptionEntity } from './webhook.entity.ts';
import type { Reachability } from './webhook.store.ts';

type Schemas = components['schemas'];

/** A subscription as the contract shows it, with its endpoint's reachability (none: no attempt yet): never its secrets. */
export function presentSubscription(subscription: WebhookSubscriptionEntity, reachability: Reachability | undefined): Schemas['WebhookSubscription'] {
  return {
    id: encodeId('webhookSubscription', subscription.id),
    name: subscription.name,
    targetUrl: subscription.targetUrl,
    eventTypes: subscription.eventTypes,
    disabled: subscription.disabled,
    disabledReason: subscription.disabledReason ?? null,
    at: subscription.createdAt.toISOString(),
    reachability: presentReachability(reachability),
  };
}

/** The latest attempt made is the later of the latest success and the latest failure (by id, the order attempts are listed in). */
function presentReachability(reachability: Reachability | undefined): Schemas['WebhookReachability'] {
  const { lastSuccessAt = null, lastSuccessId = null, lastFailureAt = null, lastFailureId = null, consecutiveFailures = 0 } = reachability ?? {};
  const failedLast = lastFailureId !== null && (lastSuccessId === null || lastFailureId > lastSuccessId);
  const lastAttemptAt = failedLast ? lastFailureAt : lastSuccessAt;
  return {
    lastAttemptAt: lastAttemptAt && new Date(lastAttemptAt).toISOString(),
    lastAttemptStatus: failedLast ? 'FAILED' : lastSuccessId === null ? null : 'SUCCEEDED',
    lastSuccessAt: lastSuccessAt && new Date(lastSuccessAt).toISOString(),
    consecutiveFailures,
  };
}

export function presentDelivery(delivery: WebhookDeliveryEntity): Schemas['WebhookDelivery'] {
  return {
    id: encodeId('webhookDelivery', delivery.id),
    eventId: encodeId('event', delivery.event.id),
    subscriptionId: encodeId('webhookSubscription', delivery.subscription.id),
    attempt: delivery.attempt,
    at: delivery.at.toISOString(),
    status: delivery.status,
    responseStatus: delivery.responseStatus ?? null,
    durationMs: delivery.durationMs ?? null,
    responseExcerpt: delivery.responseExcerpt ?? null,
    error: delivery.error ?? null,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
  };
}
