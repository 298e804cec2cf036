import { defineEntity, p } from '@mikro-orm/core';
import { Environment } from './environment.entity.ts';

export const API_KEY_GENERATIONS = ['CURRENT', 'LEGACY'] as const;
export type ApiKeyGeneration = (typeof API_KEY_GENERATIONS)[number];

/**
 * A server-to-server secret. Only the SHA-256 of the secret is stored (the secret is 256 random bits,
 * so a slow hash adds nothing); `lastFour` lets an operator tell keys apart.
 */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  properties: {
    id: p.uuid().primary(),
    environment: () => p.manyToOne(Environment).index(),
    name: p.text(),
    secretHash: p.text().unique(),
    lastFour: p.text(),
    generation: p.enum(API_KEY_GENERATIONS),
    apiVersion: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
  },
  // The revocation feed (docs/decisions/credentials-revocation-feed.md): revoking, rotating or
  // changing what a credential check answers announces the key's id (never its hash) on commit.
  triggers: [
    {
      name: 'api_key_revoked',
      timing: 'after',
      events: ['update'],
      body: "if old.revoked_at is distinct from new.revoked_at or old.secret_hash is distinct from new.secret_hash or old.generation is distinct from new.generation or old.api_version is distinct from new.api_version or old.environment_id is distinct from new.environment_id then perform pg_notify('tributary_revocations', 'k:' || old.id::text); end if; return null;",
    },
    { name: 'api_key_removed', timing: 'after', events: ['delete'], body: "perform pg_notify('tributary_revocations', 'k:' || old.id::text); return null;" },
  ],
});

export type ApiKeyEntity = InstanceType<typeof ApiKey.class>;
