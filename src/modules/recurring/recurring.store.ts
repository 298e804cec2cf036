import type { EntityManager } from '@mikro-orm/postgresql';
import { pastBound, whereBuilder, type SqlWhere } from '../../db/keyset-where.ts';
import { run } from '../../db/statement.ts';
import { col, table, type ReadRow } from '../../db/table.ts';
import { decodeId } from '../../lib/ids.ts';
import type { KeysetBound } from '../transaction/transaction.store.ts';
import type { RecurringStreamFilter } from '../../../generated/graphql.ts';
import { CADENCES, FREQUENCIES } from './cadence.ts';
import { DIRECTIONS, STREAM_STATUSES, type DetectedStream, type RecurringInput } from './detection.ts';

/** The recurring_stream table as its SQL reads and writes it. */
export const RECURRING_STREAM = table('recurring_stream', {
  id: col.uuid(),
  profileId: col.uuid(),
  connectionId: col.uuid(),
  accountId: col.uuid(),
  direction: col.oneOf(DIRECTIONS),
  key: col.text(),
  description: col.text(),
  merchantName: col.text().orNull(),
  category: col.text().orNull(),
  frequency: col.oneOf(FREQUENCIES),
  status: col.oneOf(STREAM_STATUSES),
  averageAmount: col.money(),
  lastAmount: col.money(),
  currencyCode: col.text(),
  firstDate: col.date(),
  lastDate: col.date(),
  predictedNextDate: col.date(),
  createdAt: col.timestamp(),
  updatedAt: col.timestamp(),
});

const RECORD = ['id', 'accountId', 'direction', 'key', 'description', 'merchantName', 'category', 'frequency', 'status', 'averageAmount', 'lastAmount', 'currencyCode', 'firstDate', 'lastDate', 'predictedNextDate'] as const;
/** What a recomputation writes of a stream. */
const COMPUTED = ['key', 'description', 'merchantName', 'category', 'frequency', 'status', 'averageAmount', 'lastAmount', 'firstDate', 'lastDate', 'predictedNextDate'] as const;

/** A stream as GraphQL and the recomputation read it. */
export type RecurringStreamRecord = ReadRow<typeof RECURRING_STREAM, (typeof RECORD)[number]>;
/** A stored stream with its member transaction ids, as the recomputation matches it. */
export type StoredStream = RecurringStreamRecord & { transactionIds: string[] };

/** An account of a connection, as the recomputation reads it. */
export interface StreamAccount {
  id: string;
  profileId: string;
  connectionId: string;
  currencyCode: string;
}

export const recurringStatements = {
  accounts: `select a.id, a.profile_id as "profileId", a.connection_id as "connectionId", a.currency_code as "currencyCode" from account a
       where a.connection_id = $1 and a.profile_id = $2 order by a.id`,
  institution: `select c.provider, c.institution_id as "institutionId" from connection c where c.id = $1 and c.profile_id = $2`,
  // The newest first, so the bound keeps the most recent ones when an account has more.
  posted: `select t.id, t.date::text as date, t.amount::text as amount, t.description, t.merchant_name as "merchantName", t.category_detailed as category
       from transaction t where t.account_id = $1 and t.profile_id = $4 and t.status = 'POSTED' and t.date >= $2::date order by t.date desc, t.id desc limit $3`,
  streams: `select ${RECURRING_STREAM.select(RECORD, 's')},
       coalesce((select array_agg(m.transaction_id order by m.transaction_id) from recurring_stream_transaction m where m.profile_id = s.profile_id and m.stream_id = s.id), '{}') as "transactionIds"
       from recurring_stream s where s.account_id = any($1::uuid[]) and s.profile_id = $2`,
  insert: `insert into recurring_stream (${RECURRING_STREAM.list(['id', 'profileId', 'connectionId', 'accountId', 'direction', 'currencyCode', ...COMPUTED, 'createdAt', 'updatedAt'])})
     select r.id, r."profileId", r."connectionId", r."accountId", r.direction, r."currencyCode", ${COMPUTED.map((field) => `r."${field}"`).join(', ')}, now(), now()
       from jsonb_to_recordset($1::jsonb) as r(${RECURRING_STREAM.recordset(['id', 'profileId', 'connectionId', 'accountId', 'direction', 'currencyCode', ...COMPUTED])})`,
  update: `update recurring_stream s set ${COMPUTED.map((field) => `${RECURRING_STREAM.column(field)} = r."${field}"`).join(', ')}, updated_at = now()
       from jsonb_to_recordset($1::jsonb) as r(${RECURRING_STREAM.recordset(['id', 'profileId', ...COMPUTED])}) where s.id = r.id and s.profile_id = r."profileId"`,
  remove: `delete from recurring_stream where id = any($1::uuid[]) and profile_id = $2`,
  clearMembers: `delete from recurring_stream_transaction where stream_id = any($1::uuid[]) and profile_id = $2`,
  // Only transactions still stored: one removed since detection read it is left out.
  addMembers: `insert into recurring_stream_transaction (stream_id, profile_id, transaction_id)
     select r.stream, $2, r.transaction from jsonb_to_recordset($1::jsonb) as r(stream uuid, transaction uuid)
      where exists (select 1 from transaction t where t.profile_id = $2 and t.id = r.transaction)`,
  // Connections with a stream not yet ENDED whose predicted date is more than its frequency's grace days (`$2`, by frequency) before `$1`
  // (the plain `predicted_next_date < $1` lets the (status, predicted_next_date) index bound the scan).
  overdueConnections: `select distinct s.connection_id as id, s.profile_id as "profileId" from recurring_stream s
      where s.status in ('EARLY_DETECTION', 'MATURE') and s.predicted_next_date < $1::date and s.predicted_next_date + ($2::jsonb->>s.frequency)::int < $1::date limit $3`,
  endOverdue: `update recurring_stream s set status = 'ENDED', updated_at = now()
      where s.connection_id = $1 and s.profile_id = $4 and s.status in ('EARLY_DETECTION', 'MATURE') and s.predicted_next_date < $2::date and s.predicted_next_date + ($3::jsonb->>s.frequency)::int < $2::date
      returning ${RECURRING_STREAM.select(RECORD, 's')}`,
  byId: `select ${RECURRING_STREAM.select(RECORD, 's')} from recurring_stream s where s.id = $1 and s.profile_id = $2`,
};

/** A connection as the recomputation names it: its id and its profile's (every statement names the profile, docs/scaling.md). */
export interface StreamConnection {
  connectionId: string;
  profileId: string;
}

/** The accounts of the profile's connection. */
export async function accountsOfConnection(em: EntityManager, { connectionId, profileId }: StreamConnection): Promise<StreamAccount[]> {
  return (await run<StreamAccount>(em, recurringStatements.accounts, [connectionId, profileId])).rows;
}

/** The provider and institution of the profile's connection (undefined once it is gone). */
export async function institutionOfConnection(em: EntityManager, { connectionId, profileId }: StreamConnection): Promise<{ provider: string; institutionId: string } | undefined> {
  return (await run<{ provider: string; institutionId: string }>(em, recurringStatements.institution, [connectionId, profileId])).rows[0];
}

/** Up to `limit` of the account's posted transactions dated from `since`, the newest kept. */
export async function postedTransactions(em: EntityManager, account: StreamAccount, since: string, limit: number): Promise<RecurringInput[]> {
  return (await run<RecurringInput>(em, recurringStatements.posted, [account.id, since, limit, account.profileId])).rows;
}

/** The stored streams of the profile's accounts, with their members. */
export async function storedStreams(em: EntityManager, profileId: string, accountIds: string[]): Promise<StoredStream[]> {
  return (await run<StoredStream>(em, recurringStatements.streams, [accountIds, profileId])).rows;
}

/** A stream to write: its row and its members. */
export interface StreamWrite {
  id: string;
  account: StreamAccount;
  stream: DetectedStream;
}

/** Inserts new streams, rewrites changed ones, removes vanished ones, and replaces the members of all written, in the caller's transaction: all of one profile's. */
export async function writeStreams(tx: EntityManager, profileId: string, changes: { created: StreamWrite[]; updated: StreamWrite[]; removed: string[] }): Promise<void> {
  const row = ({ id, account, stream }: StreamWrite) => ({
    id,
    profileId: account.profileId,
    connectionId: account.connectionId,
    accountId: account.id,
    currencyCode: account.currencyCode,
    direction: stream.direction,
    ...Object.fromEntries(COMPUTED.map((field) => [field, stream[field]])),
  });
  const written = [...changes.created, ...changes.updated];
  if (changes.created.length > 0) await run(tx, recurringStatements.insert, [JSON.stringify(changes.created.map(row))]);
  if (changes.updated.length > 0) await run(tx, recurringStatements.update, [JSON.stringify(changes.updated.map(row))]);
  if (changes.removed.length > 0) await run(tx, recurringStatements.remove, [changes.removed, profileId]);
  if (written.length === 0) return;
  await run(tx, recurringStatements.clearMembers, [written.map((write) => write.id), profileId]);
  const members = written.flatMap(({ id, stream }) => stream.transactionIds.map((transaction) => ({ stream: id, transaction })));
  await run(tx, recurringStatements.addMembers, [JSON.stringify(members), profileId]);
}

/** Each frequency's grace days, as the overdue statements read them. */
const GRACE_DAYS = JSON.stringify(Object.fromEntries(FREQUENCIES.map((frequency) => [frequency, CADENCES[frequency].graceDays])));

/** Up to `limit` connections (with their profiles) with a stream that has not ended but whose grace period is over by `today`. */
export async function connectionsWithOverdueStreams(em: EntityManager, today: string, limit: number): Promise<Array<{ id: string; profileId: string }>> {
  return (await run<{ id: string; profileId: string }>(em, recurringStatements.overdueConnections, [today, GRACE_DAYS, limit])).rows;
}

/** Marks the profile's connection's streams whose grace period is over by `today` ENDED, in the caller's transaction; resolves to them. */
export async function endOverdueStreams(tx: EntityManager, of: StreamConnection, today: string): Promise<RecurringStreamRecord[]> {
  return (await run<RecurringStreamRecord>(tx, recurringStatements.endOverdue, [of.connectionId, today, GRACE_DAYS, of.profileId])).rows;
}

/** One of the profile's streams by id. */
export async function streamById(em: EntityManager, profileId: string, id: string): Promise<RecurringStreamRecord | undefined> {
  return (await run<RecurringStreamRecord>(em, recurringStatements.byId, [id, profileId])).rows[0];
}

/** A filter of a profile's streams as SQL conditions on `recurring_stream s`, always scoped to the profile. */
export type StreamWhere = SqlWhere;

export function streamWhere(profileId: string, filter: RecurringStreamFilter): StreamWhere {
  const { where, add } = whereBuilder();
  add((id) => `s.profile_id = ${id}`, profileId);
  if (filter.accountIds) add((ids) => `s.account_id = any(${ids}::uuid[])`, filter.accountIds.map((id) => decodeId('account', id)).filter((id) => id !== undefined));
  if (filter.direction) add((direction) => `s.direction = ${direction}`, filter.direction);
  if (filter.status) add((statuses) => `s.status = any(${statuses}::text[])`, filter.status);
  if (filter.frequency) add((frequencies) => `s.frequency = any(${frequencies}::text[])`, filter.frequency);
  return where;
}

/** Streams are keyed on their first date and their id. */
const bounded = (where: StreamWhere, bound: KeysetBound | undefined) => pastBound(where, { date: 's.first_date', id: 's.id' }, bound);

export const filteredStreamStatements = {
  page: (where: StreamWhere, order: 'asc' | 'desc') =>
    `select ${RECURRING_STREAM.select(RECORD, 's')} from recurring_stream s where ${where.conditions.join(' and ')} order by s.first_date ${order}, s.id ${order} limit $${where.params.length + 1}`,
  exists: (where: StreamWhere) => `select exists (select 1 from recurring_stream s where ${where.conditions.join(' and ')}) as found`,
  count: (where: StreamWhere) => `select count(*)::int as count from recurring_stream s where ${where.conditions.join(' and ')}`,
};

export async function streamRecords(em: EntityManager, where: StreamWhere, bound: KeysetBound | undefined, order: 'asc' | 'desc', limit: number): Promise<RecurringStreamRecord[]> {
  const page = bounded(where, bound);
  return (await run<RecurringStreamRecord>(em, filteredStreamStatements.page(page, order), [...page.params, limit])).rows;
}

export async function streamsExist(em: EntityManager, where: StreamWhere, bound?: KeysetBound): Promise<boolean> {
  const query = bounded(where, bound);
  return (await run<{ found: boolean }>(em, filteredStreamStatements.exists(query), query.params)).rows[0]!.found;
}

export async function countStreams(em: EntityManager, where: StreamWhere): Promise<number> {
  return (await run<{ count: number }>(em, filteredStreamStatements.count(where), where.params)).rows[0]!.count;
}
