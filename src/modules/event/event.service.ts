import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from '../../errors.ts';
import { isStorableInstant } from '../../lib/dates.ts';
import { decodeId, encodeId, uuidv7 } from '../../lib/ids.ts';
import type { Metadata } from '../metadata/metadata.ts';
import { Event, type EventEntity } from './event.entity.ts';
import { countEvents, eventsAfter, lockUndispatched, type EventFilter } from './event.store.ts';

export interface EventProfile {
  id: string;
  uuid: string;
  metadata?: Metadata | null;
}

/**
 * Adds an event to the outbox in the caller's unit of work, so it commits (or not) with the change
 * that caused it. `profile` is the stored profile (uuid primary key), presented in the envelope;
 * `metadata` is the envelope's event-level data (`changes` of a successful sync).
 */
export function recordEvent(
  em: EntityManager,
  environmentId: string,
  type: string,
  profile: EventProfile | null,
  record: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
): EventEntity {
  return em.create(Event, {
    id: uuidv7(),
    environment: environmentId,
    profileId: profile?.id ?? null,
    type,
    at: new Date(),
    dispatchedAt: null,
    payload: {
      type,
      profile: profile && { id: encodeId('profile', profile.id), uuid: profile.uuid, metadata: profile.metadata ?? null },
      record,
      metadata,
    },
  });
}

/**
 * Takes up to `limit` events not yet fanned out, oldest first, and marks them dispatched at `at`, in
 * the caller's transaction (the relay writes their deliveries in it). Rows another relay holds are
 * skipped, so instances relay side by side without taking an event twice.
 */
export async function takeUndispatched(tx: EntityManager, limit: number, at: Date): Promise<EventEntity[]> {
  const events = await lockUndispatched(tx, limit);
  for (const event of events) event.dispatchedAt = at;
  return events;
}

/** What GET /v1/events asks of the log: public ids, instants as sent. */
export interface EventLogQuery {
  type?: string;
  profileId?: string;
  since?: string;
  until?: string;
  after?: string;
}

export interface EventLogPage {
  items: EventEntity[];
  /** Events in the whole filtered log. */
  total: number;
  /** Where the last item sits in the whole filtered log (0 without items). */
  position: number;
  /** The last item, when more events follow it. */
  nextAfter: string | undefined;
}

/** Up to `limit` events of the environment's filtered log after `query.after`, in id order. */
export async function eventLogPage(em: EntityManager, environmentId: string, query: EventLogQuery, limit: number): Promise<EventLogPage> {
  const filter = eventFilter(environmentId, query);
  const afterId = query.after ? (decodeId('event', query.after) ?? NO_ID) : undefined;
  const [rows, total] = await Promise.all([eventsAfter(em, filter, afterId, limit + 1), countEvents(em, filter)]);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const position = last ? await countEvents(em, filter, last.id) : 0;
  return { items, total, position, nextAfter: rows.length > limit ? last?.id : undefined };
}

/** An id no row has: what an id that does not decode matches. */
const NO_ID = '00000000-0000-0000-0000-000000000000';

/** The log's filter, always scoped to the environment. A bound PostgreSQL cannot compare with is a 422. */
function eventFilter(environmentId: string, query: EventLogQuery): EventFilter {
  const since = query.since ? new Date(query.since) : undefined;
  const until = query.until ? new Date(query.until) : undefined;
  const unusable = Object.entries({ since, until }).filter(([, instant]) => instant && !isStorableInstant(instant));
  if (unusable.length > 0) throw new ValidationError(unusable.map(([name]) => ({ path: [name], message: `${name} must be a real instant from 0001-01-01 to 9999-12-31 UTC` })));
  const profileId = query.profileId === undefined ? undefined : (decodeId('profile', query.profileId) ?? NO_ID);
  return { environmentId, type: query.type, profileId, since, until };
}
