import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';

/** The statements of the session table; test/stores.test.ts prepares each. */
export const sessionStatements = {
  live: `select exists (select 1 from session s join profile p on p.id = s.profile_id
                         where s.id = $1 and s.revoked_at is null and s.expires_at > now() and p.deleting_at is null) as live`,
};

/** Whether a session token is still good: not revoked, not expired, and its profile not being deleted. */
export async function sessionIsLive(em: EntityManager, sessionId: string): Promise<boolean> {
  return (await run<{ live: boolean }>(em, sessionStatements.live, [sessionId])).rows[0]?.live === true;
}
