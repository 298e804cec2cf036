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
