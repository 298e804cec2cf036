import type { EntityManager } from '@mikro-orm/postgresql';
import type { Credential } from '../../api-kit/credential.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId } from '../../lib/ids.ts';
import { pageHeaders, pageOf, pageOrCursor } from '../../api-kit/pagination.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import type { WebhookDeliveries } from './delivery.ts';
import type { WebhookSubscriptionEntity } from './webhook.entity.ts';
import { presentDelivery, presentSubscription } from './webhook.presenter.ts';
import { WebhookService } from './webhook.service.ts';

type WebhookOperations =
  | 'listWebhookSubscriptions'
  | 'createWebhookSubscription'
  | 'getWebhookSubscription'
  | 'updateWebhookSubscription'
  | 'deleteWebhookSubscription'
  | 'rotateWebhookSubscriptionSecret'
  | 'listWebhookDeliveries'
  | 'redeliverWebhookEvent'
  | 'redeliverWebhookEvents'
  | 'sendWebhookTestEvent';

export interface WebhookHandlerDeps {
  cipher: FieldCipher;
  allowPrivate: boolean;
  deliveries: WebhookDeliveries;
}

/** REST handlers for /v1/webhooks: subscriptions with their reachability, secrets, delivery attempts, redelivery and test events. */
export function webhookHandlers({ cipher, allowPrivate, deliveries }: WebhookHandlerDeps): Handlers<WebhookOperations> {
  const service = (em: EntityManager, { environmentId }: Credential) => new WebhookService(em, cipher, environmentId, { allowPrivate });
  const present = async (webhooks: WebhookService, subscription: WebhookSubscriptionEntity) => presentSubscription(subscription, (await webhooks.reachability([subscription])).get(subscription.id));
  return {
    async listWebhookSubscriptions({ query, credential, em }) {
      const webhooks = service(em, credential);
      const { page, limit } = pageOf(query);
      const { items, total } = await webhooks.list(page, limit);
      const reachability = await webhooks.reachability(items);
      return { status: 200, body: items.map((item) => presentSubscription(item, reachability.get(item.id))), headers: pageHeaders(page, limit, total, items.length) };
    },
    async createWebhookSubscription({ body, credential, em }) {
      const { subscription, secret } = await service(em, credential).create(body);
      return { status: 201, body: { ...presentSubscription(subscription, undefined), secret } };
    },
    async getWebhookSubscription({ params, credential, em }) {
      const webhooks = service(em, credential);
      return { status: 200, body: await present(webhooks, await webhooks.get(params.subscriptionId)) };
    },
    async updateWebhookSubscription({ params, body, credential, em }) {
      const webhooks = service(em, credential);
      return { status: 200, body: await present(webhooks, await webhooks.update(await webhooks.get(params.subscriptionId), body)) };
    },
    async deleteWebhookSubscription({ params, credential, em }) {
      const webhooks = service(em, credential);
      await webhooks.delete(await webhooks.get(params.subscriptionId));
      return { status: 204 };
    },
    async rotateWebhookSubscriptionSecret({ params, credential, em }) {
      const webhooks = service(em, credential);
      const { secret, previousSecretExpiresAt } = await webhooks.rotate(await webhooks.get(params.subscriptionId));
      return { status: 200, body: { secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() } };
    },
    async listWebhookDeliveries({ params, query, credential, em }) {
      const webhooks = service(em, credential);
      const { from, limit } = pageOrCursor(query, 'webhookDelivery');
      const { items, total, page, nextAfter } = await webhooks.deliveries(await webhooks.get(params.subscriptionId), query.eventId, from, limit);
      return { status: 200, body: items.map(presentDelivery), headers: pageHeaders(page, limit, total, items.length, nextAfter && encodeId('webhookDelivery', nextAfter)) };
    },
    async redeliverWebhookEvent({ params, credential, em }) {
      const webhooks = service(em, credential);
      const delivery = await webhooks.redeliver(await webhooks.get(params.subscriptionId), params.eventId);
      await deliveries.queue(delivery);
      return { status: 202, body: presentDelivery(delivery) };
    },
    async redeliverWebhookEvents({ params, body, credential, em }) {
      const webhooks = service(em, credential);
      const { queued, next } = await webhooks.redeliverRange(await webhooks.get(params.subscriptionId), body ?? {});
      await deliveries.queueAttempts(queued);
      return { status: 202, body: { queued: queued.length, next } };
    },
    async sendWebhookTestEvent({ params, credential, em }) {
      const webhooks = service(em, credential);
      const delivery = await webhooks.sendTest(await webhooks.get(params.subscriptionId));
      await deliveries.queue(delivery);
      return { status: 202, body: presentDelivery(delivery) };
    },
  };
}
