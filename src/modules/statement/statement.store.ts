import type { EntityManager } from '@mikro-orm/postgresql';
import type { StatementFilter } from '../../../generated/graphql.ts';
import { pastBound, whereBuilder, type SqlWhere } from '../../db/keyset-where.ts';
import { run } from '../../db/statement.ts';
import { col, table, type ReadRow } from '../../db/table.ts';
import { decodeId, uuidv7 } from '../../lib/ids.ts';
import type { ProviderStatement } from '../../providers/provider-statements.ts';
import type { KeysetBound } from '../transaction/transaction.store.ts';
import { STATEMENT_STATUSES } from './statement.entity.ts';

/** The statement table as its SQL reads and writes it (checked against the entity by test/stores.test.ts). */
export const STATEMENT = table('statement', {
  id: col.uuid(),
  profileId: col.uuid(),
  connectionId: col.uuid(),
  accountId: col.uuid(),
  remoteId: col.text(),
  startOn: col.date(),
  endOn: col.date(),
  issuedOn: col.date().orNull(),
  status: col.oneOf(STATEMENT_STATUSES),
  failureReason: col.text().orNull(),
  refusedFetches: col.integer(),
  size: col.integer().orNull(),
  sha256: col.text().orNull(),
  createdAt: col.timestamp(),
  updatedAt: col.timestamp(),
});

const RECORD = ['id', 'accountId', 'startOn', 'endOn', 'issuedOn', 'status', 'failureReason', 'size', 'sha256', 'createdAt'] as const;
type RecordRow = ReadRow<typeof STATEMENT, (typeof RECORD)[number]>;
/** A statement as GraphQL and events read it; `date` is its period's end, its page key. */
export type StatementRecord = Omit<RecordRow, 'createdAt'> & { createdAt: Date; date: string };

/** What the fetch of one statement needs: its row and its account's upstream id. */
export type StatementToFetch = ReadRow<typeof STATEMENT, 'id' | 'connectionId' | 'remoteId' | 'status' | 'refusedFetches'> & { accountRemoteId: string };

/** What a download answers with besides the bytes. */
export type DownloadableStatement = ReadRow<typeof STATEMENT, 'id' | 'endOn' | 'size' | 'sha256'> & { mask: string | null };

const LISTED = ['remoteId', 'startOn', 'endOn', 'issuedOn'] as const;
const RETURNING = STATEMENT.select(RECORD, 'statement');

/** The statements of the statement table that take no filter; test/stores.test.ts prepares each. */
export const statementStatements = {
  // Listed statements travel as one JSON parameter ($3); one of an account the connection lacks is left out, one already stored stays as it is.
  insertListed: `insert into statement (${STATEMENT.list(['id', 'profileId', 'connectionId', 'accountId', ...LISTED, 'status', 'refusedFetches', 'createdAt', 'updatedAt'])})
     select r.id, $1, $2, a.id, ${LISTED.map((field) => `r."${field}"`).join(', ')}, 'PENDING', 0, now(), now()
       from jsonb_to_recordset($3::jsonb) as r(${STATEMENT.recordset(['id', ...LISTED])}, "accountRemoteId" text)
       join account a on a.profile_id = $1 and a.connection_id = $2 and a.remote_id = r."accountRemoteId"
     on conflict (profile_id, account_id, remote_id) do nothing
     returning ${RETURNING}, end_on::text as date`,
  pendingOfConnection: `select id from statement where profile_id = $1 and connection_id = $2 and status = 'PENDING'`,
  toFetch: `select ${STATEMENT.select(['id', 'connectionId', 'remoteId', 'status', 'refusedFetches'], 's')}, a.remote_id as "accountRemoteId"
       from statement s join account a on a.id = s.account_id and a.profile_id = s.profile_id
      where s.profile_id = $1 and s.id = $2`,
  // Only a PENDING statement moves: a fetch that ran twice (a retried job) stores its document once.
  ready: `update statement set status = 'READY', size = $3, sha256 = $4, failure_reason = null, updated_at = now()
      where profile_id = $1 and id = $2 and status = 'PENDING' returning ${RETURNING}, end_on::text as date`,
  // A refused document counts; the last allowed refusal ($3 refusals in all) makes the statement FAILED with why ($4).
  refused: `update statement set refused_fetches = refused_fetches + 1, updated_at = now(),
        status = case when refused_fetches + 1 >= $3 then 'FAILED' else status end,
        failure_reason = case when refused_fetches + 1 >= $3 then $4 else failure_reason end
      where profile_id = $1 and id = $2 and status = 'PENDING' returning ${RETURNING}, end_on::text as date`,
  ofAccounts: `select ${STATEMENT.select(RECORD, 's')}, s.end_on::text as date from statement s
      where s.account_id = any($1::uuid[]) and s.profile_id = $2 order by s.end_on desc, s.id desc`,
  downloadable: `select ${STATEMENT.select(['id', 'endOn', 'size', 'sha256'], 's')}, a.mask
       from statement s join account a on a.id = s.account_id and a.profile_id = s.profile_id
       join profile p on p.id = s.profile_id and p.deleting_at is null
      where s.profile_id = $1 and s.id = $2 and s.status = 'READY'`,
};

/** Who a connection's statements belong to. */
export interface StatementOwner {
  connectionId: string;
  profileId: string;
}

/** Records the listed statements not stored yet as PENDING, in the caller's transaction; the ones it recorded. */
export async function insertListed(tx: EntityManager, owner: StatementOwner, listed: ProviderStatement[]): Promise<StatementRecord[]> {
  if (listed.length === 0) return [];
  const rows = listed.map(({ remoteId, accountRemoteId, startOn, endOn, issuedOn }) => ({ id: uuidv7(), remoteId, accountRemoteId, startOn, endOn, issuedOn }));
  return (await run<RecordRow & { date: string }>(tx, statementStatements.insertListed, [owner.profileId, owner.connectionId, JSON.stringify(rows)])).rows.map(toRecord);
}

/** Ids of the connection's statements whose document is still to fetch. */
export async function pendingOfConnection(em: EntityManager, owner: StatementOwner): Promise<string[]> {
  return (await run<{ id: string }>(em, statementStatements.pendingOfConnection, [owner.profileId, owner.connectionId])).rows.map((row) => row.id);
}

export async function statementToFetch(em: EntityManager, profileId: string, id: string): Promise<StatementToFetch | undefined> {
  return (await run<StatementToFetch>(em, statementStatements.toFetch, [profileId, id])).rows[0];
}

/** Marks a PENDING statement READY with its document's size and digest; undefined when it was not PENDING. */
export async function markReady(tx: EntityManager, profileId: string, id: string, document: { size: number; sha256: string }): Promise<StatementRecord | undefined> {
  const row = (await run<RecordRow & { date: string }>(tx, statementStatements.ready, [profileId, id, document.size, document.sha256])).rows[0];
  return row && toRecord(row);
}

/** Counts a refused document of a PENDING statement; FAILED with `reason` at the `allowed`-th. The statement after, when it was PENDING. */
export async function countRefusal(em: EntityManager, profileId: string, id: string, allowed: number, reason: string): Promise<StatementRecord | undefined> {
  const row = (await run<RecordRow & { date: string }>(em, statementStatements.refused, [profileId, id, allowed, reason])).rows[0];
  return row && toRecord(row);
}

/** The statements of the profile's accounts with these ids, newest period first. */
export async function statementsOfAccounts(em: EntityManager, profileId: string, accountIds: readonly string[]): Promise<StatementRecord[]> {
  return (await run<RecordRow & { date: string }>(em, statementStatements.ofAccounts, [accountIds, profileId])).rows.map(toRecord);
}

/** The profile's READY statement with this id, while the profile is not being deleted. */
export async function downloadableStatement(em: EntityManager, profileId: string, id: string): Promise<DownloadableStatement | undefined> {
  return (await run<DownloadableStatement>(em, statementStatements.downloadable, [profileId, id])).rows[0];
}

function toRecord(row: RecordRow & { date: string }): StatementRecord {
  return { ...row, createdAt: new Date(row.createdAt) };
}

/** A filter as SQL conditions on `statement s`. */
export type StatementWhere = SqlWhere;

/** The schema's StatementFilter as SQL on `statement s`, always scoped to the profile. */
export function statementWhere(profileId: string, filter: StatementFilter): StatementWhere {
  const { where, add } = whereBuilder();
  add((id) => `s.profile_id = ${id}`, profileId);
  if (filter.accountIds) add((ids) => `s.account_id = any(${ids}::uuid[])`, filter.accountIds.map((id) => decodeId('account', id)).filter((id) => id !== undefined));
  if (filter.endOn_gte != null) add((date) => `s.end_on >= ${date}::date`, filter.endOn_gte);
  if (filter.endOn_lte != null) add((date) => `s.end_on <= ${date}::date`, filter.endOn_lte);
  return where;
}

/** Statements are keyed on their period's end and their id. */
const KEY = { date: 's.end_on', id: 's.id' };
const bounded = (where: StatementWhere, bound: KeysetBound | undefined) => pastBound(where, KEY, bound);

/** The statements of filtered reads, built from a StatementWhere; test/stores.test.ts prepares each with every filter. */
export const filteredStatementStatements = {
  page: (where: StatementWhere, order: 'asc' | 'desc') =>
    `select ${STATEMENT.select(RECORD, 's')}, s.end_on::text as date from statement s where ${where.conditions.join(' and ')}
      order by s.end_on ${order}, s.id ${order} limit $${where.params.length + 1}`,
  exist: (where: StatementWhere) => `select exists (select 1 from statement s where ${where.conditions.join(' and ')}) as found`,
  count: (where: StatementWhere) => `select count(*)::int as count from statement s where ${where.conditions.join(' and ')}`,
};

/** Up to `limit` statements matching `where` past `bound`, in (period end, id) order. */
export async function statementRecords(em: EntityManager, where: StatementWhere, bound: KeysetBound | undefined, order: 'asc' | 'desc', limit: number): Promise<StatementRecord[]> {
  const page = bounded(where, bound);
  return (await run<RecordRow & { date: string }>(em, filteredStatementStatements.page(page, order), [...page.params, limit])).rows.map(toRecord);
}

export async function statementsExist(em: EntityManager, where: StatementWhere, bound?: KeysetBound): Promise<boolean> {
  const query = bounded(where, bound);
  return (await run<{ found: boolean }>(em, filteredStatementStatements.exist(query), query.params)).rows[0]!.found;
}

export async function countStatements(em: EntityManager, where: StatementWhere): Promise<number> {
  return (await run<{ count: number }>(em, filteredStatementStatements.count(where), where.params)).rows[0]!.count;
}
