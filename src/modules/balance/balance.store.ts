import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
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

/** The statements of the balance retention sweep (balance-retention.ts); test/stores.test.ts prepares each. */
export const balanceRetentionStatements = {
  // The sweep walks every account (environment-wide, by id): each round's balances are found by account.
  accounts: `select a.id from account a where a.id > $1 order by a.id limit $2`,
  // Up to $3 balances of the accounts ($1) older than $2, never the one an account names as its latest.
  removeOlder: `delete from balance b using (
       select d.profile_id, d.id from account a
         join balance d on d.profile_id = a.profile_id and d.account_id = a.id and d.at < $2
        where a.id = any($1::uuid[]) and d.id is distinct from a.latest_balance_id
        limit $3) doomed
      where b.profile_id = doomed.profile_id and b.id = doomed.id`,
};

/** Up to `limit` account ids after `afterId`, by id. */
export async function accountsAfter(em: EntityManager, afterId: string, limit: number): Promise<string[]> {
  return (await run<{ id: string }>(em, balanceRetentionStatements.accounts, [afterId, limit])).rows.map((row) => row.id);
}

/** Removes up to `limit` balances of the accounts taken before `before`, keeping each account's latest; resolves to how many. */
export async function removeOlderBalances(em: EntityManager, accountIds: string[], before: Date, limit: number): Promise<number> {
  return (await run(em, balanceRetentionStatements.removeOlder, [accountIds, before, limit])).count;
}
