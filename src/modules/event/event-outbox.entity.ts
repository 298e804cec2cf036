import { defineEntity, p } from '@mikro-orm/core';

/**
 * The events not yet fanned out to webhook deliveries: a row is inserted with its event (same
 * transaction) and deleted by the relay in the transaction that writes the deliveries, so the event
 * log itself is insert-only. No foreign key: the log may later be partitioned and its old partitions
 * dropped, and an event is relayed long before that.
 */
export const EventOutbox = defineEntity({
  name: 'EventOutbox',
  properties: {
    eventId: p.uuid().primary(),
  },
});

export type EventOutboxEntity = InstanceType<typeof EventOutbox.class>;
