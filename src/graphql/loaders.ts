import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import type { AccountEntity, AccountView } from '../modules/account/account.entity.ts';
import { accountsOfConnections } from '../modules/account/account.store.ts';
import { accountViews } from '../modules/account/account.store.ts';
import type { BalanceEntity } from '../modules/balance/balance.entity.ts';
import { profileBalances } from '../modules/balance/balance.store.ts';
import type { ConnectionEntity } from '../modules/connection/connection.entity.ts';
import { profileConnections } from '../modules/connection/connection.store.ts';
import { remoteDataByIds } from '../modules/transaction/transaction.store.ts';

export type Loaders = ReturnType<typeof createLoaders>;

/**
 * Per-request batch loaders, each scoped to the acting profile: however many transactions a page
 * holds, their accounts (and those accounts' balances and connections) cost one query each.
 */
export function createLoaders(em: EntityManager, profileId: string) {
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
  };
}
