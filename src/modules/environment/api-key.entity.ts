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
});

export type ApiKeyEntity = InstanceType<typeof ApiKey.class>;
