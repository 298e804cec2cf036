import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { IdOrderPage, OffsetPage } from '../../db/list-page.ts';
import { notFound, ValidationError, type FieldIssue } from '../../errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { decodeId, uuidv7 } from '../../lib/ids.ts';
import { readEnvironment } from '../environment/environment.service.ts';
import { findEvent } from '../event/event.store.ts';
import { isEventTypeFilter } from '../event/event.types.ts';
import { newWebhookSecret } from './signing.ts';
import { checkTarget } from './target.ts';
import { WebhookDelivery, WebhookSubscription, type WebhookDeliveryEntity, type WebhookSubscriptionEntity } from './webhook.entity.ts';
import { countAttempts, deliveryPage, removeSubscription, subscriptionById, subscriptionPage } from './webhook.store.ts';

const PREVIOUS_SECRET_VALID_MS = 24 * 3600 * 1000;

export interface SubscriptionFields {
  name?: string;
  targetUrl?: string;
  eventTypes?: string[];
  disabled?: boolean;
}

/** Webhook subscriptions of one environment, their secrets and their delivery attempts. */
export class WebhookService {
  readonly #em: EntityManager;
  readonly #cipher: FieldCipher;
  readonly #environmentId: string;
  readonly #allowPrivate: boolean;

  constructor(em: EntityManager, cipher: FieldCipher, environmentId: string, options: { allowPrivate: boolean }) {
    this.#em = em;
    this.#cipher = cipher;
    this.#environmentId = environmentId;
    this.#allowPrivate = options.allowPrivate;
  }

  list(page: number, limit: number): Promise<OffsetPage<WebhookSubscriptionEntity>> {
    return subscriptionPage(this.#em, this.#environmentId, page, limit);
  }

  async get(publicId: string): Promise<WebhookSubscriptionEntity> {
    const id = decodeId('webhookSubscription', publicId);
    const subscription = id && (await subscriptionById(this.#em, this.#environmentId, id));
    if (!subscription) throw notFound('Webhook subscription');
    return subscription;
  }

  /** Creates a subscription; its secret is returned this once and stored encrypted. */
  async create(fields: Required<Pick<SubscriptionFields, 'name' | 'targetUrl'>> & SubscriptionFields): Promise<{ subscription: WebhookSubscriptionEntity; secret: string }> {
    await this.#check(fields);
    const secret = newWebhookSecret();
    const id = uuidv7();
    const subscription = this.#em.create(WebhookSubscription, {
      id,
      environment: this.#environmentId,
      name: fields.name,
      targetUrl: fields.targetUrl,
      eventTypes: fields.eventTypes ?? [],
      disabled: fields.disabled ?? false,
      disabledReason: fields.disabled ? 'Created disabled' : null,
      secretEncrypted: this.#cipher.encrypt('webhookSecret', { id }, secret),
      previousSecretEncrypted: null,
      previousSecretExpiresAt: null,
    });
    await this.#em.flush();
    return { subscription, secret };
  }

  async update(subscription: WebhookSubscriptionEntity, fields: SubscriptionFields): Promise<WebhookSubscriptionEntity> {
    await this.#check(fields);
    if (fields.name !== undefined) subscription.name = fields.name;
    if (fields.targetUrl !== undefined) subscription.targetUrl = fields.targetUrl;
    if (fields.eventTypes !== undefined) subscription.eventTypes = fields.eventTypes;
    if (fields.disabled !== undefined && fields.disabled !== subscription.disabled) {
      subscription.disabled = fields.disabled;
      subscription.disabledReason = fields.disabled ? `Disabled through the API at ${new Date().toISOString()}` : null;
    }
    await this.#em.flush();
    return subscription;
  }

  delete(subscription: WebhookSubscriptionEntity): Promise<void> {
    return removeSubscription(this.#em, subscription.id);
  }

  /** A new secret; the current one keeps signing for 24 hours (an older previous one ends now). */
  async rotate(subscription: WebhookSubscriptionEntity): Promise<{ secret: string; previousSecretExpiresAt: Date }> {
    const secret = newWebhookSecret();
    subscription.previousSecretEncrypted = subscription.secretEncrypted;
    subscription.previousSecretExpiresAt = new Date(Date.now() + PREVIOUS_SECRET_VALID_MS);
    subscription.secretEncrypted = this.#cipher.encrypt('webhookSecret', subscription, secret);
    await this.#em.flush();
    return { secret, previousSecretExpiresAt: subscription.previousSecretExpiresAt };
  }

  deliveries(subscription: WebhookSubscriptionEntity, eventPublicId: string | undefined, from: { page: number } | { afterId: string }, limit: number): Promise<IdOrderPage<WebhookDeliveryEntity>> {
    const eventId = eventPublicId === undefined ? undefined : (decodeId('event', eventPublicId) ?? '00000000-0000-0000-0000-000000000000');
    return deliveryPage(this.#em, subscription.id, eventId, from, limit);
  }

  /**
   * Queues one more attempt of an event, whatever its past and even while the subscription is
   * disabled. A subscription deleted since it was read is not found (events are never deleted).
   */
  async redeliver(subscription: WebhookSubscriptionEntity, eventPublicId: string): Promise<WebhookDeliveryEntity> {
    const id = decodeId('event', eventPublicId);
    const event = id && (await findEvent(this.#em, this.#environmentId, id));
    if (!event) throw notFound('Event');
    const previous = await countAttempts(this.#em, subscription.id, event.id);
    const delivery = this.#em.create(WebhookDelivery, { id: uuidv7(), subscription, event, attempt: previous + 1, redelivery: true, status: 'PENDING', at: new Date() });
    try {
      await this.#em.flush();
    } catch (error) {
      if (error instanceof ForeignKeyConstraintViolationException) throw notFound('Webhook subscription');
      throw error;
    }
    return delivery;
  }

  /** Event types must name real types (or prefixes of them); the target must be reachable and allowed. */
  async #check(fields: SubscriptionFields): Promise<void> {
    const issues: FieldIssue[] = [];
    fields.eventTypes?.forEach((filter, index) => {
      if (!isEventTypeFilter(filter)) issues.push({ path: ['eventTypes', String(index)], message: `${filter} is neither an event type nor a prefix of one` });
    });
    if (fields.targetUrl !== undefined) {
      const environment = await readEnvironment(this.#em, this.#environmentId);
      const target = await checkTarget(fields.targetUrl, { httpsOnly: environment.mode === 'PRODUCTION', allowPrivate: this.#allowPrivate });
      if ('refused' in target) issues.push({ path: ['targetUrl'], message: target.refused });
    }
    if (issues.length > 0) throw new ValidationError(issues);
  }
}
