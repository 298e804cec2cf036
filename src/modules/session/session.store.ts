import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
import { Session, type SessionEntity } from './session.entity.ts';

/** The statements of the session table; test/stores.test.ts prepares each. */
export const sessionStatements = {
  live: `select s.profile_id as "profileId", s.expires_at as "expiresAt" from session s join profile p on p.id = s.profile_id
          where s.id = $1 and s.revoked_at is null and s.expires_at > now() and p.deleting_at is null`,
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
