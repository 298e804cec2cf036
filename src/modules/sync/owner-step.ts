import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { ProviderAccountOwners } from '../../providers/provider-owners.ts';
import { presentAccount } from '../account/account.presenter.ts';
import { latestBalances } from '../account/account.service.ts';
import { accountsOfConnection } from '../account/account.store.ts';
import type { ConnectionEntity } from '../connection/connection.entity.ts';
import { connectionOrFail, keyOf } from '../connection/connection.store.ts';
import { recordEvent } from '../event/event.service.ts';
import { replaceOwners } from '../owner/account-owners.store.ts';

/**
 * Stores the owners of the connection's accounts as reported (encrypted, one value per account); an
 * `account.owners_verified` for each account whose owners arrived or changed, its record the
 * account as webhooks show it, without the owners. Owners of an account the connection does not
 * hold are dropped; an account reported without owners has none.
 */
export async function applyOwners(em: EntityManager, connection: ConnectionEntity, reported: ProviderAccountOwners[], cipher: FieldCipher): Promise<void> {
  await em.transactional(async (tx) => {
    const locked = await connectionOrFail(tx, keyOf(connection), { lock: true, profile: true });
    const accounts = new Map((await accountsOfConnection(tx, connection.id, connection.profile.id)).map((account) => [account.remoteId, account]));
    const owners = new Map(reported.flatMap(({ accountRemoteId, owners }) => {
      const account = accounts.get(accountRemoteId);
      return account && owners.length > 0 ? [[account.id, owners] as const] : [];
    }));
    const changed = await replaceOwners(tx, cipher, { profileId: connection.profile.id, connectionId: connection.id }, owners);
    const changedAccounts = [...accounts.values()].filter((account) => changed.includes(account.id));
    const balances = await latestBalances(tx, connection.profile.id, changedAccounts);
    for (const account of changedAccounts) {
      const balance = account.latestBalanceId ? balances.get(account.latestBalanceId) : undefined;
      recordEvent(tx, locked.environment.id, 'account.owners_verified', locked.profile, presentAccount(account, balance ?? null));
    }
  });
}
