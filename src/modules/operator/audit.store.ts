import type { EntityManager } from '@mikro-orm/postgresql';
import type { TimePartitionedLog } from '../../db/log-retention.ts';
import { run } from '../../db/statement.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { AuditOutcome } from './audit-entry.entity.ts';

/** The audit log's weeks; each is dropped once AUDIT_RETENTION_DAYS old (its own retention, not LOG_RETENTION_DAYS). */
export const AUDIT_TABLE = 'operator_audit';

/** The audit log as the log retention sees it, kept `retentionDays`. */
export function auditLog(retentionDays: number): TimePartitionedLog {
  return { table: AUDIT_TABLE, retentionDays };
}

/** What one audited action was, as recorded. */
export interface AuditRecord {
  at: Date;
  operatorId: string | null;
  email: string | null;
  environmentId: string | null;
  action: string;
  targetId: string | null;
  clientAddress: string;
  userAgent: string | null;
  outcome: AuditOutcome;
  status: number;
}

export interface AuditRow extends AuditRecord {
  id: string;
}

const COLUMNS = `id, at, operator_id as "operatorId", email, environment_id as "environmentId", action, target_id as "targetId",
  client_address as "clientAddress", user_agent as "userAgent", outcome, status`;

/** The statements of the audit log; test/stores.test.ts prepares each. */
export const auditStatements = {
  insert: `insert into operator_audit (id, at, operator_id, email, environment_id, action, target_id, client_address, user_agent, outcome, status)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
  /**
   * A page of $3 entries of environment $1 after id $2 (from the first when null), oldest first; with
   * $4, also the entries of no environment (sign-ins, the sessions' own operations): an
   * every-environment owner's view.
   */
  page: `select ${COLUMNS} from operator_audit
          where (environment_id = $1 or ($4 and environment_id is null)) and ($2::uuid is null or id > $2) order by id limit $3`,
};

/** Appends one entry, on its own (the action it records has been answered already). */
export async function recordAudit(em: EntityManager, entry: AuditRecord): Promise<void> {
  const { at, operatorId, email, environmentId, action, targetId, clientAddress, userAgent, outcome, status } = entry;
  await run(em, auditStatements.insert, [uuidv7(), at, operatorId, email, environmentId, action, targetId, clientAddress, userAgent, outcome, status]);
}

/** A page of environment `environmentId`'s log after `afterId`, with the entries of no environment when `withUnscoped`. */
export async function auditPage(em: EntityManager, environmentId: string, withUnscoped: boolean, afterId: string | null, limit: number): Promise<AuditRow[]> {
  const { rows } = await run<AuditRow>(em, auditStatements.page, [environmentId, afterId, limit, withUnscoped]);
  return rows.map((row) => ({ ...row, at: new Date(row.at) }));
}
