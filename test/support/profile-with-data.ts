import { encodeId } from '../../src/lib/ids.ts';
import type { AccountKind } from '../../src/modules/account/account.entity.ts';
import { builders } from './builders.ts';
import type { TestApp } from './test-app.ts';

/** A latest balance per kind of account, signed from the holder's view (owed amounts and card limits negative). */
const BALANCES: Record<AccountKind, { current: string; available: string | null; limit: string | null }> = {
  DEPOSITORY: { current: '2500.10', available: '2450.00', limit: null },
  CREDIT: { current: '-2134.34', available: '2865.66', limit: '-5000.00' },
  LOAN: { current: '-215400.00', available: null, limit: null },
  INVESTMENT: { current: '48210.55', available: null, limit: null },
};

/**
 * A sandbox connection (First Platypus) of the profile (stored uuid) as its first sync leaves it,
 * built rather than synced: its five accounts with a latest balance each, and `transactions`
 * transactions (one a day, spread over the accounts, every fifth one money in, exact to the cent).
 * Returns the connection's public id.
 */
export async function connectionWithData(app: TestApp, profileId: string, transactions = 300): Promise<string> {
  const build = builders(app);
  const { connection, accounts } = await build.sandboxConnection({ profile: { id: profileId } });
  for (const account of accounts) await build.balance({ account, ...BALANCES[account.kind] });
  await build.transactions(
    Array.from({ length: transactions }, (_, i) => ({
      account: accounts[i % accounts.length]!,
      amount: i % 5 === 0 ? `${1000 + i}.25` : `-${(i % 97) + 1}.${String(i % 100).padStart(2, '0')}`,
      description: i % 5 === 0 ? 'Payroll' : 'Corner Grocery',
    })),
  );
  return encodeId('connection', connection.id);
}

/** A new profile (with this metadata) and a connection with data (connectionWithData). */
export async function profileWithData(app: TestApp, options: { metadata?: Record<string, string> | null } = {}) {
  const profile = await builders(app).profile({ metadata: options.metadata ?? null });
  const connectionId = await connectionWithData(app, profile.id);
  return { profile: { id: encodeId('profile', profile.id), uuid: profile.uuid }, connectionId };
}
