import type { Resolvers } from '../../generated/graphql.ts';
import { notImplemented } from '../errors.ts';
import { profileQuery, profileType, profileUpdate } from '../modules/profile/profile.resolvers.ts';
import { scalars } from './scalars.ts';

const pending = (field: string) => () => {
  throw notImplemented(`GraphQL field ${field}`);
};

/** Root resolvers; each acts on the authenticated profile only. */
export const resolvers: Resolvers = {
  ...scalars,
  Query: {
    profile: profileQuery,
    account: pending('account'),
    accounts: pending('accounts'),
    connection: pending('connection'),
    connections: pending('connections'),
    transaction: pending('transaction'),
    transactions: pending('transactions'),
  },
  Profile: profileType,
  Mutation: {
    profileUpdate,
    connectionUpdate: pending('connectionUpdate'),
    accountUpdate: pending('accountUpdate'),
    transactionUpdate: pending('transactionUpdate'),
  },
};
