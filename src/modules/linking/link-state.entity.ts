import { defineEntity, p } from '@mikro-orm/core';
import { Environment } from '../environment/environment.entity.ts';
import { Profile } from '../profile/profile.entity.ts';

/**
 * A redirect link in progress: the one-time `state` Tributary gave a provider, kept only as its
 * SHA-256, with what the callback needs to finish the link and to check it is the same end-user
 * (the session that started it, and the SHA-256 of the browser's `tributary_link` cookie).
 * `usedAt` is set once, by the callback that consumes it. Removed with its profile; rows past
 * their expiry are pruned as new ones are made.
 */
export const LinkState = defineEntity({
  name: 'LinkState',
  properties: {
    id: p.uuid().primary(),
    environment: () => p.manyToOne(Environment),
    profile: () => p.manyToOne(Profile).deleteRule('cascade'),
    sessionId: p.uuid(),
    stateHash: p.text().unique(),
    browserHash: p.text(),
    provider: p.text(),
    /** The institution the end-user picked; null for a provider that lets them pick at its own page. */
    institutionId: p.text().nullable(),
    /** Repair mode: the connection being relinked. */
    connectionId: p.uuid().nullable(),
    products: p.json<string[]>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime().index(),
    usedAt: p.datetime().nullable(),
  },
});
