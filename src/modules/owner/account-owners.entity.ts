import { defineEntity, p } from '@mikro-orm/core';
import { Account } from '../account/account.entity.ts';
import { Connection } from '../connection/connection.entity.ts';
import { Profile } from '../profile/profile.entity.ts';

/**
 * The owners of one account (one row per account), as the last sync read them: personal data, so
 * the list is one FieldCipher value (`owners`, bound to the row's id) holding the owners as the
 * provider reported them. `verifiedAt` is when they first arrived, `updatedAt` when they last
 * changed. As for holdings, only `account` carries a foreign key with a cascade: `profile` and
 * `connection` are the account's own (docs/decisions/owners-table-of-their-own.md).
 */
export const AccountOwners = defineEntity({
  name: 'AccountOwners',
  properties: {
    profile: () => p.manyToOne(Profile).primary().createForeignKeyConstraint(false),
    id: p.uuid().primary(),
    connection: () => p.manyToOne(Connection).createForeignKeyConstraint(false),
    account: () => p.manyToOne(Account).deleteRule('cascade'),
    ownersEncrypted: p.text(),
    verifiedAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  uniques: [{ properties: ['profile', 'account'] }],
  indexes: [{ properties: ['profile', 'connection'] }],
});
