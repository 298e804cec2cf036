import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import type { FieldCipher } from '../lib/field-cipher.ts';
import type { AccountEntity, AccountView } from '../modules/account/account.entity.ts';
import { accountsOfConnections } from '../modules/account/account.store.ts';
import { accountViews } from '../modules/account/account.store.ts';
import type { BalanceEntity } from '../modules/balance/balance.entity.ts';
import { profileBalances } from '../modules/balance/balance.store.ts';
import type { ConnectionEntity } from '../modules/connection/connection.entity.ts';
import { profileConnections } from '../modules/connection/connection.store.ts';
import { holdingsOfAccounts, type HoldingRecord } from '../modules/investment/investment.store.ts';
import { liabilitiesOfAccounts, type LiabilityRecord } from '../modules/liability/liability.store.ts';
import { ownersOfAccounts } from '../modules/owner/account-owners.store.ts';
import type { ProfileIdentity } from '../modules/owner/match/owner-match.ts';
import { profileIdentity } from '../modules/owner/profile-identity.ts';
import type { ProviderOwner } from '../providers/provider-owners.ts';
import { securitiesByIds, type SecurityRecord } from '../modules/security/security.store.ts';
import { statementsOfAccounts, type StatementRecord } from '../modules/statement/statement.store.ts';
import { remoteDataByIds } from '../modules/transaction/transaction.store.ts';

export type Loaders = ReturnType<typeof createLoaders>;

/**
 * Per-request batch loaders, each scoped to the acting profile: however many transactions a page
 * holds, their accounts (and those accounts' balances and connections, holdings, liabilities,
 * owners, and the securities they name) cost one query each. Owners and the profile's own identity
 * are decrypted with `cipher` only when a field asks for them.
 */
export function createLoaders(em: EntityManager, credential: { profileId: string; environmentId: string }, cipher: FieldCipher) {
  const { profileId, environmentId } = credential;
  const byId = <T extends { id: string }>(ids: readonly string[], rows: T[]) => {
    const found = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => found.get(id) ?? null);
  };
  return {
    // The hot path (every transaction's account): plain rows, no entity hydration.
    account: new DataLoader<string, AccountView | null>(async (ids) => byId(ids, await accountViews(em, profileId, ids))),
    connection: new DataLoader<string, ConnectionEntity | null>(async (ids) => byId(ids, await profileConnections(em, profileId, ids))),
    balance: new DataLoader<string, BalanceEntity | null>(async (ids) => byId(ids, await profileBalances(em, profileId, ids))),
    remoteData: new DataLoader<string, Record<string, unknown>>((ids) => remoteDataByIds(em, profileId, ids)),
    accountsOfConnection: new DataLoader<string, AccountEntity[]>(async (connectionIds) => {
      const accounts = await accountsOfConnections(em, profileId, connectionIds);
      return connectionIds.map((id) => accounts.filter((account) => account.connection.id === id));
    }),
    // Reference data, shared by every profile: what a profile can reach of it is what its holdings and activity name.
    security: new DataLoader<string, SecurityRecord | null>(async (ids) => byId(ids, await securitiesByIds(em, ids))),
    holdingsOfAccount: new DataLoader<string, HoldingRecord[]>(async (accountIds) => {
      const holdings = await holdingsOfAccounts(em, profileId, accountIds);
      return accountIds.map((id) => holdings.filter((holding) => holding.accountId === id));
    }),
    statementsOfAccount: new DataLoader<string, StatementRecord[]>(async (accountIds) => {
      const statements = await statementsOfAccounts(em, profileId, accountIds);
      return accountIds.map((id) => statements.filter((statement) => statement.accountId === id));
    }),
    liabilityOfAccount: new DataLoader<string, LiabilityRecord | null>(async (accountIds) => {
      const liabilities = await liabilitiesOfAccounts(em, profileId, accountIds);
      return accountIds.map((id) => liabilities.find((liability) => liability.accountId === id) ?? null);
    }),
    ownersOfAccount: new DataLoader<string, ProviderOwner[]>(async (accountIds) => {
      const owners = await ownersOfAccounts(em, cipher, profileId, accountIds);
      return accountIds.map((id) => owners.get(id) ?? []);
    }),
    // One key, the acting profile: every account's owner match of a request reads it once.
    profileIdentity: new DataLoader<string, ProfileIdentity>((ids) => Promise.all(ids.map((id) => profileIdentity(em, cipher, id, environmentId)))),
  };
}
