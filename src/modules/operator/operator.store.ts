import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
import { uuidv7Edge } from '../../lib/ids.ts';
import { Operator, OperatorGrant, type OperatorEntity, type OperatorGrantEntity, type OperatorRole } from './operator.entity.ts';

/** The statements of the operator tables; test/stores.test.ts prepares each. */
export const operatorStatements = {
  /**
   * The console session whose token hashes to $1, while it holds at $3 (not ended, its operator not
   * disabled, within its absolute lifetime and idle lifetime $4 milliseconds), with the operator's
   * highest role in environment $2 (its own row, or the every-environment row when the environment
   * exists), null when they have none there or $2 is null.
   */
  liveSession: `select s.id as "sessionId", s.operator_id as "operatorId", o.email, s.last_seen_at as "lastSeenAt", s.expires_at as "expiresAt",
            (o.totp_required and o.totp_secret_encrypted is null) as "totpEnrolmentRequired",
            (select r.role from operator_role r
              where r.operator_id = o.id and (r.environment_id = $2 or (r.environment_id is null and exists (select 1 from environment e where e.id = $2)))
              order by case r.role when 'OWNER' then 0 when 'DEVELOPER' then 1 else 2 end limit 1) as role
       from operator_session s join operator o on o.id = s.operator_id
      where s.token_hash = $1 and s.ended_at is null and o.disabled_at is null
        and s.expires_at > $3 and s.last_seen_at > $3::timestamptz - make_interval(secs => $4::double precision / 1000)`,
  /** Moves a session's last request to $2, once it is at least a minute old (a burst of requests writes once). */
  touchSession: `update operator_session set last_seen_at = $2 where id = $1 and last_seen_at < $2::timestamptz - interval '1 minute'`,
  /** Ends session $1 at $2. */
  endSession: `update operator_session set ended_at = $2 where id = $1 and ended_at is null`,
  /** Ends every live session of operator $1 at $2. */
  endSessionsOf: `update operator_session set ended_at = $2 where operator_id = $1 and ended_at is null`,
  /**
   * A batch of $2 console sessions that expired before $1 (their absolute end; an ended or idle one
   * too, as every session reaches it), oldest first, for the session retention job; rows another
   * deleter holds are skipped. A session's id is a UUIDv7 made at sign-in, before it expired, so $3,
   * the first id of $1's millisecond, bounds the primary key's range to read.
   */
  deleteExpiredSessions: `delete from operator_session where id in (select id from operator_session where id < $3 and expires_at < $1 order by id limit $2 for update skip locked)`,
};

/** A console session while it holds, as the credential check reads it. */
export interface LiveOperatorSession {
  sessionId: string;
  operatorId: string;
  email: string;
  lastSeenAt: Date;
  expiresAt: Date;
  totpEnrolmentRequired: boolean;
  role: OperatorRole | null;
}

export async function liveOperatorSession(em: EntityManager, tokenHash: string, environmentId: string | null, now: Date, idleMs: number): Promise<LiveOperatorSession | undefined> {
  const [row] = (await run<LiveOperatorSession>(em, operatorStatements.liveSession, [tokenHash, environmentId, now, idleMs])).rows;
  return row && { ...row, lastSeenAt: new Date(row.lastSeenAt), expiresAt: new Date(row.expiresAt) };
}

export async function touchOperatorSession(em: EntityManager, sessionId: string, now: Date): Promise<void> {
  await run(em, operatorStatements.touchSession, [sessionId, now]);
}

export async function endOperatorSession(em: EntityManager, sessionId: string, now: Date): Promise<void> {
  await run(em, operatorStatements.endSession, [sessionId, now]);
}

/** Deletes up to `limit` console sessions that expired before `expiredBefore`, oldest first; resolves to how many. */
export async function deleteExpiredOperatorSessions(em: EntityManager, expiredBefore: Date, limit: number): Promise<number> {
  return (await run(em, operatorStatements.deleteExpiredSessions, [expiredBefore, limit, uuidv7Edge(expiredBefore.getTime(), 'first')])).count;
}

export async function endOperatorSessions(em: EntityManager, operatorId: string, now: Date): Promise<void> {
  await run(em, operatorStatements.endSessionsOf, [operatorId, now]);
}

export function operatorByEmail(em: EntityManager, email: string): Promise<OperatorEntity | null> {
  return em.findOne(Operator, { email });
}

export function operatorById(em: EntityManager, id: string): Promise<OperatorEntity | null> {
  return em.findOne(Operator, { id });
}

export async function hasOperators(em: EntityManager): Promise<boolean> {
  return (await em.count(Operator, {})) > 0;
}

/** Every operator, oldest first. */
export function allOperators(em: EntityManager): Promise<OperatorEntity[]> {
  return em.find(Operator, {}, { orderBy: { id: 'asc' } });
}

/** One page of the operators with a role in the environment (their own, or an every-environment one), oldest first, and how many there are. */
export async function operatorsOfEnvironment(em: EntityManager, environmentId: string, page: number, limit: number): Promise<{ items: OperatorEntity[]; total: number }> {
  // Operators are people: a few per environment, so their ids are read first rather than joined.
  const grants = await em.find(OperatorGrant, { $or: [{ environment: environmentId }, { environment: null }] }, { fields: ['operator'] });
  const ids = [...new Set(grants.map((grant) => grant.operator.id))];
  const [items, total] = await em.findAndCount(Operator, { id: { $in: ids } }, { orderBy: { id: 'asc' }, limit, offset: (page - 1) * limit });
  return { items, total };
}

/** The roles of these operators, by operator id. */
export async function grantsOf(em: EntityManager, operatorIds: string[]): Promise<Map<string, OperatorGrantEntity[]>> {
  const grants = await em.find(OperatorGrant, { operator: { $in: operatorIds } }, { orderBy: { id: 'asc' } });
  const byOperator = new Map<string, OperatorGrantEntity[]>(operatorIds.map((id) => [id, []]));
  for (const grant of grants) byOperator.get(grant.operator.id)?.push(grant);
  return byOperator;
}

/** The operator's row for this environment (null: the every-environment row), or null. */
export function grantOf(em: EntityManager, operatorId: string, environmentId: string | null): Promise<OperatorGrantEntity | null> {
  return em.findOne(OperatorGrant, { operator: operatorId, environment: environmentId });
}
