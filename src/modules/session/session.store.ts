import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
import { uuidv7Edge } from '../../lib/ids.ts';
import { EVERY_SESSION_BEFORE } from './removed-session.entity.ts';
import { EXPIRY_MOVED, Session, type SessionEntity } from './session.entity.ts';

/** The statements of the session table; test/stores.test.ts prepares each. */
export const sessionStatements = {
  live: `select s.profile_id as "profileId", s.expires_at as "expiresAt" from session s join profile p on p.id = s.profile_id
          where s.id = $1 and s.revoked_at is null and s.expires_at > now() and p.deleting_at is null`,
  /**
   * The sessions issued after $1 that `live` would refuse at $2 (revoked, expiry moved before it,
   * profile being deleted), and those issued after $1 whose rows were removed (their tombstones, with
   * `issuedAt` for the one that stands for every session issued before it): a page of $4 after id $3
   * (from the first when null).
   * Each way of ending is a branch of its own, read through an index that holds only what ended that
   * way (revoked; expiry moved, as EXPIRY_MOVED; profiles being deleted, then their sessions by
   * `profile, created_at`; tombstones by `issued_at`) and cut to the page before the union, so a page
   * costs what ended in the last lifetime, not the sessions issued in it. The branches exclude each
   * other (a revoked session is not read again as moved or deleting), so no id comes twice.
   * EXPIRY_MOVED loses nothing while $2 is at most a lifetime after $1 (as the load asks): a session
   * issued after $1 and expiring by $2 expires within $2 − $1 of its issue.
   */
  ended: `select id, issued_at as "issuedAt" from (
            (select id, null::timestamptz as issued_at from session
              where revoked_at is not null and created_at > $1 and ($3::uuid is null or id > $3) order by id limit $4)
            union all
            (select id, null from session
              where ${EXPIRY_MOVED} and revoked_at is null and expires_at <= $2 and created_at > $1 and ($3::uuid is null or id > $3) order by id limit $4)
            union all
            (select s.id, null from profile p join session s on s.profile_id = p.id
              where p.deleting_at is not null and s.created_at > $1 and s.revoked_at is null and s.expires_at > $2 and ($3::uuid is null or s.id > $3) order by s.id limit $4)
            union all
            (select id, issued_at from removed_session where issued_at > $1 and ($3::uuid is null or id > $3) order by id limit $4)) ended
          order by id limit $4`,
  /**
   * A few tombstones no token can need any more (issued before $1), so the table stays a lifetime's
   * removals. It runs in the issuing transaction: concurrent issuers skip each other's rows rather
   * than wait for them until commit.
   */
  pruneRemoved: `delete from removed_session where id in (select id from removed_session where issued_at < $1 limit $2 for update skip locked)`,
  /**
   * A batch of $2 sessions that expired before $1, oldest first, for the retention job; rows another
   * deleter holds are skipped, not waited for. A session's id is a UUIDv7 made when it was issued,
   * before it expired, so $3, the first id of $1's millisecond, bounds the primary key's range to
   * read: no index of its own, which the ended-sessions load's branches would otherwise be planned on.
   */
  deleteExpired: `delete from session where id in (select id from session where id < $3 and expires_at < $1 order by id limit $2 for update skip locked)`,
};

/** What a credential check remembers of a live session: whose it is (a profile's revocation names it) and until when it holds. */
export interface LiveSessionTerms {
  profileId: string;
  expiresAt: Date;
}

/** A session token's terms while it is still good (not revoked, not expired, its profile not being deleted), else undefined. */
export async function liveSessionTerms(em: EntityManager, sessionId: string): Promise<LiveSessionTerms | undefined> {
  const [row] = (await run<{ profileId: string; expiresAt: Date | string }>(em, sessionStatements.live, [sessionId])).rows;
  return row && { profileId: row.profileId, expiresAt: new Date(row.expiresAt) };
}

/** The sessions that ended before their tokens' expiry, among those issued after a time. */
export interface EndedSessionIds {
  /** Their ids' 16 bytes each, in ascending order (PostgreSQL orders uuids bytewise): 16 bytes a session, not a string and a set entry (~85). */
  ids: Buffer;
  /** Set when every session issued before it may have ended without a trace (a TRUNCATE, or removals before tombstones were kept). */
  allIssuedBefore: Date | undefined;
}

/**
 * Ended sessions are read this many at a time, so no one result is large (~3 MB of rows, dropped
 * once packed). Each page reads every session that ended in the last lifetime (the indexes are by
 * issue time, the pages by id) and sorts it per branch (~23 ms for 41,000 revoked among 200,000
 * issued), so pages are not smaller.
 */
const ENDED_PAGE = 20_000;

/** A row of `sessionStatements.ended`. */
interface EndedRow {
  id: string;
  issuedAt: Date | string | null;
}

/**
 * The sessions issued after `issuedAfter` that ended before their tokens' expiry (as
 * `sessionStatements.ended`), judged at `now`: a token issued after both `issuedAfter` and
 * `allIssuedBefore` whose session is not among them is live. Page by page, each page in a snapshot of
 * its own: what ends after the first page's snapshot is the revocation feed's to announce.
 */
export async function endedSessionIds(em: EntityManager, issuedAfter: Date, now: Date): Promise<EndedSessionIds> {
  const pages: Buffer[] = [];
  let allIssuedBefore: Date | undefined;
  let after: string | null = null;
  for (;;) {
    const { rows: page }: { rows: EndedRow[] } = await run<EndedRow>(em, sessionStatements.ended, [issuedAfter, now, after, ENDED_PAGE]);
    const ids = Buffer.alloc(page.length * 16);
    let length = 0;
    for (const row of page) {
      if (row.id === EVERY_SESSION_BEFORE) allIssuedBefore = new Date(row.issuedAt!);
      else length += ids.write(row.id.replaceAll('-', ''), length, 'hex');
    }
    pages.push(ids.subarray(0, length));
    if (page.length < ENDED_PAGE) return { ids: Buffer.concat(pages), allIssuedBefore };
    after = page.at(-1)!.id;
  }
}

/** The key holdsSession searches for: every session token's request asks, so it is one buffer written over each time. */
const sought = Buffer.alloc(16);

/**
 * Whether `ids` (as `EndedSessionIds.ids`) holds the session `id`. Asked on every request with a
 * session token: the binary search compares bytes in place (Buffer's ranged `compare` and a key
 * buffer per call cost ~5 KB of garbage a request).
 */
export function holdsSession(ids: Buffer, id: string): boolean {
  if (sought.write(id.replaceAll('-', ''), 'hex') !== 16) throw new RangeError(`${id} is not a uuid`);
  let low = 0;
  let high = ids.length / 16 - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = compareAt(ids, middle * 16);
    if (order === 0) return true;
    if (order > 0) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** The order of `sought` against the 16 bytes of `ids` from `start`: negative, zero or positive. */
function compareAt(ids: Buffer, start: number): number {
  for (let i = 0; i < 16; i++) {
    const difference = sought[i]! - ids[start + i]!;
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Prunes up to `limit` tombstones of sessions issued before `issuedBefore` (their tokens have all expired); resolves to how many. */
export async function pruneRemovedSessions(em: EntityManager, issuedBefore: Date, limit = 100): Promise<number> {
  return (await run(em, sessionStatements.pruneRemoved, [issuedBefore, limit])).count;
}

/** Deletes up to `limit` sessions that expired before `expiredBefore`, oldest first; resolves to how many. */
export async function deleteExpiredSessions(em: EntityManager, expiredBefore: Date, limit: number): Promise<number> {
  return (await run(em, sessionStatements.deleteExpired, [expiredBefore, limit, uuidv7Edge(expiredBefore.getTime(), 'first')])).count;
}

/** Whether a session token is still good (as `liveSessionTerms`). */
export async function sessionIsLive(em: EntityManager, sessionId: string): Promise<boolean> {
  return (await liveSessionTerms(em, sessionId)) !== undefined;
}

/** When the profile's unrevoked sessions issued after `since` were issued, oldest first (the issuing limit counts them). */
export async function activeSessionTimes(em: EntityManager, profileId: string, since: Date): Promise<Date[]> {
  const sessions = await em.find(Session, { profile: profileId, revokedAt: null, createdAt: { $gt: since } }, { fields: ['createdAt'], orderBy: { createdAt: 'asc' } });
  return sessions.map((session) => session.createdAt);
}

/** The environment's session, with its profile, while it is live (as `sessionIsLive`); null otherwise. */
export function liveSession(em: EntityManager, environmentId: string, sessionId: string): Promise<SessionEntity | null> {
  return em.findOne(
    Session,
    { id: sessionId, environment: environmentId, revokedAt: null, expiresAt: { $gt: new Date() }, profile: { deletingAt: null } },
    { populate: ['profile'] },
  );
}

/** Revokes the environment's session, unless it is revoked already. */
export async function revokeSession(em: EntityManager, environmentId: string, sessionId: string): Promise<void> {
  await em.nativeUpdate(Session, { id: sessionId, environment: environmentId, revokedAt: null }, { revokedAt: new Date() });
}
