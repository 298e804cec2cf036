import { defineEntity, p } from '@mikro-orm/core';

export const ENVIRONMENT_MODES = ['SANDBOX', 'PRODUCTION'] as const;
export type EnvironmentMode = (typeof ENVIRONMENT_MODES)[number];

/**
 * A tenant: owns API keys, profiles and webhook subscriptions. Nothing crosses environments.
 * `transactionsRefreshBeta` enables the beta `POST /v1/connections/{id}/transactions/refresh`.
 */
export const Environment = defineEntity({
  name: 'Environment',
  properties: {
    id: p.uuid().primary(),
    name: p.text(),
    mode: p.enum(ENVIRONMENT_MODES),
    transactionsRefreshBeta: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type EnvironmentEntity = InstanceType<typeof Environment.class>;
