import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
import { uuidv7 } from '../../lib/ids.ts';

/** The statements of the link_state table; test/services/stores.test.ts prepares each. */
export const linkStateStatements = {
  insert: `insert into link_state (id, environment_id, profile_id, session_id, state_hash, browser_hash, provider, institution_id, connection_id, products, created_at, expires_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, now(), $11)`,
  // A few at a time, so making a link never waits on a large delete.
  prune: `delete from link_state where id in (select id from link_state where expires_at < now() - interval '1 day' limit 100)`,
  byState: `select id, environment_id, profile_id, session_id, browser_hash, provider, institution_id, connection_id, products, expires_at, used_at
            from link_state where state_hash = $1`,
  // Consumed once: of two callbacks racing with the same state, one updates the row.
  consume: `update link_state set used_at = now() where id = $1 and profile_id = $2 and used_at is null and expires_at > now() returning id`,
};

/** A redirect link in progress, as the callback and the sandbox bank read it. */
export interface PendingLink {
  id: string;
  environmentId: string;
  profileId: string;
  sessionId: string;
  browserHash: string;
  provider: string;
  institutionId: string | null;
  connectionId: string | null;
  products: string[] | null;
  expiresAt: Date;
  usedAt: Date | null;
}

/** A link state to record: a pending link's fields, and the hash of the state its callback brings back. */
export type NewLinkState = Omit<PendingLink, 'id' | 'usedAt'> & { stateHash: string };

/** Records a new link state (and prunes a few that expired a day ago). */
export async function insertLinkState(em: EntityManager, state: NewLinkState): Promise<void> {
  await run(em, linkStateStatements.prune);
  await run(em, linkStateStatements.insert, [
    uuidv7(),
    state.environmentId,
    state.profileId,
    state.sessionId,
    state.stateHash,
    state.browserHash,
    state.provider,
    state.institutionId,
    state.connectionId,
    state.products === null ? null : JSON.stringify(state.products),
    state.expiresAt,
  ]);
}

/** The link whose state hashes to `stateHash`, used or not, expired or not; null when none. */
export async function linkByState(em: EntityManager, stateHash: string): Promise<PendingLink | null> {
  const [row] = (
    await run<{
      id: string;
      environment_id: string;
      profile_id: string;
      session_id: string;
      browser_hash: string;
      provider: string;
      institution_id: string | null;
      connection_id: string | null;
      products: string[] | null;
      expires_at: Date;
      used_at: Date | null;
    }>(em, linkStateStatements.byState, [stateHash])
  ).rows;
  if (!row) return null;
  return {
    id: row.id,
    environmentId: row.environment_id,
    profileId: row.profile_id,
    sessionId: row.session_id,
    browserHash: row.browser_hash,
    provider: row.provider,
    institutionId: row.institution_id,
    connectionId: row.connection_id,
    products: row.products,
    expiresAt: new Date(row.expires_at),
    usedAt: row.used_at === null ? null : new Date(row.used_at),
  };
}

/** Marks the profile's link used; false when it was used already or has expired (nothing changes then). */
export async function consumeLink(em: EntityManager, link: { id: string; profileId: string }): Promise<boolean> {
  return (await run(em, linkStateStatements.consume, [link.id, link.profileId])).count === 1;
}
