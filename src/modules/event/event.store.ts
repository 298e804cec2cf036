import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Event, type EventEntity } from './event.entity.ts';

/** Which of an environment's events the log lists: a type or a prefix of whole segments, a profile, an instant range [since, until). */
export interface EventFilter {
  environmentId: string;
  type?: string;
  profileId?: string;
  since?: Date;
  until?: Date;
}

function eventWhere({ environmentId, type, profileId, since, until }: EventFilter) {
  const at = { ...(since ? { $gte: since } : {}), ...(until ? { $lt: until } : {}) };
  return {
    environment: environmentId,
    ...(type ? { $or: [{ type }, { type: { $like: `${type.replaceAll('_', '\\_')}.%` } }] } : {}),
    ...(profileId ? { profileId } : {}),
    ...(Object.keys(at).length > 0 ? { at } : {}),
  };
}

/** Up to `limit` events of the filtered log after `afterId` (from the start without it), in id order. */
export function eventsAfter(em: EntityManager, filter: EventFilter, afterId: string | undefined, limit: number): Promise<EventEntity[]> {
  return em.find(Event, { ...eventWhere(filter), ...(afterId ? { id: { $gt: afterId } } : {}) }, { orderBy: { id: 'asc' }, limit });
}

/** How many events the filtered log holds, up to and including `upToId` when given. */
export function countEvents(em: EntityManager, filter: EventFilter, upToId?: string): Promise<number> {
  return em.count(Event, { ...eventWhere(filter), ...(upToId ? { id: { $lte: upToId } } : {}) });
}

/** The environment's event with this id, or null. */
export function findEvent(em: EntityManager, environmentId: string, id: string): Promise<EventEntity | null> {
  return em.findOne(Event, { id, environment: environmentId });
}

/** Up to `limit` events not yet fanned out, oldest first, locked; rows another transaction holds are skipped. */
export function lockUndispatched(tx: EntityManager, limit: number): Promise<EventEntity[]> {
  return tx.find(Event, { dispatchedAt: null }, { orderBy: { id: 'asc' }, limit, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
}

/** The event with this id, in whichever environment, or null: for the live-update feed, which is told ids only. */
export function eventById(em: EntityManager, id: string): Promise<EventEntity | null> {
  return em.findOne(Event, { id });
}
