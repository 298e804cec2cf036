import type { LiabilityResolvers } from '../../../generated/graphql.ts';

export const liabilityType: LiabilityResolvers = {
  // Read as PostgreSQL's text of a timestamptz: the contract's DateTime is ISO 8601 in UTC.
  updatedAt: (liability) => new Date(liability.updatedAt),
};
