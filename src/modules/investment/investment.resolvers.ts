import type { HoldingConnectionResolvers, HoldingResolvers, InvestmentTransactionConnectionResolvers, InvestmentTransactionResolvers, QueryResolvers } from '../../../generated/graphql.ts';
import { encodeId } from '../../lib/ids.ts';
import type { AccountView } from '../account/account.entity.ts';
import type { SecurityRecord } from '../security/security.store.ts';
import { pageType } from '../transaction/transaction.resolvers.ts';
import { holdingPage, investmentTransactionPage } from './investment.query.ts';
import type { HoldingRecord, InvestmentTransactionRecord } from './investment.store.ts';

/** `Holding` fields from its row; its account and security come through the request's loaders. */
export const holdingType: HoldingResolvers = {
  id: (holding) => encodeId('holding', holding.id),
  accountId: (holding) => encodeId('account', holding.accountId),
  // Every holding has its account and its security (foreign keys).
  account: (holding, _args, { loaders }) => loaders.account.load(holding.accountId) as Promise<AccountView>,
  security: (holding, _args, { loaders }) => loaders.security.load(holding.securityId) as Promise<SecurityRecord>,
  at: (holding) => holding.createdAt,
};

export const investmentTransactionType: InvestmentTransactionResolvers = {
  id: (activity) => encodeId('investmentTransaction', activity.id),
  accountId: (activity) => encodeId('account', activity.accountId),
  account: (activity, _args, { loaders }) => loaders.account.load(activity.accountId) as Promise<AccountView>,
  security: (activity, _args, { loaders }) => (activity.securityId ? loaders.security.load(activity.securityId) : null),
  at: (activity) => activity.createdAt,
};

export const holdingConnectionType: HoldingConnectionResolvers = pageType<HoldingRecord>();
export const investmentTransactionConnectionType: InvestmentTransactionConnectionResolvers = pageType<InvestmentTransactionRecord>();

export const holdingsQuery: NonNullable<QueryResolvers['holdings']> = (_root, args, { em, profileId }) => holdingPage(em, profileId, args);

export const investmentTransactionsQuery: NonNullable<QueryResolvers['investmentTransactions']> = (_root, args, { em, profileId }) =>
  investmentTransactionPage(em, profileId, args);
