import type { EntityManager } from '@mikro-orm/postgresql';
import { col, table } from '../../db/table.ts';
import { Balance, BALANCE_SOURCES, type BalanceEntity } from './balance.entity.ts';

/**
 * The balance table as plain SQL writes it (the seed's COPY); checked against the entity by
 * test/stores.test.ts. The service writes balances through the ORM.
 */
export const BALANCE = table('balance', {
  id: col.uuid(),
  accountId: col.uuid(),
  profileId: col.uuid(),
  at: col.timestamp(),
  source: col.oneOf(BALANCE_SOURCES),
  available: col.money().orNull(),
  current: col.money().orNull(),
  limit: col.money().orNull(),
  currencyCode: col.text(),
});

/** The profile's balances with these ids, by id (accounts name their latest). */
export async function balancesById(em: EntityManager, profileId: string, ids: readonly string[]): Promise<Map<string, BalanceEntity>> {
  if (ids.length === 0) return new Map();
  return new Map((await profileBalances(em, profileId, ids)).map((balance) => [balance.id, balance]));
}

/** The profile's balances with these ids. */
export function profileBalances(em: EntityManager, profileId: string, ids: readonly string[]): Promise<BalanceEntity[]> {
  return em.find(Balance, { id: [...ids], profile: profileId });
}
