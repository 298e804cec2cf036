import type { EntityManager } from '@mikro-orm/postgresql';
import type { QueryRecurringStreamsArgs, RecurringStreamTransactionsArgs } from '../../../generated/graphql.ts';
import { keysetPage, type KeysetPage, type TransactionPage } from '../transaction/transaction.query.ts';
import { countTransactions, transactionRecords, transactionsExist, transactionWhere, type PageField } from '../transaction/transaction.store.ts';
import { countStreams, streamRecords, streamsExist, streamWhere, type RecurringStreamRecord } from './recurring.store.ts';

export type RecurringStreamPage = KeysetPage<RecurringStreamRecord>;

/** One page of the profile's recurring streams, oldest first (by first date, then id), as `transactions` pages. */
export function recurringStreamPage(em: EntityManager, profileId: string, args: QueryRecurringStreamsArgs): Promise<RecurringStreamPage> {
  const where = streamWhere(profileId, args.filter ?? {});
  return keysetPage({ ...args, sort: 'DATE_ASC' }, {
    records: (bound, order, limit) => streamRecords(em, where, bound, order, limit),
    exists: (bound) => streamsExist(em, where, bound),
    count: () => countStreams(em, where),
    positionOf: (stream) => ({ date: stream.firstDate, id: stream.id }),
  });
}

/** One page of a stream's transactions: the profile's transactions that are members of it, paged as `transactions`. */
export function streamTransactionPage(em: EntityManager, profileId: string, streamId: string, args: RecurringStreamTransactionsArgs, columns?: readonly PageField[]): Promise<TransactionPage> {
  const where = transactionWhere(profileId, {});
  where.conditions.push(`exists (select 1 from recurring_stream_transaction m where m.profile_id = t.profile_id and m.transaction_id = t.id and m.stream_id = $${where.params.push(streamId)})`);
  return keysetPage({ ...args, sort: args.sort ?? 'DATE_DESC' }, {
    records: (bound, order, limit) => transactionRecords(em, where, bound, order, limit, columns),
    exists: (bound) => transactionsExist(em, where, bound),
    count: () => countTransactions(em, where),
    positionOf: (record) => record,
  });
}
