import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
import { col, table } from '../../db/table.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { ProviderOwner } from '../../providers/provider-owners.ts';

/** The account_owners table as its SQL reads and writes it (checked against the entity by test/services/stores.test.ts). */
export const ACCOUNT_OWNERS = table('account_owners', {
  profileId: col.uuid(),
  id: col.uuid(),
  connectionId: col.uuid(),
  accountId: col.uuid(),
  ownersEncrypted: col.text(),
  verifiedAt: col.timestamp(),
  updatedAt: col.timestamp(),
});

/** The field name the owners' ciphertext is bound to (with the row's id), as src/db/reencrypt.ts lists it. */
export const OWNERS_FIELD = 'accountOwners';

const STORED = ACCOUNT_OWNERS.select(['id', 'accountId', 'ownersEncrypted'], 'o');

/** The statements of the account_owners table; test/services/stores.test.ts prepares each. */
export const accountOwnersStatements = {
  ofConnection: `select ${STORED} from account_owners o where o.profile_id = $1 and o.connection_id = $2`,
  ofAccounts: `select ${STORED} from account_owners o where o.profile_id = $1 and o.account_id = any($2::uuid[])`,
  insert: `insert into account_owners (${ACCOUNT_OWNERS.list(['profileId', 'id', 'connectionId', 'accountId', 'ownersEncrypted', 'verifiedAt', 'updatedAt'])})
     values ($1, $2, $3, $4, $5, now(), now())`,
  update: `update account_owners set owners_encrypted = $3, updated_at = now() where profile_id = $1 and id = $2`,
  // Accounts the upstream no longer reports owners of ($3: the accounts it does) have none.
  removeUnreported: `delete from account_owners where profile_id = $1 and connection_id = $2 and account_id <> all($3::uuid[])`,
};

interface StoredRow {
  id: string;
  accountId: string;
  ownersEncrypted: string;
}

/** An account's stored owners: the row's id and the owners as their JSON text, decrypted. */
export interface StoredOwners {
  id: string;
  json: string;
}

/**
 * Makes the connection's stored owners what the upstream reports (`reported`: account id to its
 * owners, every account with at least one) in the caller's transaction, each account's list one
 * FieldCipher value bound to its row. The ids of the accounts whose owners arrived or changed.
 */
export async function replaceOwners(tx: EntityManager, cipher: FieldCipher, key: { profileId: string; connectionId: string }, reported: ReadonlyMap<string, ProviderOwner[]>): Promise<string[]> {
  const stored = await storedOwners(tx, cipher, accountOwnersStatements.ofConnection, [key.profileId, key.connectionId]);
  const changed: string[] = [];
  for (const [accountId, owners] of reported) {
    const json = JSON.stringify(owners);
    const current = stored.get(accountId);
    if (current?.json === json) continue;
    const id = current?.id ?? uuidv7();
    const encrypted = cipher.encrypt(OWNERS_FIELD, { id }, json);
    if (current) await run(tx, accountOwnersStatements.update, [key.profileId, id, encrypted]);
    else await run(tx, accountOwnersStatements.insert, [key.profileId, id, key.connectionId, accountId, encrypted]);
    changed.push(accountId);
  }
  await run(tx, accountOwnersStatements.removeUnreported, [key.profileId, key.connectionId, [...reported.keys()]]);
  return changed;
}

/** The owners of the profile's accounts with these ids, by account id; an account without any is absent. */
export async function ownersOfAccounts(em: EntityManager, cipher: FieldCipher, profileId: string, accountIds: readonly string[]): Promise<Map<string, ProviderOwner[]>> {
  const stored = await storedOwners(em, cipher, accountOwnersStatements.ofAccounts, [profileId, accountIds]);
  return new Map([...stored].map(([accountId, { json }]) => [accountId, JSON.parse(json) as ProviderOwner[]]));
}

async function storedOwners(em: EntityManager, cipher: FieldCipher, sql: string, params: unknown[]): Promise<Map<string, StoredOwners>> {
  const { rows } = await run<StoredRow>(em, sql, params);
  return new Map(rows.map((row) => [row.accountId, { id: row.id, json: cipher.decrypt(OWNERS_FIELD, row, row.ownersEncrypted) }]));
}
