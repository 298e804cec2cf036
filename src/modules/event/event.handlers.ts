import { notFound } from '../../errors.ts';
import { decodeId, encodeId } from '../../lib/ids.ts';
import { pageHeaders } from '../../api-kit/pagination.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import { presentEvent } from './event.presenter.ts';
import { eventLogPage } from './event.service.ts';
import { findEvent } from './event.store.ts';

/** REST handlers for the event log (/v1/events, API key): the same envelopes webhooks deliver, kept `retentionDays` (LOG_RETENTION_DAYS). */
export function eventHandlers({ retentionDays }: { retentionDays: number }): Handlers<'listEvents' | 'getEvent'> {
  return {
    async listEvents({ query, credential, em }) {
      const limit = query.limit ?? 25;
      const { items, total, page, nextAfter } = await eventLogPage(em, credential.environmentId, query, limit, retentionDays);
      return { status: 200, body: items.map(presentEvent), headers: pageHeaders(page, limit, total, items.length, nextAfter && encodeId('event', nextAfter)) };
    },
    async getEvent({ params, credential, em }) {
      const id = decodeId('event', params.eventId);
      const event = id && (await findEvent(em, credential.environmentId, id));
      if (!event) throw notFound('Event');
      return { status: 200, body: presentEvent(event) };
    },
  };
}
