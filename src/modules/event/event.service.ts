import type { EntityManager } from '@mikro-orm/postgresql';
import { idOrderPage, type IdOrderPage } from '../../db/list-page.ts';
import { assertCursorKept } from '../../db/log-retention.ts';
import { ValidationError } from '../../errors.ts';
import { isStorableInstant } from '../../lib/dates.ts';
import { decodeId, encodeId, uuidv7 } from '../../lib/ids.ts';
import type { Metadata } from '../metadata/metadata.ts';
import { EventOutbox } from './event-outbox.entity.ts';
import { Event, type EventEntity } from './event.entity.ts';
import { eventsByIds, eventWhere, takeOutbox, type EventFilter } from './event.store.ts';

export interface EventProfile {
  id: string;
  uuid: string;
  metadata?: Metadata | null;
}

/**
 * Adds an event to the log and to the outbox in the caller's unit of work, so it commits (or not)
 * with the change that caused it. `profile` is the stored profile (uuid primary key), presented in
 * the envelope; `metadata` is the envelope's event-level data (`changes` of a successful sync).
 */
export function recordEvent(
  em: EntityManager,
  environmentId: string,
  type: string,
  profile: EventProfile | null,
  record: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
): EventEntity {
  const event = logEvent(em, environmentId, type, profile, record, metadata);
  em.create(EventOutbox, { eventId: event.id });
  return event;
}

/**
 * Adds an event to the log only, in the caller's unit of work: the relay never fans it out to the
 * subscriptions (a test event, whose one delivery the caller writes itself).
 */
export function logEvent(
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
    payload: {
      type,
      profile: profile && { id: encodeId('profile', profile.id), uuid: profile.uuid, metadata: profile.metadata ?? null },
      record,
      metadata,
    },
  });
}

/**
 * Takes up to `limit` events out of the outbox (not yet fanned out), oldest first, in the caller's
 * transaction (the relay writes their deliveries in it: they leave the outbox only if it commits).
 * Rows another relay holds are skipped, so instances relay side by side without taking an event twice.
 */
export async function takeUndispatched(tx: EntityManager, limit: number): Promise<EventEntity[]> {
  return eventsByIds(tx, await takeOutbox(tx, limit));
}

/** What GET /v1/events asks of the log: public ids, instants as sent. */
export interface EventLogQuery {
  type?: string;
  profileId?: string;
  since?: string;
  until?: string;
  after?: string;
}

/**
 * Up to `limit` events of the environment's filtered log after `query.after`, in id order, with the
 * bounded counts of the filtered log; a cursor older than what the log keeps (`retentionDays`) is a 410.
 */
export async function eventLogPage(em: EntityManager, environmentId: string, query: EventLogQuery, limit: number, retentionDays: number): Promise<IdOrderPage<EventEntity>> {
  const afterId = query.after ? (decodeId('event', query.after) ?? NO_ID) : undefined;
  const where = eventWhere(eventFilter(environmentId, query));
  if (afterId && afterId !== NO_ID) await assertCursorKept(em, 'event', afterId, retentionDays);
  return idOrderPage(em, Event, where, { afterId }, limit);
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
