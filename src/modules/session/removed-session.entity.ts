import { defineEntity, p } from '@mikro-orm/core';

/**
 * A session whose row was removed (its profile's removal cascades; an operator's DELETE or TRUNCATE),
 * kept while a token of it could still be unexpired: an API instance that starts later cannot learn of
 * a removed row from the session table, and without this would answer the token from memory
 * (docs/decisions/credentials-sessions-ended-in-memory.md). Written only by the session table's
 * triggers; rows issued over a token lifetime ago are pruned as new sessions are issued, and by the
 * hourly retention job (session-retention.ts).
 */
/** The id of the tombstone that stands for every session issued before its `issued_at`. */
export const EVERY_SESSION_BEFORE = '00000000-0000-0000-0000-000000000000';

export const RemovedSession = defineEntity({
  name: 'RemovedSession',
  properties: {
    /** The session's id; EVERY_SESSION_BEFORE stands for every session issued before its `issuedAt` (a TRUNCATE, or rows removed before tombstones were kept). */
    id: p.uuid().primary(),
    /** The session's `created_at`: its tokens were issued then, and expire within a lifetime of it. */
    issuedAt: p.datetime().index(),
  },
});
