import type { Resolvers } from '../../generated/graphql.ts';
import { notImplemented } from '../errors.ts';
import { Profile } from '../modules/profile/profile.entity.ts';
import { presentProfile } from '../modules/profile/profile.presenter.ts';
import { scalars } from './scalars.ts';

const pending = (field: string) => () => {
  throw notImplemented(`GraphQL field ${field}`);
};

/** Root resolvers; each acts on the authenticated profile only. */
export const resolvers: Resolvers = {
  ...scalars,
  Query: {
    profile: async (_root, _args, { em, profileId, cipher }) => presentProfile(await em.findOneOrFail(Profile, { id: profileId }), cipher),
    account: pending('account'),
    accounts: pending('accounts'),
    connection: pending('connection'),
    connections: pending('connections'),
    transaction: pending('transaction'),
    transactions: pending('transactions'),
  },
  Mutation: {
    profileUpdate: pending('profileUpdate'),
    connectionUpdate: pending('connectionUpdate'),
    accountUpdate: pending('accountUpdate'),
    transactionUpdate: pending('transactionUpdate'),
  },
};
