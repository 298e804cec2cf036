import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { IdOrderPage, OffsetPage } from '../../db/list-page.ts';
import { notFound, ValidationError, type FieldIssue } from '../../errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { isStorableInstant } from '../../lib/dates.ts';
import { decodeId, encodeId, uuidv7, uuidv7Edge } from '../../lib/ids.ts';
import { readEnvironment } from '../environment/environment.service.ts';
import { logEvent } from '../event/event.service.ts';
import { findEvent } from '../event/event.store.ts';
import { isEventTypeFilter } from '../event/event.types.ts';
import type { QueuedAttempt } from './attempt-queue.ts';
import { newWebhookSecret } from './signing.ts';
import { checkTarget } from './target.ts';
import { WebhookDelivery, WebhookSubscription, type WebhookDeliveryEntity, type WebhookSubscriptionEntity } from './webhook.entity.ts';
import {
  countAttempts,
  deliveryPage,
  insertRedeliveries,
  latestAttempts,
  lockSubscription,
  reachabilityOf,
  removeSubscription,
  subscriptionById,
  subscriptionPage,
  type Reachability,
} from './webhook.store.ts';

const PREVIOUS_SECRET_VALID_MS = 24 * 3600 * 1000;

/** Which events a range redelivery takes (the contract's WebhookRedeliveryRange, public ids and instants as sent). */
export interface RedeliveryRange {
  status?: 'FAILED' | 'SUCCEEDED';
  since?: string;
  until?: string;
  after?: string;
  limit?: number;
}

const NO_ID = '00000000-0000-0000-0000-000000000000';
const LAST_ID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

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
    await this.#flushDelivery();
    return delivery;
  }

  /**
   * Records a `webhook.test` event in the log (not the outbox: no other subscription gets it) and,
   * in the same transaction, one attempt of it to this subscription, made once like a redelivery.
   */
  async sendTest(subscription: WebhookSubscriptionEntity): Promise<WebhookDeliveryEntity> {
    const record = { subscriptionId: encodeId('webhookSubscription', subscription.id), name: subscription.name, targetUrl: subscription.targetUrl };
    const event = logEvent(this.#em, this.#environmentId, 'webhook.test', null, record);
    const delivery = this.#em.create(WebhookDelivery, { id: uuidv7(), subscription, event, attempt: 1, redelivery: true, status: 'PENDING', at: new Date() });
    await this.#flushDelivery();
    return delivery;
  }

  /**
   * Queues one more attempt (made once) of each event in the range whose latest attempt to this
   * subscription has the status asked for, oldest first, up to `limit`; events with an attempt
   * pending are passed over. Reads at most RANGE_ROWS attempts; `next` is the last event looked at
   * when the range goes on past what was read or queued.
   */
  async redeliverRange(subscription: WebhookSubscriptionEntity, range: RedeliveryRange): Promise<{ queued: QueuedAttempt[]; next: string | null }> {
    const status = range.status ?? 'FAILED';
    const limit = range.limit ?? 100;
    const bounds = this.#idRange(range);
    const at = new Date();
    const { queued, next } = await this.#em.transactional(async (tx) => {
      if (!(await lockSubscription(tx, subscription.id))) throw notFound('Webhook subscription');
      const { latest, full } = await latestAttempts(tx, subscription.id, bounds);
      // A full read may have stopped inside its last event's attempts: that event is left for the next call (unless it is the only one).
      const looked = full && latest.length > 1 ? latest.slice(0, -1) : latest;
      const wanted = looked.filter((attempt) => attempt.status === status);
      const taken = wanted.slice(0, limit);
      const rows = taken.map(({ eventId }) => ({ id: uuidv7(), eventId }));
      if (rows.length > 0) await insertRedeliveries(tx, subscription.id, rows, at);
      const stoppedAt = wanted.length > limit ? taken.at(-1) : full ? looked.at(-1) : undefined;
      return { queued: rows, next: stoppedAt ? encodeId('event', stoppedAt.eventId) : null };
    });
    return {
      queued: queued.map(({ id }) => ({ deliveryId: id, subscriptionId: subscription.id, environmentId: this.#environmentId, at, jobId: id })),
      next,
    };
  }

  /** Each subscription's reachability, by subscription id. */
  reachability(subscriptions: WebhookSubscriptionEntity[]): Promise<Map<string, Reachability>> {
    return reachabilityOf(this.#em, subscriptions.map(({ id }) => id));
  }

  /** A range's events as an exclusive id range: ids are uuidv7, so `since` and `until` are id bounds too. A bound PostgreSQL cannot compare with is a 422. */
  #idRange({ since, until, after }: RedeliveryRange): { after: string; before: string } {
    const instants = Object.entries({ since, until }).filter(([, value]) => value !== undefined && !isStorableInstant(new Date(value)));
    if (instants.length > 0) throw new ValidationError(instants.map(([name]) => ({ path: [name], message: `${name} must be a real instant from 0001-01-01 to 9999-12-31 UTC` })));
    const lower = [after === undefined ? NO_ID : (decodeId('event', after) ?? NO_ID), since === undefined ? NO_ID : uuidv7Edge(new Date(since).getTime() - 1, 'last')];
    return { after: lower.sort().at(-1)!, before: until === undefined ? LAST_ID : uuidv7Edge(new Date(until).getTime(), 'first') };
  }

  /** Writes a new delivery row; its subscription deleted since it was read is not found. */
  async #flushDelivery(): Promise<void> {
    try {
      await this.#em.flush();
    } catch (error) {
      if (error instanceof ForeignKeyConstraintViolationException) throw notFound('Webhook subscription');
      throw error;
    }
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
