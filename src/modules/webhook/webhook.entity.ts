import { defineEntity, p } from '@mikro-orm/core';
import { Environment } from '../environment/environment.entity.ts';
import { Event } from '../event/event.entity.ts';

/**
 * An endpoint subscribed to an environment's events. Secrets are FieldCipher ciphertext (the service
 * signs with them, so they cannot be hashed). After a rotation the previous secret keeps signing
 * until `previousSecretExpiresAt`.
 */
export const WebhookSubscription = defineEntity({
  name: 'WebhookSubscription',
  properties: {
    id: p.uuid().primary(),
    environment: () => p.manyToOne(Environment),
    name: p.text(),
    targetUrl: p.text(),
    eventTypes: p.json<string[]>(),
    disabled: p.boolean().default(false),
    disabledReason: p.text().nullable(),
    secretEncrypted: p.text(),
    previousSecretEncrypted: p.text().nullable(),
    previousSecretExpiresAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['environment', 'createdAt'] }],
});

export type WebhookSubscriptionEntity = InstanceType<typeof WebhookSubscription.class>;

export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;

/**
 * One attempt to deliver one event to one subscription. Rows are the durable state of delivery: a
 * PENDING row is owed an attempt at `at`, whatever happened to the process that queued it.
 */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  properties: {
    id: p.uuid().primary(),
    subscription: () => p.manyToOne(WebhookSubscription).deleteRule('cascade'),
    // No foreign key: the event log drops whole weeks (LOG_RETENTION_DAYS), and keeps an event while an attempt of it is owed.
    event: () => p.manyToOne(Event).createForeignKeyConstraint(false),
    attempt: p.integer(),
    redelivery: p.boolean().default(false),
    status: p.enum(DELIVERY_STATUSES),
    at: p.datetime(),
    responseStatus: p.integer().nullable(),
    durationMs: p.integer().nullable(),
    responseExcerpt: p.text().nullable(),
    error: p.text().nullable(),
    nextAttemptAt: p.datetime().nullable(),
    /** Set while a worker makes the attempt; a claim that lapses (the worker died) lets another retry it. */
    claimedUntil: p.datetime().nullable(),
  },
  indexes: [
    { properties: ['subscription', 'event'] },
    // A subscription's attempts newest first, by page or after a cursor (GET …/deliveries).
    { properties: ['subscription', 'id'] },
    { properties: ['status', 'at'] },
    // A subscription's latest success, latest failure and failures since (its reachability).
    { properties: ['subscription', 'status', 'id'] },
  ],
});

export type WebhookDeliveryEntity = InstanceType<typeof WebhookDelivery.class>;
