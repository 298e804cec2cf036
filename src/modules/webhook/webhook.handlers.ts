import type { Credential } from '../../http/credentials.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { AppContext } from '../../http/state.ts';
import { pageHeaders, pageOf } from '../../rest/pagination.ts';
import type { Handlers } from '../../rest/types.ts';
import type { WebhookDeliveries } from './delivery.ts';
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
  | 'redeliverWebhookEvent';

export interface WebhookHandlerDeps {
  cipher: FieldCipher;
  allowPrivate: boolean;
  deliveries: WebhookDeliveries;
}

/** REST handlers for /v1/webhooks (API key): subscriptions, secrets, delivery attempts and redelivery. */
export function webhookHandlers({ cipher, allowPrivate, deliveries }: WebhookHandlerDeps): Handlers<WebhookOperations> {
  const service = (ctx: AppContext, { environmentId }: Credential) => new WebhookService(ctx.state.em, cipher, environmentId, { allowPrivate });
  return {
    async listWebhookSubscriptions({ query, credential, ctx }) {
      const { page, limit } = pageOf(query);
      const { items, total } = await service(ctx, credential).list(page, limit);
      return { status: 200, body: items.map(presentSubscription), headers: pageHeaders(page, limit, total, items.length) };
    },
    async createWebhookSubscription({ body, credential, ctx }) {
      const { subscription, secret } = await service(ctx, credential).create(body);
      return { status: 201, body: { ...presentSubscription(subscription), secret } };
    },
    async getWebhookSubscription({ params, credential, ctx }) {
      return { status: 200, body: presentSubscription(await service(ctx, credential).get(params.subscriptionId)) };
    },
    async updateWebhookSubscription({ params, body, credential, ctx }) {
      const webhooks = service(ctx, credential);
      return { status: 200, body: presentSubscription(await webhooks.update(await webhooks.get(params.subscriptionId), body)) };
    },
    async deleteWebhookSubscription({ params, credential, ctx }) {
      const webhooks = service(ctx, credential);
      await webhooks.delete(await webhooks.get(params.subscriptionId));
      return { status: 204 };
    },
    async rotateWebhookSubscriptionSecret({ params, credential, ctx }) {
      const webhooks = service(ctx, credential);
      const { secret, previousSecretExpiresAt } = await webhooks.rotate(await webhooks.get(params.subscriptionId));
      return { status: 200, body: { secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() } };
    },
    async listWebhookDeliveries({ params, query, credential, ctx }) {
      const webhooks = service(ctx, credential);
      const { page, limit } = pageOf(query);
      const { items, total } = await webhooks.deliveries(await webhooks.get(params.subscriptionId), query.eventId, page, limit);
      return { status: 200, body: items.map(presentDelivery), headers: pageHeaders(page, limit, total, items.length) };
    },
    async redeliverWebhookEvent({ params, credential, ctx }) {
      const webhooks = service(ctx, credential);
      const delivery = await webhooks.redeliver(await webhooks.get(params.subscriptionId), params.eventId);
      await deliveries.queue(delivery);
      return { status: 202, body: presentDelivery(delivery) };
    },
  };
}
