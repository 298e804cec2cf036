import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { pastBound } from '../../db/keyset-where.ts';
import { run } from '../../db/statement.ts';
import { col, table, type ReadRow } from '../../db/table.ts';
import { decodeId } from '../../lib/ids.ts';
import type { Metadata } from '../metadata/metadata.ts';
import type { AccountView } from '../account/account.entity.ts';
import { accountViewsOf, accountViewsOfProfile, type AccountViewRow } from '../account/account.store.ts';
import { checkMetadataFilter } from '../metadata/metadata-filter.ts';
import { CATEGORIES } from '../../enrichment/taxonomy.ts';
import { CATEGORY_SOURCES, MERCHANT_SOURCES, PAYMENT_CHANNELS, Transaction, TRANSACTION_STATUSES, type TransactionEntity, type TransactionStatus } from './transaction.entity.ts';
import type { StoredEnrichment } from './transaction-enrichment.ts';
import type { TransactionFilter } from '../../../generated/graphql.ts';

/**
 * A transaction as read for GraphQL: the row, with ids as stored uuids and the amount as exact text.
 * `remote_data` (the bulk of a row) is loaded separately, only when a query selects it.
 */
export interface TransactionRecord {
  id: string;
  accountId: string;
  date: string;
  description: string;
  amount: string;
  status: TransactionStatus;
  currencyCode: string;
  originalAmount: string | null;
  originalCurrencyCode: string | null;
  metadata: Metadata | null;
  createdAt: Date;
  merchantName: string | null;
  merchantWebsite: string | null;
  merchantLogoUrl: string | null;
  merchantSource: StoredEnrichment['merchantSource'];
  merchantConfidence: string | null;
  categoryPrimary: string | null;
  categoryDetailed: string | null;
  categorySource: StoredEnrichment['categorySource'];
  categoryConfidence: string | null;
  paymentChannel: StoredEnrichment['paymentChannel'];
  /** Its remote data, when a page read it (its document selects `remoteData`); else `Transaction.remoteData` loads it. */
  remoteData?: Record<string, unknown>;
  /** Its account, which `Transaction.account` reads: read with a page that reads `accountId` (transactionRecords), else set by whatever hands the record to GraphQL (`withAccounts`). */
  account?: AccountView;
}

/** The transaction table as its SQL reads and writes it (checked against the entity by test/stores.test.ts). */
export const TRANSACTION = table('transaction', {
  id: col.uuid(),
  profileId: col.uuid(),
  connectionId: col.uuid(),
  accountId: col.uuid(),
  remoteId: col.text(),
  date: col.date(),
  description: col.text(),
  amount: col.money(),
  status: col.oneOf(TRANSACTION_STATUSES),
  currencyCode: col.text(),
  originalAmount: col.money().orNull(),
  originalCurrencyCode: col.text().orNull(),
  metadata: col.json<Metadata>().orNull(),
  cleanDescription: col.text().orNull(),
  merchantName: col.text().orNull(),
  merchantWebsite: col.text().orNull(),
  merchantLogoUrl: col.text().orNull(),
  merchantSource: col.oneOf(MERCHANT_SOURCES).orNull(),
  merchantConfidence: col.money().orNull(),
  categoryPrimary: col.text().orNull(),
  categoryDetailed: col.text().orNull(),
  categorySource: col.oneOf(CATEGORY_SOURCES).orNull(),
  categoryConfidence: col.money().orNull(),
  paymentChannel: col.oneOf(PAYMENT_CHANNELS),
  enrichmentVersion: col.integer(),
  remoteData: col.json<Record<string, unknown>>(),
  createdAt: col.timestamp(),
});

export const RECORD = [
  'id', 'accountId', 'date', 'description', 'amount', 'status', 'currencyCode', 'originalAmount', 'originalCurrencyCode', 'metadata', 'createdAt',
  'merchantName', 'merchantWebsite', 'merchantLogoUrl', 'merchantSource', 'merchantConfidence', 'categoryPrimary', 'categoryDetailed', 'categorySource', 'categoryConfidence', 'paymentChannel',
] as const;

/**
 * The statements of the transaction table's reads that take no filter; test/stores.test.ts prepares
 * each. A sync's writes are in transaction-sync.store.ts, re-enrichment's in transaction-enrichment.store.ts.
 */
export const transactionStatements = {
  byId: `select ${TRANSACTION.select(RECORD, 't')} from transaction t where t.id = $1 and t.profile_id = $2`,
  remoteData: `select t.id, t.remote_data as "remoteData" from transaction t where t.id = any($1::uuid[]) and t.profile_id = $2`,
};

/** One of the profile's transactions by id. */
export async function transactionById(em: EntityManager, profileId: string, id: string): Promise<TransactionRecord | undefined> {
  const { rows: [row] } = await run<StoredRecord>(em, transactionStatements.byId, [id, profileId]);
  return row && toRecord(row);
}

/** One of the profile's transactions read under its row lock (remote data left unread), for a change by its user. */
export function lockedTransaction(tx: EntityManager, profileId: string, id: string): Promise<TransactionEntity | null> {
  return tx.findOne(Transaction, { id, profile: profileId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, exclude: ['remoteData'] as never });
}

/** The remote data of each of the profile's transactions (`{}` for one not found), in the order of `ids`. */
export async function remoteDataByIds(em: EntityManager, profileId: string, ids: readonly string[]): Promise<Array<Record<string, unknown>>> {
  const { rows } = await run<{ id: string; remoteData: Record<string, unknown> }>(em, transactionStatements.remoteData, [ids, profileId]);
  const found = new Map(rows.map((row) => [row.id, row.remoteData]));
  return ids.map((id) => found.get(id) ?? {});
}

/** A column a transaction record holds. */
export type RecordField = (typeof RECORD)[number];
/** A column a page may read: a record's, and the remote data when its document selects it (the bulk of a row, read only then). */
export type PageField = RecordField | 'remoteData';
/** Every column a page may read. */
export const PAGE_FIELDS: readonly PageField[] = [...RECORD, 'remoteData'];
type StoredRecord = ReadRow<typeof TRANSACTION, RecordField> & Partial<ReadRow<typeof TRANSACTION, 'remoteData'>>;

/** A page's row; with `accountId` read, the profile's accounts come on a row of their own (filteredStatements.page). */
type PageRow = StoredRecord & { accounts?: AccountViewRow[] | null };

/** The record of a row, in place (a page makes up to 100): the timestamp parsed, when it was read. */
function toRecord(row: StoredRecord): TransactionRecord {
  const record = row as unknown as TransactionRecord;
  if (row.createdAt !== undefined) record.createdAt = new Date(row.createdAt);
  return record;
}

/** A filter of a profile's transactions as SQL conditions on `transaction t`, with their parameters ($1, $2, … in order). */
export interface TransactionWhere {
  conditions: string[];
  params: unknown[];
}

/** The records on one side of a keyset position (date, id). */
export interface KeysetBound {
  operator: '<' | '>' | '<=' | '>=';
  date: string;
  id: string;
}

/** The profile's parameter in every TransactionWhere: its first. */
const PROFILE_PARAMETER = '$1';

/** Every filter of the schema's TransactionFilter, as SQL (exact numeric comparisons), always scoped to the profile (PROFILE_PARAMETER). */
export function transactionWhere(profileId: string, filter: TransactionFilter): TransactionWhere {
  const where: TransactionWhere = { conditions: [], params: [] };
  const add = (sql: (...placeholders: string[]) => string, ...values: unknown[]) => {
    const placeholders = values.map((value) => `$${where.params.push(value)}`);
    where.conditions.push(sql(...placeholders));
  };
  add((id) => `t.profile_id = ${id}`, profileId);
  if (filter.status) add((statuses) => `t.status = any(${statuses}::text[])`, filter.status);
  if (filter.entryType) add(() => (filter.entryType === 'DEBIT' ? 't.amount < 0' : 't.amount >= 0'));
  if (filter.amount_gte != null) add((amount) => `t.amount >= ${amount}::numeric`, filter.amount_gte);
  if (filter.amount_lte != null) add((amount) => `t.amount <= ${amount}::numeric`, filter.amount_lte);
  if (filter.date_gte != null) add((date) => `t.date >= ${date}::date`, filter.date_gte);
  if (filter.date_lte != null) add((date) => `t.date <= ${date}::date`, filter.date_lte);
  if (filter.kind) add((kinds) => `exists (select 1 from account a where a.profile_id = t.profile_id and a.id = t.account_id and a.kind = any(${kinds}::text[]))`, filter.kind);
  if (filter.accountIds) {
    const ids = filter.accountIds.map((id) => decodeId('account', id)).filter((id) => id !== undefined);
    add((accounts) => `t.account_id = any(${accounts}::uuid[])`, ids);
  }
  if (filter.metadata === null) add(() => 't.metadata is null');
  else if (filter.metadata && Object.keys(checkMetadataFilter(filter.metadata)).length > 0) add((entries) => `t.metadata @> ${entries}::jsonb`, JSON.stringify(filter.metadata));
  // Only names of the taxonomy reach SQL: any other matches nothing, whatever text it holds.
  if (filter.categories) add((names) => `(t.category_primary = any(${names}::text[]) or t.category_detailed = any(${names}::text[]))`, filter.categories.filter(isCategoryName));
  return where;
}

function isCategoryName(name: string): boolean {
  return Object.hasOwn(CATEGORIES, name) || Object.values(CATEGORIES).some((detailed) => detailed.includes(name));
}

const bounded = (where: TransactionWhere, bound: KeysetBound | undefined) => pastBound(where, { date: 't.date', id: 't.id' }, bound);

/** The statements of filtered reads, built from a TransactionWhere; test/stores.test.ts prepares each with every filter. */
export const filteredStatements = {
  // A page that reads `accountId` reads the profile's accounts too, on a row of their own after its
  // rows (every column null but `accounts`): a second statement would keep the page's rows alive
  // until its answer came back, on a busy process long enough for a young-generation collection or
  // two to move them to the old generation (docs/decisions/graphql-transactions-read-with-sql.md).
  page: (where: TransactionWhere, order: 'asc' | 'desc', fields: readonly PageField[] = RECORD) => {
    const limit = `order by t.date ${order}, t.id ${order} limit $${where.params.length + 1}`;
    if (!fields.includes('accountId')) return `select ${TRANSACTION.select(fields, 't')} from transaction t where ${where.conditions.join(' and ')} ${limit}`;
    return `(select ${TRANSACTION.select(fields, 't')}, null::json as accounts from transaction t where ${where.conditions.join(' and ')} ${limit})
      union all select ${fields.map(() => 'null').join(', ')}, ${accountViewsOfProfile(PROFILE_PARAMETER)}`;
  },
  exists: (where: TransactionWhere) => `select exists (select 1 from transaction t where ${where.conditions.join(' and ')}) as found`,
  count: (where: TransactionWhere) => `select count(*)::int as count from transaction t where ${where.conditions.join(' and ')}`,
};

/**
 * Up to `limit` records matching `where` past `bound`, in (date, id) order. Only `fields` are read
 * (all by default): a GraphQL page reads the columns its document selects, and its records hold
 * nothing else, which only that document's fields read. With `accountId`, each record holds its
 * account too, read in the same statement.
 */
export async function transactionRecords(
  em: EntityManager,
  where: TransactionWhere,
  bound: KeysetBound | undefined,
  order: 'asc' | 'desc',
  limit: number,
  fields: readonly PageField[] = RECORD,
): Promise<TransactionRecord[]> {
  const page = bounded(where, bound);
  const { rows } = await run<PageRow>(em, filteredStatements.page(page, order, fields), [...page.params, limit]);
  if (!fields.includes('accountId')) return rows.map(toRecord);
  const records: TransactionRecord[] = [];
  let views: AccountViewRow[] = [];
  // The accounts' row comes after the page's rows; it is told by its null id, not by its place.
  for (const row of rows) {
    if (row.id === null) views = row.accounts ?? [];
    else records.push(toRecord(row));
  }
  const accounts = new Map(accountViewsOf(views).map((account) => [account.id, account]));
  for (const record of records) record.account = accounts.get(record.accountId);
  return records;
}

/** Whether any record matches `where` past `bound`. */
export async function transactionsExist(em: EntityManager, where: TransactionWhere, bound?: KeysetBound): Promise<boolean> {
  const query = bounded(where, bound);
  return (await run<{ found: boolean }>(em, filteredStatements.exists(query), query.params)).rows[0]!.found;
}

export async function countTransactions(em: EntityManager, where: TransactionWhere): Promise<number> {
  return (await run<{ count: number }>(em, filteredStatements.count(where), where.params)).rows[0]!.count;
}
