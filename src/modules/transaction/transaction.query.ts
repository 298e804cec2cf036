import type { EntityManager } from '@mikro-orm/postgresql';
import type { QueryTransactionsArgs, TransactionSort as Sort } from '../../../generated/graphql.ts';
import { badUserInput } from '../../errors.ts';
import { readCursor, writeCursor, type Position } from './transaction-cursor.ts';
import { countTransactions, transactionRecords, transactionsExist, transactionWhere, type KeysetBound, type TransactionRecord } from './transaction.store.ts';

/** The transactions query's arguments, with the sort resolved (DATE_DESC when absent). */
export type PageRequest = QueryTransactionsArgs & { sort: Sort };

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

/**
 * Reads one page of a profile's transactions: keyset pagination on (date, id) in the requested
 * direction, every filter of the schema's TransactionFilter as SQL (exact numeric comparisons),
 * served by the (profile_id, date, id) index.
 */
export async function transactionPage(em: EntityManager, profileId: string, request: PageRequest): Promise<TransactionPage> {
  const { first, after, last, before, sort } = request;
  if ((first ?? 0) < 0 || (last ?? 0) < 0) throw badUserInput('first and last must not be negative');
  if (first != null && (last != null || before != null)) throw badUserInput('first cannot be combined with last or before: page forwards with first/after, backwards with last/before');
  if (last != null && after != null) throw badUserInput('last cannot be combined with after: page backwards with last/before');
  const backwards = last != null || before != null;
  const size = Math.min(MAX_PAGE, (backwards ? last : first) ?? DEFAULT_PAGE);
  const cursor = backwards ? before : after;
  const position = cursor == null ? undefined : readCursor(cursor, sort);

  const where = transactionWhere(profileId, request.filter ?? {});
  const descending = sort === 'DATE_DESC' !== backwards;
  /** Records on one side of a position, in sort order: `after` comes later in the walk, `before` earlier. */
  const keyset = (at: Position, side: 'after' | 'before' | 'notAfter' | 'notBefore'): KeysetBound => ({ operator: (sort === 'DATE_DESC' ? KEYSET_DESC : KEYSET_ASC)[side], ...at });
  const rows = size === 0 ? [] : await transactionRecords(em, where, position && keyset(position, backwards ? 'before' : 'after'), descending ? 'desc' : 'asc', size + 1);
  const more = rows.length > size;
  const records = rows.slice(0, size);
  if (backwards) records.reverse();

  // The far side of the page is known from the extra row fetched; the near side (behind the
  // cursor) and empty pages take one EXISTS query, run only when the field is selected.
  const behindCursor = () => (position ? transactionsExist(em, where, keyset(position, backwards ? 'notBefore' : 'notAfter')) : Promise.resolve(false));
  const ahead = () => (size > 0 ? Promise.resolve(more) : transactionsExist(em, where, position && keyset(position, backwards ? 'before' : 'after')));
  return {
    records,
    cursorOf: (record) => writeCursor(sort, { date: record.date, id: record.id }),
    count: () => countTransactions(em, where),
    hasNextPage: () => (backwards ? behindCursor() : ahead()),
    hasPreviousPage: () => (backwards ? ahead() : behindCursor()),
  };
}

const KEYSET_DESC = { after: '<', before: '>', notAfter: '>=', notBefore: '<=' } as const;
const KEYSET_ASC = { after: '>', before: '<', notAfter: '<=', notBefore: '>=' } as const;
