import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { JobDefinition } from '../../jobs/queue.ts';
import { accountsAfter, removeOlderBalances } from './balance.store.ts';
import { DAY_MS } from '../../lib/dates.ts';

export const BALANCE_RETENTION = 'balance.retention';

/** How much one statement of the sweep touches: accounts per round, balances per delete (each its own short transaction). */
export interface RetentionBatches {
  accounts: number;
  balances: number;
}

const BATCHES: RetentionBatches = { accounts: 500, balances: 5_000 };

/**
 * Daily, removes the balances taken more than BALANCE_RETENTION_DAYS ago; the balance an account
 * names as its latest stays whatever its age (docs/decisions/balances-retention.md). pg-boss runs
 * one sweep per tick across instances.
 */
export function balanceRetentionJob(orm: MikroORM, retentionDays: number, now: () => Date = () => new Date()): JobDefinition<object> {
  return {
    name: BALANCE_RETENTION,
    cron: '23 3 * * *',
    handle: async () => {
      await removeExpiredBalances(orm.em.fork(), new Date(now().getTime() - retentionDays * DAY_MS));
    },
  };
}

/**
 * Walks every account by id, and removes its balances taken before `before` but its latest, in
 * bounded deletes (autocommitted one by one: no long transaction, no long row locks, and a sweep
 * stopped halfway has kept what it did). Resolves to how many balances it removed.
 */
export async function removeExpiredBalances(em: EntityManager, before: Date, batches: RetentionBatches = BATCHES): Promise<number> {
  let removed = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const accounts = await accountsAfter(em, after, batches.accounts);
    if (accounts.length === 0) return removed;
    for (;;) {
      const count = await removeOlderBalances(em, accounts, before, batches.balances);
      removed += count;
      if (count < batches.balances) break;
    }
    after = accounts.at(-1)!;
    if (accounts.length < batches.accounts) return removed;
  }
}
