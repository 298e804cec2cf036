import type { components } from '../../../generated/rest.ts';
import { encodeId } from '../../lib/ids.ts';
import type { EventEntity } from './event.entity.ts';

type RestEvent = components['schemas']['Event'];

/** An event in its public envelope (`id`, `at`, `type`, `profile`, `record`, `metadata`), exactly as webhooks deliver it and the event log lists it. */
export function presentEvent(event: EventEntity): RestEvent {
  // The payload was written from the same presenters the contract types describe.
  const { type, profile, record, metadata } = event.payload as unknown as Pick<RestEvent, 'type' | 'profile' | 'record' | 'metadata'>;
  return { id: encodeId('event', event.id), at: event.at.toISOString(), type, profile, record, metadata };
}
