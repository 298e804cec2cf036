import type { EntityManager } from '@mikro-orm/postgresql';
import type { QueryHoldingsArgs, QueryInvestmentTransactionsArgs } from '../../../generated/graphql.ts';
import { keysetPage, type KeysetPage } from '../transaction/transaction.query.ts';
import {
  activityExists,
  activityRecords,
  activityWhere,
  countActivity,
  countHoldings,
  holdingRecords,
  holdingsExist,
  holdingWhere,
  type HoldingRecord,
  type InvestmentTransactionRecord,
} from './investment.store.ts';

export type HoldingPage = KeysetPage<HoldingRecord>;
export type InvestmentTransactionPage = KeysetPage<InvestmentTransactionRecord>;

/** One page of the profile's holdings in order of recording (keyed on the day recorded and the id), as `transactions` pages. */
export function holdingPage(em: EntityManager, profileId: string, args: QueryHoldingsArgs): Promise<HoldingPage> {
  const where = holdingWhere(profileId, args.filter ?? {});
  return keysetPage({ ...args, sort: 'DATE_ASC' }, {
    records: (bound, order, limit) => holdingRecords(em, where, bound, order, limit),
    exists: (bound) => holdingsExist(em, where, bound),
    count: () => countHoldings(em, where),
    positionOf: (holding) => holding,
  });
}

/** One page of the profile's investment transactions by (date, id) in the requested order, as `transactions` pages. */
export function investmentTransactionPage(em: EntityManager, profileId: string, args: QueryInvestmentTransactionsArgs): Promise<InvestmentTransactionPage> {
  const where = activityWhere(profileId, args.filter ?? {});
  return keysetPage({ ...args, sort: args.sort ?? 'DATE_DESC' }, {
    records: (bound, order, limit) => activityRecords(em, where, bound, order, limit),
    exists: (bound) => activityExists(em, where, bound),
    count: () => countActivity(em, where),
    positionOf: (activity) => activity,
  });
}
