import { defineEntity, p } from '@mikro-orm/core';
import { Environment } from '../environment/environment.entity.ts';

/** What an operator may do in an environment, most first (the contract's OperatorRole). */
export const OPERATOR_ROLES = ['OWNER', 'DEVELOPER', 'VIEWER'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * A person who runs Tributary through the console (docs/decisions/operators-roles.md). `email` is
 * stored lower case and unique, so it compares case-insensitively. `passwordHash` is an Argon2id PHC
 * string (password.ts). The TOTP secret is encrypted with the field keys, bound to the row
 * (`totpSecret`); `totpPendingEncrypted` is an enrolment not yet confirmed, and `totpLastStep` the
 * last time step a code was accepted for, so a code is never accepted twice. An operator is never
 * deleted, only disabled: the audit log names them.
 */
export const Operator = defineEntity({
  name: 'Operator',
  properties: {
    id: p.uuid().primary(),
    email: p.text().unique(),
    passwordHash: p.text(),
    disabledAt: p.datetime().nullable(),
    totpSecretEncrypted: p.text().nullable(),
    totpPendingEncrypted: p.text().nullable(),
    totpLastStep: p.integer().nullable(),
    totpRequired: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type OperatorEntity = InstanceType<typeof Operator.class>;

/**
 * An operator's role in one environment, or in every environment when `environment` is null (the
 * first operator's: environments created later included). One row per operator and environment.
 */
export const OperatorGrant = defineEntity({
  name: 'OperatorGrant',
  tableName: 'operator_role',
  properties: {
    id: p.uuid().primary(),
    operator: () => p.manyToOne(Operator).deleteRule('cascade'),
    environment: () => p.manyToOne(Environment).deleteRule('cascade').nullable(),
    role: p.enum(OPERATOR_ROLES),
  },
  indexes: [{ name: 'operator_role_environment_index', properties: ['environment'] }],
  // One role per operator and environment; the every-environment row (null) counts as one value.
  uniques: [{ name: 'operator_role_operator_environment_unique', expression: 'create unique index "operator_role_operator_environment_unique" on "operator_role" ("operator_id", "environment_id") nulls not distinct' }],
});

export type OperatorGrantEntity = InstanceType<typeof OperatorGrant.class>;

/**
 * A console session. The cookie holds a random token; only its SHA-256 is stored. It holds while
 * `endedAt` is null, `expiresAt` (the absolute lifetime) is ahead and the last request
 * (`lastSeenAt`) was within the idle lifetime.
 */
export const OperatorSession = defineEntity({
  name: 'OperatorSession',
  properties: {
    id: p.uuid().primary(),
    operator: () => p.manyToOne(Operator).deleteRule('cascade'),
    tokenHash: p.text().unique(),
    createdAt: p.datetime(),
    lastSeenAt: p.datetime(),
    expiresAt: p.datetime(),
    endedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['operator'] }],
});

export type OperatorSessionEntity = InstanceType<typeof OperatorSession.class>;
