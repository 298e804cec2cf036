import { defineEntity, p } from '@mikro-orm/core';
import { Environment } from '../environment/environment.entity.ts';

/**
 * The event log: one row per event, written in the same transaction as the change that caused it
 * (with its row in the outbox, EventOutbox), and never changed after. `payload` holds the public
 * envelope minus `id` and `at`, which are columns. Envelopes never carry a profile's sensitive
 * fields, so the log holds no plaintext PII.
 */
export const Event = defineEntity({
  name: 'Event',
  properties: {
    id: p.uuid().primary(),
    environment: () => p.manyToOne(Environment),
    profileId: p.uuid().nullable(),
    // Byte order, so that a type prefix (`like 'connection.synced.%'`) is a range of the (environment, type) index.
    type: p.text().collation('C'),
    at: p.datetime(),
    payload: p.json<EventPayload>(),
  },
  indexes: [
    // The environment's log in id (time) order, `since`/`until` as a range of it (ids are time-ordered):
    // an index on `at` as well would tempt the planner, which multiplies the two bounds' selectivities,
    // into reading a whole time range to sort it.
    { properties: ['environment', 'id'] },
    { properties: ['environment', 'type'] },
    // A profile's events in log order: `?profileId=` pages from its cursor, whatever the rest of the log holds.
    { properties: ['profileId', 'id'] },
  ],
  // Live updates: each committed event of a profile is announced as `<profile uuid>:<event uuid>`,
  // far under NOTIFY's 8000-byte limit (listeners load the event). NOTIFY is delivered at commit,
  // never for a transaction that rolls back. See docs/decisions/live-updates-postgres-notify.md.
  triggers: [
    {
      name: 'event_announced',
      timing: 'after',
      events: ['insert'],
      body: "if new.profile_id is not null then perform pg_notify('tributary_events', new.profile_id::text || ':' || new.id::text); end if; return null;",
    },
  ],
});

export type EventEntity = InstanceType<typeof Event.class>;

export interface EventPayload {
  type: string;
  profile: { id: string; uuid: string; metadata: Record<string, unknown> | null } | null;
  record: Record<string, unknown>;
  metadata: Record<string, unknown>;
}
