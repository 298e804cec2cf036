import type { QueryResolvers, RecurringStreamConnectionResolvers, RecurringStreamResolvers } from '../../../generated/graphql.ts';
import { encodeId } from '../../lib/ids.ts';
import type { AccountView } from '../account/account.entity.ts';
import { pageType, selectedPage } from '../transaction/transaction.resolvers.ts';
import { recurringStreamPage, streamTransactionPage } from './recurring.query.ts';
import type { RecurringStreamRecord } from './recurring.store.ts';

/** `RecurringStream` fields from its row; its account through the request's loader, its transactions as a page of their own. */
export const recurringStreamType: RecurringStreamResolvers = {
  id: (stream) => encodeId('recurringStream', stream.id),
  // Every stream has its account (foreign key, cascading).
  account: (stream, _args, { loaders }) => loaders.account.load(stream.accountId) as Promise<AccountView>,
  isActive: (stream) => stream.status !== 'ENDED',
  transactions: (stream, args, { em, profileId }, info) => selectedPage((columns) => streamTransactionPage(em, profileId, stream.id, args, columns), info),
};

export const recurringStreamConnectionType: RecurringStreamConnectionResolvers = pageType<RecurringStreamRecord>();

export const recurringStreamsQuery: NonNullable<QueryResolvers['recurringStreams']> = (_root, args, { em, profileId }) => recurringStreamPage(em, profileId, args);
