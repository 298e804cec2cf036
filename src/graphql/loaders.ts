import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { Account, type AccountEntity, type AccountView } from '../modules/account/account.entity.ts';
import { Balance, type BalanceEntity } from '../modules/balance/balance.entity.ts';
import { Connection, type ConnectionEntity } from '../modules/connection/connection.entity.ts';

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
    account: new DataLoader<string, AccountView | null>(async (ids) => {
      const rows = await em.execute<Array<AccountRow>>(
        `select id, connection_id, name, name_override, kind, subtype, state, verified, mask, currency_code, latest_balance_id, metadata, created_at
           from account where id = any(?::uuid[]) and profile_id = ?`,
        [`{${ids.join(',')}}`, profileId],
      );
      return byId(ids, rows.map(toAccountView));
    }),
    connection: new DataLoader<string, ConnectionEntity | null>(async (ids) => byId(ids, await em.find(Connection, { id: [...ids], profile: profileId }))),
    balance: new DataLoader<string, BalanceEntity | null>(async (ids) => byId(ids, await em.find(Balance, { id: [...ids], profile: profileId }))),
    remoteData: new DataLoader<string, Record<string, unknown>>(async (ids) => {
      const rows = await em.execute<Array<{ id: string; remote_data: Record<string, unknown> }>>('select id, remote_data from transaction where id = any(?::uuid[]) and profile_id = ?', [
        `{${ids.join(',')}}`,
        profileId,
      ]);
      const found = new Map(rows.map((row) => [row.id, row.remote_data]));
      return ids.map((id) => found.get(id) ?? {});
    }),
    accountsOfConnection: new DataLoader<string, AccountEntity[]>(async (connectionIds) => {
      const accounts = await em.find(Account, { connection: [...connectionIds], profile: profileId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
      return connectionIds.map((id) => accounts.filter((account) => account.connection.id === id));
    }),
  };
}

interface AccountRow {
  id: string;
  connection_id: string;
  name: string;
  name_override: string | null;
  kind: AccountView['kind'];
  subtype: string | null;
  state: AccountView['state'];
  verified: boolean;
  mask: string | null;
  currency_code: string;
  latest_balance_id: string | null;
  metadata: AccountView['metadata'];
  created_at: string | Date;
}

function toAccountView(row: AccountRow): AccountView {
  return {
    id: row.id,
    connection: { id: row.connection_id },
    name: row.name,
    nameOverride: row.name_override,
    kind: row.kind,
    subtype: row.subtype,
    state: row.state,
    verified: row.verified,
    mask: row.mask,
    currencyCode: row.currency_code,
    latestBalanceId: row.latest_balance_id,
    metadata: row.metadata,
    createdAt: new Date(row.created_at),
  };
}
