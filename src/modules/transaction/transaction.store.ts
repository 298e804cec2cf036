import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
import { col, table, type ReadRow, type Row } from '../../db/table.ts';
import { decodeId, uuidv7 } from '../../lib/ids.ts';
import type { ProviderTransaction } from '../../providers/provider-records.ts';
import type { Metadata } from '../metadata/metadata.ts';
import type { AccountView } from '../account/account.entity.ts';
import { checkMetadataFilter } from '../metadata/metadata-filter.ts';
import type { EnrichmentInput } from '../../enrichment/enrichment.ts';
import { CATEGORIES } from '../../enrichment/taxonomy.ts';
import { CATEGORY_SOURCES, PAYMENT_CHANNELS, Transaction, TRANSACTION_STATUSES, type TransactionEntity, type TransactionStatus } from './transaction.entity.ts';
import { providerHints } from './provider-hints.ts';
import { CATEGORY_FIELDS, ENRICHMENT_FIELDS, type Enricher, type StoredEnrichment } from './transaction-enrichment.ts';
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
  categoryPrimary: string | null;
  categoryDetailed: string | null;
  categorySource: StoredEnrichment['categorySource'];
  categoryConfidence: string | null;
  paymentChannel: StoredEnrichment['paymentChannel'];
  /** Its account, set by whatever hands the record to GraphQL (`withAccounts`), which `Transaction.account` reads. */
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
  'merchantName', 'merchantWebsite', 'merchantLogoUrl', 'categoryPrimary', 'categoryDetailed', 'categorySource', 'categoryConfidence', 'paymentChannel',
] as const;
/** What a provider reports of a transaction; a page row adds a new id, and `accountRemoteId` to find the account by. */
const REPORTED = ['remoteId', 'date', 'description', 'amount', 'status', 'originalAmount', 'originalCurrencyCode', 'remoteData'] as const;
const PAGE = ['id', ...REPORTED, ...ENRICHMENT_FIELDS] as const;
type PageRow = Row<typeof TRANSACTION, (typeof PAGE)[number]> & { accountRemoteId: string };
/** An automatic category never replaces the user's: `column = case when USER then column else new end`. */
const unlessUser = (row: string, value: (field: keyof StoredEnrichment) => string) =>
  CATEGORY_FIELDS.map((field) => `${TRANSACTION.column(field)} = case when ${row}.category_source = 'USER' then ${row}.${TRANSACTION.column(field)} else ${value(field)} end`).join(', ');
/** The enrichment columns other than the category, set from `value`. */
const enrichedColumns = (value: (field: keyof StoredEnrichment) => string) =>
  ENRICHMENT_FIELDS.filter((field) => !(CATEGORY_FIELDS as readonly string[]).includes(field)).map((field) => `${TRANSACTION.column(field)} = ${value(field)}`).join(', ');
/** What re-enrichment reads of a stored transaction: the pipeline's input, and what its write checks is unchanged. */
const INPUT = ['id', 'profileId', 'description', 'amount', 'currencyCode', 'enrichmentVersion'] as const;
const INPUT_SELECT = `${TRANSACTION.select(INPUT, 't')}, a.kind as "accountKind", t.remote_data->'enrichment' as hints`;
const STORED = ['remoteId', 'date', 'amount', 'description', 'status'] as const;

/** A stored transaction as window reconciliation compares it with what the upstream reports. */
export type StoredTransaction = ReadRow<typeof TRANSACTION, (typeof STORED)[number]> & { accountRemoteId: string };

/** The statements of the transaction table that take no filter; test/stores.test.ts prepares each. */
export const transactionStatements = {
  byId: `select ${TRANSACTION.select(RECORD, 't')} from transaction t where t.id = $1 and t.profile_id = $2`,
  remoteData: `select t.id, t.remote_data as "remoteData" from transaction t where t.id = any($1::uuid[]) and t.profile_id = $2`,
  // A posted transaction that replaces a pending one takes over the pending row: same id and metadata.
  // Only the pairs travel ($1 posted, $2 pending remote ids), not the page's rows. Both lookups name
  // their remote ids (= any), so each is a probe of the unique index whatever the planner estimates:
  // as a join or an anti-join, it may hash every row of the connection (0.3 s a page at 200k rows).
  takeOverPending: `update transaction t set remote_id = r.remote_id
      from unnest($1::text[], $2::text[]) as r(remote_id, pending_remote_id)
     where t.connection_id = $3 and t.remote_id = any($2::text[]) and t.remote_id = r.pending_remote_id
       and r.remote_id <> all (array(select p.remote_id from transaction p where p.connection_id = $3 and p.remote_id = any($1::text[])))`,
  // Only a row whose content changed is rewritten: a page reported again changes nothing.
  upsert: `insert into transaction (${TRANSACTION.list(['id', 'profileId', 'connectionId', 'accountId', ...REPORTED, ...ENRICHMENT_FIELDS, 'currencyCode', 'metadata', 'createdAt'])})
     select r.id, $1, $2, a.id, ${[...REPORTED, ...ENRICHMENT_FIELDS].map((field) => `r."${field}"`).join(', ')}, a.currency_code, null, now()
       from jsonb_to_recordset($3::jsonb) as r(${TRANSACTION.recordset(PAGE)}, "accountRemoteId" text)
       join account a on a.connection_id = $2 and a.remote_id = r."accountRemoteId"
     on conflict (connection_id, remote_id) do update
        set date = excluded.date, description = excluded.description, amount = excluded.amount, status = excluded.status,
            original_amount = excluded.original_amount, original_currency_code = excluded.original_currency_code,
            remote_data = transaction.remote_data || excluded.remote_data,
            ${enrichedColumns((field) => `excluded.${TRANSACTION.column(field)}`)}, ${unlessUser('transaction', (field) => `excluded.${TRANSACTION.column(field)}`)}
      where (transaction.date, transaction.description, transaction.amount, transaction.status, transaction.original_amount, transaction.original_currency_code, transaction.remote_data)
            is distinct from (excluded.date, excluded.description, excluded.amount, excluded.status, excluded.original_amount, excluded.original_currency_code,
                              transaction.remote_data || excluded.remote_data)
     returning id, (xmax = 0) as inserted`,
  remove: `delete from transaction where connection_id = $1 and remote_id = any($2::text[]) returning id`,
  // Which of a page's account remote ids the connection has: a transaction of any other cannot be stored.
  knownAccounts: `select remote_id as "remoteId", kind, currency_code as "currencyCode" from account where connection_id = $1 and remote_id = any($2::text[])`,
  storedFrom: `select ${TRANSACTION.select(STORED, 't')}, a.remote_id as "accountRemoteId"
       from transaction t join account a on a.id = t.account_id
      where t.connection_id = $1 and (t.date >= $2::date or t.status = 'PENDING')`,
  // Re-enrichment's batches, each a keyset page: rows behind a version across the table (by id), a
  // profile's rows newest first (by its (profile, date, id) index), or some of a profile's rows.
  inputsBehind: `select ${INPUT_SELECT} from transaction t join account a on a.id = t.account_id
      where t.id > $1 and t.enrichment_version < $2 order by t.id limit $3`,
  inputsOfProfile: `select ${INPUT_SELECT}, t.date from transaction t join account a on a.id = t.account_id
      where t.profile_id = $1 and (t.date, t.id) < ($2::date, $3::uuid) order by t.date desc, t.id desc limit $4`,
  inputsByIds: `select ${INPUT_SELECT} from transaction t join account a on a.id = t.account_id where t.id = any($1::uuid[]) and t.profile_id = $2`,
  // Writes a batch's new enrichment, only to rows still as they were read (same version, description,
  // amount and provider hints): a sync that rewrote one meanwhile wrote its enrichment itself. Only
  // rows whose enrichment changes are written; a USER category stays.
  writeEnrichments: `update transaction t
        set ${enrichedColumns((field) => `r."${field}"`)}, ${unlessUser('t', (field) => `r."${field}"`)}
       from jsonb_to_recordset($1::jsonb) as r(${TRANSACTION.recordset(['id', 'description', 'amount', ...ENRICHMENT_FIELDS])}, "readVersion" integer, hints jsonb)
      where t.id = r.id and t.enrichment_version = r."readVersion" and t.description = r.description and t.amount = r.amount
        and t.remote_data->'enrichment' is not distinct from r.hints
        and (${ENRICHMENT_FIELDS.map((field) => `t.${TRANSACTION.column(field)}`).join(', ')}) is distinct from (${ENRICHMENT_FIELDS.map((field) => `r."${field}"`).join(', ')})`,
  // The profile's corrections, newest first: the learned classifier's training set.
  corrections: `select t.clean_description as "cleanDescription", t.description, t.merchant_name as "merchantName", t.amount,
        t.category_primary as "categoryPrimary", t.category_detailed as "categoryDetailed"
       from transaction t where t.profile_id = $1 and t.category_source = 'USER' order by t.date desc, t.id desc limit $2`,
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
type StoredRecord = ReadRow<typeof TRANSACTION, RecordField>;

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

/** Every filter of the schema's TransactionFilter, as SQL (exact numeric comparisons), always scoped to the profile. */
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
  if (filter.kind) add((kinds) => `exists (select 1 from account a where a.id = t.account_id and a.kind = any(${kinds}::text[]))`, filter.kind);
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

function bounded(where: TransactionWhere, bound: KeysetBound | undefined): TransactionWhere {
  if (!bound) return where;
  const next = where.params.length + 1;
  return { conditions: [...where.conditions, `(t.date, t.id) ${bound.operator} ($${next}::date, $${next + 1}::uuid)`], params: [...where.params, bound.date, bound.id] };
}

/** The statements of filtered reads, built from a TransactionWhere; test/stores.test.ts prepares each with every filter. */
export const filteredStatements = {
  page: (where: TransactionWhere, order: 'asc' | 'desc', fields: readonly RecordField[] = RECORD) =>
    `select ${TRANSACTION.select(fields, 't')} from transaction t where ${where.conditions.join(' and ')} order by t.date ${order}, t.id ${order} limit $${where.params.length + 1}`,
  exists: (where: TransactionWhere) => `select exists (select 1 from transaction t where ${where.conditions.join(' and ')}) as found`,
  count: (where: TransactionWhere) => `select count(*)::int as count from transaction t where ${where.conditions.join(' and ')}`,
};

/**
 * Up to `limit` records matching `where` past `bound`, in (date, id) order. Only `fields` are read
 * (all by default): a GraphQL page reads the columns its document selects, and its records hold
 * nothing else, which only that document's fields read.
 */
export async function transactionRecords(
  em: EntityManager,
  where: TransactionWhere,
  bound: KeysetBound | undefined,
  order: 'asc' | 'desc',
  limit: number,
  fields: readonly RecordField[] = RECORD,
): Promise<TransactionRecord[]> {
  const page = bounded(where, bound);
  return (await run<StoredRecord>(em, filteredStatements.page(page, order, fields), [...page.params, limit])).rows.map(toRecord);
}

/** Whether any record matches `where` past `bound`. */
export async function transactionsExist(em: EntityManager, where: TransactionWhere, bound?: KeysetBound): Promise<boolean> {
  const query = bounded(where, bound);
  return (await run<{ found: boolean }>(em, filteredStatements.exists(query), query.params)).rows[0]!.found;
}

export async function countTransactions(em: EntityManager, where: TransactionWhere): Promise<number> {
  return (await run<{ count: number }>(em, filteredStatements.count(where), where.params)).rows[0]!.count;
}

/** Who a connection's transactions belong to, and the provider whose data they carry. */
export interface TransactionOwner {
  connectionId: string;
  profileId: string;
  provider: string;
}

/** The stored ids of the transactions a page added, modified and removed. */
export interface AppliedChanges {
  added: string[];
  modified: string[];
  removed: string[];
  /** Reported transactions not stored: the connection has no account with their `accountRemoteId`. */
  orphans: ProviderTransaction[];
}

/**
 * Applies a page of changes to a connection's transactions, in the caller's database transaction:
 * posted transactions take over their pending rows, then every reported transaction is inserted or
 * (when its content changed) updated, then `removals` (remote ids) are deleted. The rows travel as
 * one JSON parameter per statement, so a page costs the same few statements whatever its size. A
 * transaction of an account the connection does not have is returned among `orphans`, not stored.
 * Each stored transaction is enriched in the same statement, by the enricher `enricherOf` reads (only
 * for a page with something to store).
 */
export async function applyTransactionChanges(
  tx: EntityManager,
  owner: TransactionOwner,
  reported: ProviderTransaction[],
  removals: string[],
  enricherOf: () => Promise<Enricher>,
): Promise<AppliedChanges> {
  const changes: AppliedChanges = { added: [], modified: [], removed: [], orphans: [] };
  const accounts = await knownAccounts(tx, owner.connectionId, reported);
  const upserts = reported.filter((transaction) => accounts.has(transaction.accountRemoteId));
  changes.orphans.push(...reported.filter((transaction) => !accounts.has(transaction.accountRemoteId)));
  if (upserts.length > 0) {
    const takeovers = upserts.filter((transaction) => transaction.pendingRemoteId !== null);
    if (takeovers.length > 0) {
      await run(tx, transactionStatements.takeOverPending, [takeovers.map((posted) => posted.remoteId), takeovers.map((posted) => posted.pendingRemoteId), owner.connectionId]);
    }
    const enricher = await enricherOf();
    const rows = JSON.stringify(upserts.map((transaction) => pageRow(transaction, owner.provider, accounts.get(transaction.accountRemoteId)!, enricher)));
    const written = await run<{ id: string; inserted: boolean }>(tx, transactionStatements.upsert, [owner.profileId, owner.connectionId, rows]);
    // A taken-over pending row counts as modified: the upsert updates it (to POSTED).
    for (const { id, inserted } of written.rows) (inserted ? changes.added : changes.modified).push(id);
  }
  if (removals.length > 0) changes.removed = (await run<{ id: string }>(tx, transactionStatements.remove, [owner.connectionId, removals])).rows.map(({ id }) => id);
  return changes;
}

interface KnownAccount {
  kind: EnrichmentInput['accountKind'];
  currencyCode: string;
}

/** The connection's accounts that the reported transactions name, by remote id: a transaction of any other cannot be stored. */
async function knownAccounts(tx: EntityManager, connectionId: string, reported: ProviderTransaction[]): Promise<Map<string, KnownAccount>> {
  if (reported.length === 0) return new Map();
  const accountRemoteIds = [...new Set(reported.map((transaction) => transaction.accountRemoteId))];
  const { rows } = await run<KnownAccount & { remoteId: string }>(tx, transactionStatements.knownAccounts, [connectionId, accountRemoteIds]);
  return new Map(rows.map(({ remoteId, ...account }) => [remoteId, account]));
}

/** Every stored transaction of the connection dated from `start`, and every pending one. */
export async function storedFrom(em: EntityManager, connectionId: string, start: string): Promise<StoredTransaction[]> {
  return (await run<StoredTransaction>(em, transactionStatements.storedFrom, [connectionId, start])).rows;
}

/** A provider's own data as stored: under the provider's name, with the enrichment beside it. */
export function remoteDataFrom(provider: string, transaction: ProviderTransaction): Record<string, unknown> {
  return { [provider]: transaction.raw, ...(transaction.enrichment ? { enrichment: transaction.enrichment } : {}) };
}

/** The amount in the payment's own currency as stored: both or neither (an amount without its currency means nothing). */
export function originalOf({ originalAmount, originalCurrencyCode }: ProviderTransaction): { originalAmount: string | null; originalCurrencyCode: string | null } {
  return originalAmount && originalCurrencyCode ? { originalAmount, originalCurrencyCode } : { originalAmount: null, originalCurrencyCode: null };
}

function pageRow(transaction: ProviderTransaction, provider: string, account: KnownAccount, enricher: Enricher): PageRow {
  const { description, amount } = transaction;
  return {
    id: uuidv7(),
    remoteId: transaction.remoteId,
    accountRemoteId: transaction.accountRemoteId,
    date: transaction.date,
    description,
    amount,
    status: transaction.status,
    ...originalOf(transaction),
    remoteData: remoteDataFrom(provider, transaction),
    ...enricher({ description, amount, currencyCode: account.currencyCode, accountKind: account.kind, hints: providerHints(transaction.enrichment) }),
  };
}

/** A stored transaction as re-enrichment reads it: the pipeline's input, and what the write checks is unchanged. */
export interface EnrichmentSource {
  id: string;
  profileId: string;
  input: EnrichmentInput;
  readVersion: number;
  /** `remoteData.enrichment` as stored (null when the provider reported none). */
  hints: Record<string, unknown> | null;
}

/** Where a profile's keyset page of sources starts: after (date, id), newest first. */
export interface SourcePosition {
  date: string;
  id: string;
}

type InputRow = ReadRow<typeof TRANSACTION, (typeof INPUT)[number]> & { accountKind: EnrichmentInput['accountKind']; hints: Record<string, unknown> | null };

function toSource(row: InputRow): EnrichmentSource {
  const { id, profileId, description, amount, currencyCode, accountKind, hints, enrichmentVersion } = row;
  return { id, profileId, readVersion: enrichmentVersion, hints, input: { description, amount, currencyCode, accountKind, hints: providerHints(hints) } };
}

/** Up to `limit` transactions (any profile's) enriched below `version`, with ids after `afterId`, by id. */
export async function sourcesBehind(em: EntityManager, version: number, afterId: string, limit: number): Promise<EnrichmentSource[]> {
  return (await run<InputRow>(em, transactionStatements.inputsBehind, [afterId, version, limit])).rows.map(toSource);
}

/** Up to `limit` of a profile's transactions before `position` (all, when absent), newest first, each with its position. */
export async function sourcesOfProfile(em: EntityManager, profileId: string, position: SourcePosition | undefined, limit: number): Promise<Array<EnrichmentSource & { date: string }>> {
  const { date, id } = position ?? { date: 'infinity', id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' };
  const { rows } = await run<InputRow & { date: string }>(em, transactionStatements.inputsOfProfile, [profileId, date, id, limit]);
  return rows.map((row) => ({ ...toSource(row), date: row.date }));
}

/** The profile's transactions of `ids` as sources. */
export async function sourcesByIds(em: EntityManager, profileId: string, ids: string[]): Promise<EnrichmentSource[]> {
  return (await run<InputRow>(em, transactionStatements.inputsByIds, [ids, profileId])).rows.map(toSource);
}

/** Stores new enrichments of sources, each only if its row is still as it was read; returns how many rows changed. */
export async function writeEnrichments(em: EntityManager, enriched: Array<{ source: EnrichmentSource; enrichment: StoredEnrichment }>): Promise<number> {
  if (enriched.length === 0) return 0;
  const rows = enriched.map(({ source, enrichment }) => ({
    id: source.id,
    description: source.input.description,
    amount: source.input.amount,
    readVersion: source.readVersion,
    hints: source.hints,
    ...enrichment,
  }));
  return (await run(em, transactionStatements.writeEnrichments, [JSON.stringify(rows)])).count;
}

/** A correction the learned classifier trains on. */
export interface CorrectionRow {
  cleanDescription: string | null;
  description: string;
  merchantName: string | null;
  amount: string;
  categoryPrimary: string;
  categoryDetailed: string;
}

/** The profile's latest `limit` corrections (transactions whose category the user set). */
export async function corrections(em: EntityManager, profileId: string, limit: number): Promise<CorrectionRow[]> {
  return (await run<CorrectionRow>(em, transactionStatements.corrections, [profileId, limit])).rows;
}
