import type { AccountResolvers, BalanceResolvers, MutationResolvers, QueryResolvers } from '../../../generated/graphql.ts';
import { notFound } from '../../errors.ts';
import { mutationPayload, RecordNotFound } from '../../api-kit/mutation-payload.ts';
import { decodeId, encodeId } from '../../lib/ids.ts';
import type { PlainFields } from '../../api-kit/plain-fields.ts';
import type { AccountView } from './account.entity.ts';
import { matchesMetadata } from '../metadata/metadata-filter.ts';
import type { ConnectionEntity } from '../connection/connection.entity.ts';
import { accountOwnerFields } from '../owner/owner.resolvers.ts';
import { updateAccount } from './account.service.ts';
import { accountsOfProfile } from './account.store.ts';

/** `Account` fields computed from the stored entity or view alone, served as plain properties (src/graphql/plain-fields.ts). */
export const accountPlainFields: PlainFields<AccountView> = {
  id: (account) => encodeId('account', account.id),
  connectionId: (account) => encodeId('connection', account.connection.id),
  name: (account) => account.nameOverride ?? account.name,
  subtype: (account) => account.subtype ?? null,
  mask: (account) => account.mask ?? null,
  metadata: (account) => account.metadata ?? null,
  at: (account) => account.createdAt,
};

/** `Account` fields from other records: its balance and connection come through the request's loaders. */
export const accountType: AccountResolvers = {
  // The loader's own promise (no async wrapper: this runs once per transaction edge that selects it). Every account has its connection.
  connection: (account, _args, { loaders }) => loaders.connection.load(account.connection.id) as Promise<ConnectionEntity>,
  balance: (account, _args, { loaders }) => (account.latestBalanceId ? loaders.balance.load(account.latestBalanceId) : null),
  holdings: (account, _args, { loaders }) => loaders.holdingsOfAccount.load(account.id),
  liability: (account, _args, { loaders }) => loaders.liabilityOfAccount.load(account.id),
  ...accountOwnerFields,
  statements: (account, _args, { loaders }) => loaders.statementsOfAccount.load(account.id),
};

export const balanceType: BalanceResolvers = {
  id: (balance) => encodeId('balance', balance.id),
  accountId: (balance) => encodeId('account', balance.account.id),
  available: (balance) => balance.available ?? null,
  current: (balance) => balance.current ?? null,
  limit: (balance) => balance.limit ?? null,
};

export const accountQuery: NonNullable<QueryResolvers['account']> = async (_root, { id }, { loaders }) => {
  const uuid = decodeId('account', id);
  const account = uuid && (await loaders.account.load(uuid));
  if (!account) throw notFound('Account');
  return account;
};

/** A profile has a handful of accounts: they are read once and filtered here, in the schema's terms. */
export const accountsQuery: NonNullable<QueryResolvers['accounts']> = async (_root, { filter }, { em, profileId, loaders }) => {
  const accounts = await accountsOfProfile(em, profileId);
  const statuses = filter?.connectionStatus;
  const connections = statuses ? await loaders.connection.loadMany(accounts.map((account) => account.connection.id)) : [];
  return accounts.filter((account, index) => {
    if (filter?.kind && !filter.kind.includes(account.kind)) return false;
    if (filter?.verified != null && account.verified !== filter.verified) return false;
    if (filter && filter.metadata !== undefined && !matchesMetadata(account.metadata, filter.metadata)) return false;
    const connection = connections[index];
    return !statuses || (connection != null && !(connection instanceof Error) && statuses.includes(connection.status));
  });
};

/** Sets the display-name override and merges metadata (rules: `updateAccount`). */
export const accountUpdate: NonNullable<MutationResolvers['accountUpdate']> = (_root, { input }, { em, profileId }) =>
  mutationPayload(input, () => {
    const id = decodeId('account', input.id);
    if (!id) throw new RecordNotFound('Account');
    return updateAccount(em, profileId, id, input);
  });
