import type { components } from '../../../generated/rest.ts';
import { encodeId } from '../../lib/ids.ts';
import type { WebhookDeliveryEntity, WebhookSubscriptionEntity } from './webhook.entity.ts';

/** A subscription as the contract shows it: never its secrets. */
export function presentSubscription(subscription: WebhookSubscriptionEntity): components['schemas']['WebhookSubscription'] {
  return {
    id: encodeId('webhookSubscription', subscription.id),
    name: subscription.name,
    targetUrl: subscription.targetUrl,
    eventTypes: subscription.eventTypes,
    disabled: subscription.disabled,
    disabledReason: subscription.disabledReason ?? null,
    at: subscription.createdAt.toISOString(),
  };
}

export function presentDelivery(delivery: WebhookDeliveryEntity): components['schemas']['WebhookDelivery'] {
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
