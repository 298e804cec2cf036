import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
import { uuidv7Edge } from '../../lib/ids.ts';
import { Event, type EventEntity } from './event.entity.ts';

/** Which of an environment's events the log lists: a type or a prefix of whole segments, a profile, an instant range [since, until). */
export interface EventFilter {
  environmentId: string;
  type?: string;
  profileId?: string;
  since?: Date;
  until?: Date;
}

/**
 * How far an event's id may stray from its `at`: both are taken as it is recorded, but a burst of
 * more than 4,096 ids in a millisecond moves the id's clock ahead. A second is far wider than that.
 */
const ID_CLOCK_SLACK_MS = 1000;

/** The filter as a condition on the event table. */
export function eventWhere({ environmentId, type, profileId, since, until }: EventFilter): FilterQuery<EventEntity> {
  const at = { ...(since ? { $gte: since } : {}), ...(until ? { $lt: until } : {}) };
  // The same range as an id range too (ids are uuidv7, time-ordered), so an index in id order reads
  // only its part of the log; `at` keeps the answer exact.
  const id = {
    ...(since ? { $gte: uuidv7Edge(since.getTime() - ID_CLOCK_SLACK_MS, 'first') } : {}),
    ...(until ? { $lte: uuidv7Edge(until.getTime() + ID_CLOCK_SLACK_MS, 'last') } : {}),
  };
  return {
    environment: environmentId,
    // The type or its prefix of whole segments, as one range: the type is in byte order ("C"), '/' is
    // the byte after '.', and no type holds a byte below '.' (letters, '_' and '.': the contract's
    // EventType, checked by test/unit/event-types.test.ts), so [type, type + '/') holds exactly the
    // type and the types under it. One range the planner can estimate: it walks the log in id order
    // when the range is common, and reads the range when it is rare.
    ...(type ? { type: { $gte: type, $lt: `${type}/` } } : {}),
    ...(profileId ? { profileId } : {}),
    ...(Object.keys(at).length > 0 ? { at, id } : {}),
  };
}

/** The environment's event with this id, or null. */
export function findEvent(em: EntityManager, environmentId: string, id: string): Promise<EventEntity | null> {
  return em.findOne(Event, { id, environment: environmentId });
}

/** The statements of the event outbox; test/stores.test.ts prepares each. */
export const eventStatements = {
  // Claims and removes at once: rows another relay holds are skipped, and the removal commits only
  // with the relay's transaction (its deliveries), or the rows come back.
  takeOutbox: `delete from event_outbox where event_id in (
         select event_id from event_outbox order by event_id limit $1 for update skip locked
       ) returning event_id as "eventId"`,
};

/** Removes up to `limit` events from the outbox, oldest first, in the caller's transaction; returns their ids. */
export async function takeOutbox(tx: EntityManager, limit: number): Promise<string[]> {
  return (await run<{ eventId: string }>(tx, eventStatements.takeOutbox, [limit])).rows.map(({ eventId }) => eventId);
}

/** These events, in id order (whichever environment: the relay's). */
export function eventsByIds(em: EntityManager, ids: string[]): Promise<EventEntity[]> {
  return ids.length === 0 ? Promise.resolve([]) : em.find(Event, { id: { $in: ids } }, { orderBy: { id: 'asc' } });
}

/** The event with this id, in whichever environment, or null: for the live-update feed, which is told ids only. */
export function eventById(em: EntityManager, id: string): Promise<EventEntity | null> {
  return em.findOne(Event, { id });
}
