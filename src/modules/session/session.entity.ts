import { defineEntity, p } from '@mikro-orm/core';
import { Environment } from '../environment/environment.entity.ts';
import { Profile } from '../profile/profile.entity.ts';

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
  // `created_at` bounds which ended sessions an API instance loads (those whose tokens can be unexpired).
  indexes: [{ properties: ['profile', 'createdAt'] }, { properties: ['createdAt'] }],
  // The revocation feed (docs/decisions/credentials-revocation-feed.md): a change that can turn a
  // cached check's answer announces the session's id on commit, so every API instance forgets it.
  // A removed row leaves a `removed_session` tombstone, so an instance that starts later knows it
  // ended too (docs/decisions/credentials-sessions-ended-in-memory.md). TRUNCATE, which names no row,
  // moves the tombstone that stands for every session issued before it (EVERY_SESSION_BEFORE): that
  // trigger, `session_truncated`, is created by Migration20261126193742 and not declared here, because
  // the schema diff reads triggers from information_schema.triggers, which lists no TRUNCATE trigger
  // (declared, it would be created again by every migration the diff writes).
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
      body: "insert into removed_session (id, issued_at) values (old.id, old.created_at) on conflict do nothing; perform pg_notify('tributary_revocations', 's:' || old.id::text); return null;",
    },
  ],
});

export type SessionEntity = InstanceType<typeof Session.class>;
