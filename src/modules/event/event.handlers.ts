import { notFound, ValidationError } from '../../errors.ts';
import type { Credential } from '../../api-kit/credential.ts';
import { isStorableInstant } from '../../lib/dates.ts';
import { decodeId, encodeId } from '../../lib/ids.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import { Event } from './event.entity.ts';
import { presentEvent } from './event.presenter.ts';
import { findEvent } from './event.service.ts';

/** REST handlers for the event log (/v1/events, API key): the same envelopes webhooks deliver. */
export function eventHandlers(): Handlers<'listEvents' | 'getEvent'> {
  return {
    async listEvents({ query, credential, em }) {
      const limit = query.limit ?? 25;
      const where = filterOf(credential, query);
      const afterId = query.after ? (decodeId('event', query.after) ?? '00000000-0000-0000-0000-000000000000') : undefined;
      const [rows, total] = await Promise.all([
        em.find(Event, { ...where, ...(afterId ? { id: { $gt: afterId } } : {}) }, { orderBy: { id: 'asc' }, limit: limit + 1 }),
        em.count(Event, where),
      ]);
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      // Where the last event returned sits in the whole filtered log, for Current-Page.
      const position = last ? await em.count(Event, { ...where, id: { $lte: last.id } }) : 0;
      return {
        status: 200,
        body: items.map(presentEvent),
        headers: {
          'Current-Page': Math.max(1, Math.ceil(position / limit)),
          'Page-Items': items.length,
          'Total-Count': total,
          'Total-Pages': Math.ceil(total / limit),
          ...(rows.length > limit && last ? { 'Next-Cursor': encodeId('event', last.id) } : {}),
        },
      };
    },
    async getEvent({ params, credential, em }) {
      const id = decodeId('event', params.eventId);
      const event = id && (await findEvent(em, credential.environmentId, id));
      if (!event) throw notFound('Event');
      return { status: 200, body: presentEvent(event) };
    },
  };
}

/** The filters of listEvents, always scoped to the caller's environment. A bound PostgreSQL cannot compare with is a 422. */
function filterOf({ environmentId }: Credential, query: { type?: string; profileId?: string; since?: string; until?: string }) {
  const since = query.since ? new Date(query.since) : undefined;
  const until = query.until ? new Date(query.until) : undefined;
  const unusable = Object.entries({ since, until }).filter(([, instant]) => instant && !isStorableInstant(instant));
  if (unusable.length > 0) throw new ValidationError(unusable.map(([name]) => ({ path: [name], message: `${name} must be a real instant from 0001-01-01 to 9999-12-31 UTC` })));
  const at = { ...(since ? { $gte: since } : {}), ...(until ? { $lt: until } : {}) };
  const profileId = query.profileId === undefined ? undefined : (decodeId('profile', query.profileId) ?? '00000000-0000-0000-0000-000000000000');
  return {
    environment: environmentId,
    ...(query.type ? { $or: [{ type: query.type }, { type: { $like: `${query.type.replaceAll('_', '\\_')}.%` } }] } : {}),
    ...(profileId ? { profileId } : {}),
    ...(Object.keys(at).length > 0 ? { at } : {}),
  };
}
