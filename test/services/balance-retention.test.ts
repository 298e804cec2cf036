import { describe, expect, it } from 'vitest';
import { removeExpiredBalances } from '../../src/modules/balance/balance-retention.ts';
import type { AccountEntity } from '../../src/modules/account/account.entity.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

/*
 * Balance retention: what was taken before the horizon goes, in bounded deletes (batches of 2
 * accounts and 3 balances here, so every loop turns), except the balance each account names as its
 * latest, however old.
 */

let db: TestDatabase;
let build: Builders;

withServiceTier((tier) => ({ db, build } = tier));

const HORIZON = new Date('2026-01-01T00:00:00Z');
const day = (date: string) => new Date(`${date}T12:00:00Z`);

async function balancesOf(account: AccountEntity): Promise<string[]> {
  return (await db.sql(`select to_char(at, 'YYYY-MM-DD') as day from balance where profile_id = $1 and account_id = $2 order by at`, [account.profile.id, account.id])).map((row) => row.day);
}

describe('balance retention', () => {
  it('removes the balances taken before the horizon, keeps every later one and each account\'s latest whatever its age', async () => {
    // An active account: eight balances before the horizon, two after, the newest its latest.
    const active = await build.account();
    for (const date of ['2025-03-01', '2025-04-01', '2025-05-01', '2025-06-01', '2025-07-01', '2025-08-01', '2025-09-01', '2025-10-01', '2026-02-01']) {
      await build.balance({ account: active, at: day(date), latest: false });
    }
    await build.balance({ account: active, at: day('2026-03-01') });
    // A quiet account: its only balances are old; the newest is its latest and stays.
    const quiet = await build.account();
    await build.balance({ account: quiet, at: day('2024-01-01'), latest: false });
    await build.balance({ account: quiet, at: day('2024-06-01') });
    // Accounts of other profiles: one with nothing old, one without a balance.
    const recent = await build.account();
    await build.balance({ account: recent, at: day('2026-04-01') });
    const empty = await build.account();

    const removed = await removeExpiredBalances(db.em(), HORIZON, { accounts: 2, balances: 3 });

    expect(removed).toBe(9);
    expect(await balancesOf(active)).toEqual(['2026-02-01', '2026-03-01']);
    expect(await balancesOf(quiet)).toEqual(['2024-06-01']);
    expect(await balancesOf(recent)).toEqual(['2026-04-01']);
    expect(await balancesOf(empty)).toEqual([]);
    // Every account still finds the balance it names.
    const dangling = await db.sql(`select a.id from account a where a.latest_balance_id is not null and not exists (select 1 from balance b where b.profile_id = a.profile_id and b.id = a.latest_balance_id)`);
    expect(dangling).toEqual([]);
  });

  it('removes nothing more when run again', async () => {
    expect(await removeExpiredBalances(db.em(), HORIZON, { accounts: 2, balances: 3 })).toBe(0);
  });
});
