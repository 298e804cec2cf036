import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { encodeId, uuidv7 } from '../../lib/ids.ts';
import type { Metadata } from '../metadata/metadata.ts';
import { Event, type EventEntity } from './event.entity.ts';

export interface EventProfile {
  id: string;
  uuid: string;
  metadata?: Metadata | null;
}

/**
 * Adds an event to the outbox in the caller's unit of work, so it commits (or not) with the change
 * that caused it. `profile` is the stored profile (uuid primary key), presented in the envelope.
 */
export function recordEvent(
  em: EntityManager,
  environmentId: string,
  type: string,
  profile: EventProfile | null,
  record: Record<string, unknown>,
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
      metadata: {},
    },
  });
}

/**
 * Takes up to `limit` events not yet fanned out, oldest first, and marks them dispatched at `at`, in
 * the caller's transaction (the relay writes their deliveries in it). Rows another relay holds are
 * skipped, so instances relay side by side without taking an event twice.
 */
export async function takeUndispatched(tx: EntityManager, limit: number, at: Date): Promise<EventEntity[]> {
  const events = await tx.find(Event, { dispatchedAt: null }, { orderBy: { id: 'asc' }, limit, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
  for (const event of events) event.dispatchedAt = at;
  return events;
}

/** The environment's event with this id, or null. */
export function findEvent(em: EntityManager, environmentId: string, id: string): Promise<EventEntity | null> {
  return em.findOne(Event, { id, environment: environmentId });
}
