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
  indexes: [{ properties: ['profile', 'createdAt'] }],
});

export type SessionEntity = InstanceType<typeof Session.class>;
