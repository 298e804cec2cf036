import type { components } from '../../../generated/rest.ts';
import { encodeId } from '../../lib/ids.ts';
import type { AuditRow } from './audit.store.ts';
import type { OperatorWithGrants } from './operator.service.ts';

type OperatorBody = components['schemas']['Operator'];
type AuditEntryBody = components['schemas']['AuditEntry'];

export function presentOperator({ operator, grants }: OperatorWithGrants): OperatorBody {
  return {
    id: encodeId('operator', operator.id),
    email: operator.email,
    disabled: operator.disabledAt !== null,
    totpEnabled: operator.totpSecretEncrypted !== null,
    totpRequired: operator.totpRequired,
    roles: grants.map((grant) => ({ environmentId: grant.environment ? encodeId('environment', grant.environment.id) : null, role: grant.role })),
    createdAt: operator.createdAt.toISOString(),
  };
}

export function presentAuditEntry(entry: AuditRow): AuditEntryBody {
  return {
    id: encodeId('auditEntry', entry.id),
    at: entry.at.toISOString(),
    operatorId: entry.operatorId && encodeId('operator', entry.operatorId),
    email: entry.email,
    environmentId: entry.environmentId && encodeId('environment', entry.environmentId),
    action: entry.action,
    targetId: entry.targetId,
    clientAddress: entry.clientAddress,
    userAgent: entry.userAgent,
    outcome: entry.outcome,
    status: entry.status,
  };
}
