import { defineEntity, p } from '@mikro-orm/core';
import { Environment } from '../environment/environment.entity.ts';
import { Profile } from '../profile/profile.entity.ts';
import { SESSION_LIFETIME_MS } from './session-token.ts';

/** A duration as PostgreSQL prints an interval of whole seconds (`24:00:00`), so the schema diff reads the index predicate below as unchanged. */
function clock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60].map((part) => String(part).padStart(2, '0')).join(':');
}

/**
 * A session whose `expires_at` is earlier than issuing set it (only a hand edit moves it; issuing
 * writes `created_at` + SESSION_LIFETIME_MS). The predicate of a partial index, and the ended-sessions
 * load repeats it word for word so the planner can use that index. `timestamptz + interval` is not
 * immutable (it depends on the time zone), so the predicate subtracts instead. Were the lifetime
 * changed, this text changes, `npm run migrations:check` fails until a migration rebuilds the index,
 * and the load and the index change together.
 */
export const EXPIRY_MOVED = `expires_at - created_at < '${clock(SESSION_LIFETIME_MS)}'::interval`;

/**
 * An issued session token. The token itself is a signed JWT that is never stored; this row makes it
 * revocable and counts toward the profile's issuing limit. Removed with its profile.
 */
export const Session = defineEntity({
  name: 'Session',
  properties: {
    id: p.uuid().primary(),
    environment: () => p.manyToOne(Environment),
    profile: () => p.manyToOne(Profile).deleteRule('cascade'),
    apiVersion: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
  },
  // Each API instance loads the sessions that ended early among those issued in the last token lifetime
  // (docs/decisions/credentials-sessions-ended-in-memory.md): partial indexes hold only the revoked and
  // the moved-expiry ones, so the load reads what ended rather than a day of sessions (a profile marked
  // deleting is found through profile_deleting_index and `profile, createdAt`).
  indexes: [
    { properties: ['profile', 'createdAt'] },
    { name: 'session_revoked_created_at_index', properties: ['createdAt'], where: 'revoked_at is not null' },
    { name: 'session_expiry_moved_created_at_index', properties: ['createdAt'], where: EXPIRY_MOVED },
  ],
  // The revocation feed (docs/decisions/credentials-revocation-feed.md): a change that can turn a
  // cached check's answer announces the session's id on commit, so every API instance forgets it.
  // A removed row leaves a `removed_session` tombstone, so an instance that starts later knows it
  // ended too (docs/decisions/credentials-sessions-ended-in-memory.md). TRUNCATE, which names no row,
  // moves the tombstone that stands for every session issued before it (EVERY_SESSION_BEFORE): that
  // trigger, `session_truncated`, is created by Migration20261126193742 and not declared here, because
  // the schema diff reads triggers from information_schema.triggers, which lists no TRUNCATE trigger
  // (declared, it would be created again by every migration the diff writes). A session issued over a
  // lifetime ago leaves no tombstone and needs no announcement: its tokens have all expired, and the
  // ended-sessions load reads only the last lifetime's (this is what the retention job deletes).
  triggers: [
    {
      name: 'session_revoked',
      timing: 'after',
      events: ['update'],
      body: "if old.revoked_at is distinct from new.revoked_at or old.expires_at is distinct from new.expires_at or old.profile_id is distinct from new.profile_id or old.environment_id is distinct from new.environment_id then perform pg_notify('tributary_revocations', 's:' || old.id::text); end if; return null;",
    },
    {
      name: 'session_removed',
      timing: 'after',
      events: ['delete'],
      body: `if old.created_at > now() - '${clock(SESSION_LIFETIME_MS)}'::interval then insert into removed_session (id, issued_at) values (old.id, old.created_at) on conflict do nothing; perform pg_notify('tributary_revocations', 's:' || old.id::text); end if; return null;`,
    },
  ],
});

export type SessionEntity = InstanceType<typeof Session.class>;
