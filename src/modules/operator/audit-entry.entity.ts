import { defineEntity, p } from '@mikro-orm/core';

/** How an audited action was answered (the contract's AuditEntry.outcome). */
export const AUDIT_OUTCOMES = ['SUCCEEDED', 'REFUSED', 'FAILED'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/**
 * The operators' audit log: one row per state-changing request made with a console session and per
 * sign-in attempt. Append-only (a trigger refuses UPDATE and DELETE), range-partitioned by its
 * uuidv7 id a week at a time and kept AUDIT_RETENTION_DAYS by dropping whole weeks
 * (docs/decisions/operators-audit-log.md). No foreign keys: it outlives what it names, and a
 * partitioned log cannot be pointed at. `email` is the operator's then, or the one a sign-in gave.
 */
export const AuditEntry = defineEntity({
  name: 'AuditEntry',
  tableName: 'operator_audit',
  properties: {
    id: p.uuid().primary(),
    at: p.datetime(),
    operatorId: p.uuid().nullable(),
    email: p.text().nullable(),
    environmentId: p.uuid().nullable(),
    action: p.text(),
    targetId: p.text().nullable(),
    clientAddress: p.text(),
    userAgent: p.text().nullable(),
    outcome: p.enum(AUDIT_OUTCOMES),
    status: p.integer(),
  },
  // An environment's log in id order (the contract's list), and sign-ins (no environment) beside it.
  indexes: [{ properties: ['environmentId', 'id'] }],
  triggers: [
    {
      name: 'operator_audit_append_only',
      timing: 'before',
      events: ['update', 'delete'],
      body: "raise exception 'operator_audit is append-only'; return null;",
    },
  ],
});

export type AuditEntryEntity = InstanceType<typeof AuditEntry.class>;
