import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest } from '../../errors.ts';
import { decodeId } from '../../lib/ids.ts';
import type { AccountKind } from '../account/account.entity.ts';
import type { Metadata } from '../metadata/metadata.ts';
import { checkMetadataFilter } from '../metadata/metadata-filter.ts';
import type { TransactionStatus } from './transaction.entity.ts';
import { readCursor, writeCursor, type Position } from './transaction-cursor.ts';

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
  metadata: Metadata | null;
  createdAt: Date;
}

export type Sort = 'DATE_DESC' | 'DATE_ASC';

export interface TransactionFilter {
  status?: TransactionStatus[] | null;
  entryType?: 'CREDIT' | 'DEBIT' | null;
  amount_gte?: string | null;
  amount_lte?: string | null;
  date_gte?: string | null;
  date_lte?: string | null;
  kind?: AccountKind[] | null;
  accountIds?: string[] | null;
  metadata?: Record<string, unknown> | null;
}

export interface PageRequest {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  sort: Sort;
  filter?: TransactionFilter | null;
}

/** One page, with the parts that cost a query of their own computed only when selected. */
export interface TransactionPage {
  records: TransactionRecord[];
  cursorOf(record: TransactionRecord): string;
  count(): Promise<number>;
  hasNextPage(): Promise<boolean>;
  hasPreviousPage(): Promise<boolean>;
}

const DEFAULT_PAGE = 25;
const MAX_PAGE = 100;
const COLUMNS = `t.id, t.account_id as "accountId", to_char(t.date, 'YYYY-MM-DD') as date, t.description, t.amount::text as amount, t.status,
  t.currency_code as "currencyCode", t.metadata, t.created_at as "createdAt"`;

/** One of the profile's transactions by id. */
export async function transactionById(em: EntityManager, profileId: string, id: string): Promise<TransactionRecord | undefined> {
  const [row] = await em.execute<TransactionRecord[]>(`select ${COLUMNS} from transaction t where t.id = ? and t.profile_id = ?`, [id, profileId]);
  if (row) row.createdAt = new Date(row.createdAt);
  return row;
}

/**
 * Reads one page of a profile's transactions: keyset pagination on (date, id) in the requested
 * direction, every filter of the schema's TransactionFilter as SQL (exact numeric comparisons),
 * served by the (profile_id, date, id) index.
 */
export async function transactionPage(em: EntityManager, profileId: string, request: PageRequest): Promise<TransactionPage> {
  const { first, after, last, before, sort } = request;
  if ((first ?? 0) < 0 || (last ?? 0) < 0) throw badRequest('first and last must not be negative');
  if (first != null && (last != null || before != null)) throw badRequest('first cannot be combined with last or before: page forwards with first/after, backwards with last/before');
  if (last != null && after != null) throw badRequest('last cannot be combined with after: page backwards with last/before');
  const backwards = last != null || before != null;
  const size = Math.min(MAX_PAGE, (backwards ? last : first) ?? DEFAULT_PAGE);
  const cursor = backwards ? before : after;
  const position = cursor == null ? undefined : readCursor(cursor, sort);

  const where = filterSql(profileId, request.filter ?? {});
  const descending = sort === 'DATE_DESC' !== backwards;
  /** Records on one side of a position, in sort order: `after` comes later in the walk, `before` earlier. */
  const keyset = (at: Position, side: 'after' | 'before' | 'notAfter' | 'notBefore') => {
    const operator = (sort === 'DATE_DESC' ? KEYSET_DESC : KEYSET_ASC)[side];
    return { sql: `(t.date, t.id) ${operator} (?::date, ?::uuid)`, params: [at.date, at.id] };
  };
  const exists = async (bound?: { sql: string; params: unknown[] }) => {
    const [row] = await em.execute<Array<{ found: boolean }>>(
      `select exists (select 1 from transaction t where ${[...where.conditions, ...(bound ? [bound.sql] : [])].join(' and ')}) as found`,
      [...where.params, ...(bound?.params ?? [])],
    );
    return row!.found;
  };
  const conditions = [...where.conditions];
  const params = [...where.params];
  if (position) {
    const bound = keyset(position, backwards ? 'before' : 'after');
    conditions.push(bound.sql);
    params.push(...bound.params);
  }
  const order = descending ? 'desc' : 'asc';
  const rows =
    size === 0
      ? []
      : await em.execute<TransactionRecord[]>(
          `select ${COLUMNS} from transaction t where ${conditions.join(' and ')} order by t.date ${order}, t.id ${order} limit ?`,
          [...params, size + 1],
        );
  const more = rows.length > size;
  const records = rows.slice(0, size);
  if (backwards) records.reverse();
  for (const record of records) record.createdAt = new Date(record.createdAt);

  // The far side of the page is known from the extra row fetched; the near side (behind the
  // cursor) and empty pages take one EXISTS query, run only when the field is selected.
  const behindCursor = () => (position ? exists(keyset(position, backwards ? 'notBefore' : 'notAfter')) : Promise.resolve(false));
  const ahead = () => (size > 0 ? Promise.resolve(more) : exists(position && keyset(position, backwards ? 'before' : 'after')));
  return {
    records,
    cursorOf: (record) => writeCursor(sort, { date: record.date, id: record.id }),
    count: async () => {
      const [row] = await em.execute<Array<{ count: number }>>(`select count(*)::int as count from transaction t where ${where.conditions.join(' and ')}`, where.params);
      return row!.count;
    },
    hasNextPage: () => (backwards ? behindCursor() : ahead()),
    hasPreviousPage: () => (backwards ? ahead() : behindCursor()),
  };
}

const KEYSET_DESC = { after: '<', before: '>', notAfter: '>=', notBefore: '<=' } as const;
const KEYSET_ASC = { after: '>', before: '<', notAfter: '<=', notBefore: '>=' } as const;

/** The filter as SQL conditions on `transaction t`, always scoped to the profile. */
function filterSql(profileId: string, filter: TransactionFilter): { conditions: string[]; params: unknown[] } {
  const conditions = ['t.profile_id = ?'];
  const params: unknown[] = [profileId];
  const add = (sql: string, ...values: unknown[]) => {
    conditions.push(sql);
    params.push(...values);
  };
  const list = (values: readonly string[]) => `{${values.map((value) => JSON.stringify(value)).join(',')}}`;
  if (filter.status) add('t.status = any(?::text[])', list(filter.status));
  if (filter.entryType) conditions.push(filter.entryType === 'DEBIT' ? 't.amount < 0' : 't.amount >= 0');
  if (filter.amount_gte != null) add('t.amount >= ?::numeric', filter.amount_gte);
  if (filter.amount_lte != null) add('t.amount <= ?::numeric', filter.amount_lte);
  if (filter.date_gte != null) add('t.date >= ?::date', filter.date_gte);
  if (filter.date_lte != null) add('t.date <= ?::date', filter.date_lte);
  if (filter.kind) add('exists (select 1 from account a where a.id = t.account_id and a.kind = any(?::text[]))', list(filter.kind));
  if (filter.accountIds) {
    const ids = filter.accountIds.map((id) => decodeId('account', id)).filter((id) => id !== undefined);
    add('t.account_id = any(?::uuid[])', list(ids));
  }
  if (filter.metadata === null) conditions.push('t.metadata is null');
  else if (filter.metadata && Object.keys(checkMetadataFilter(filter.metadata)).length > 0) add('t.metadata @> ?::jsonb', JSON.stringify(filter.metadata));
  return { conditions, params };
}
