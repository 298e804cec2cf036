import type { EntityManager } from '@mikro-orm/postgresql';
import type { QueryTransactionsArgs, TransactionSort as Sort } from '../../../generated/graphql.ts';
import { badUserInput } from '../../errors.ts';
import { readCursor, writeCursor, type Position } from './transaction-cursor.ts';
import { countTransactions, transactionRecords, transactionsExist, transactionWhere, type KeysetBound, type PageField, type TransactionRecord } from './transaction.store.ts';

/** The transactions query's arguments, with the sort resolved (DATE_DESC when absent). */
export type PageRequest = QueryTransactionsArgs & { sort: Sort };

/** Relay paging arguments with the sort resolved. */
export interface KeysetRequest {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  sort: Sort;
}

/** One page, with the parts that cost a query of their own computed only when selected. */
export interface KeysetPage<R> {
  records: R[];
  cursorOf(record: R): string;
  count(): Promise<number>;
  hasNextPage(): Promise<boolean>;
  hasPreviousPage(): Promise<boolean>;
}

export type TransactionPage = KeysetPage<TransactionRecord>;
/** Any page, as its PageInfo reads it. */
export type AnyPage = KeysetPage<unknown>;

/** What a keyset page reads: records past a (date, id) bound in either order, whether any exist, how many match. */
export interface KeysetSource<R> {
  records(bound: KeysetBound | undefined, order: 'asc' | 'desc', limit: number): Promise<R[]>;
  exists(bound?: KeysetBound): Promise<boolean>;
  count(): Promise<number>;
  positionOf(record: R): Position;
}

const DEFAULT_PAGE = 25;
const MAX_PAGE = 100;

/**
 * Reads one page of a profile's transactions: keyset pagination on (date, id) in the requested
 * direction, every filter of the schema's TransactionFilter as SQL (exact numeric comparisons),
 * served by the (profile_id, date, id) index. Its records hold only `fields` (all by default).
 */
export async function transactionPage(em: EntityManager, profileId: string, request: PageRequest, fields?: readonly PageField[]): Promise<TransactionPage> {
  const where = transactionWhere(profileId, request.filter ?? {});
  return keysetPage(request, {
    records: (bound, order, limit) => transactionRecords(em, where, bound, order, limit, fields),
    exists: (bound) => transactionsExist(em, where, bound),
    count: () => countTransactions(em, where),
    positionOf: (record) => record,
  });
}

/**
 * One Relay page of any list keyed on (date, id): the `transactions` rules (first/after forwards,
 * last/before backwards, 25 by default, at most 100, cursors of one sort order only).
 */
export async function keysetPage<R>(request: KeysetRequest, source: KeysetSource<R>): Promise<KeysetPage<R>> {
  const { first, after, last, before, sort } = request;
  if ((first ?? 0) < 0 || (last ?? 0) < 0) throw badUserInput('first and last must not be negative');
  if (first != null && (last != null || before != null)) throw badUserInput('first cannot be combined with last or before: page forwards with first/after, backwards with last/before');
  if (last != null && after != null) throw badUserInput('last cannot be combined with after: page backwards with last/before');
  const backwards = last != null || before != null;
  const size = Math.min(MAX_PAGE, (backwards ? last : first) ?? DEFAULT_PAGE);
  const cursor = backwards ? before : after;
  const position = cursor == null ? undefined : readCursor(cursor, sort);

  const descending = sort === 'DATE_DESC' !== backwards;
  /** Records on one side of a position, in sort order: `after` comes later in the walk, `before` earlier. */
  const keyset = (at: Position, side: 'after' | 'before' | 'notAfter' | 'notBefore'): KeysetBound => ({ operator: (sort === 'DATE_DESC' ? KEYSET_DESC : KEYSET_ASC)[side], date: at.date, id: at.id });
  const rows = size === 0 ? [] : await source.records(position && keyset(position, backwards ? 'before' : 'after'), descending ? 'desc' : 'asc', size + 1);
  const more = rows.length > size;
  const records = rows.slice(0, size);
  if (backwards) records.reverse();

  // The far side of the page is known from the extra row fetched; the near side (behind the
  // cursor) and empty pages take one EXISTS query, run only when the field is selected.
  const behindCursor = () => (position ? source.exists(keyset(position, backwards ? 'notBefore' : 'notAfter')) : Promise.resolve(false));
  const ahead = () => (size > 0 ? Promise.resolve(more) : source.exists(position && keyset(position, backwards ? 'before' : 'after')));
  return {
    records,
    cursorOf: (record) => writeCursor(sort, source.positionOf(record)),
    count: () => source.count(),
    hasNextPage: () => (backwards ? behindCursor() : ahead()),
    hasPreviousPage: () => (backwards ? ahead() : behindCursor()),
  };
}

const KEYSET_DESC = { after: '<', before: '>', notAfter: '>=', notBefore: '<=' } as const;
const KEYSET_ASC = { after: '>', before: '<', notAfter: '<=', notBefore: '>=' } as const;
