import { defineEntity, p } from '@mikro-orm/core';
import { PROFILE_PARTITIONS } from '../../db/profile-partitions.ts';
import { Account } from '../account/account.entity.ts';
import { Connection } from '../connection/connection.entity.ts';
import { Profile } from '../profile/profile.entity.ts';
import { reported, Security } from '../security/security.entity.ts';

/**
 * A position in one security in one investment account, as the last sync found it. A sync replaces
 * an account's holdings as a snapshot; the row (and its id) stays while its security stays in the
 * account, hence one row per (account, security). As for transactions, only `account` carries a
 * foreign key with a cascade: `profile` and `connection` are the account's own.
 */
export const Holding = defineEntity({
  name: 'Holding',
  properties: {
    profile: () => p.manyToOne(Profile).primary().createForeignKeyConstraint(false),
    id: p.uuid().primary(),
    connection: () => p.manyToOne(Connection).createForeignKeyConstraint(false),
    account: () => p.manyToOne(Account).deleteRule('cascade'),
    security: () => p.manyToOne(Security),
    quantity: reported(),
    price: reported(),
    priceDate: p.date().nullable(),
    value: reported(),
    costBasis: reported().nullable(),
    currencyCode: p.text(),
    remoteData: p.json<Record<string, unknown>>(),
    lastSeenAt: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['profile', 'account', 'security'] }],
  partitionBy: PROFILE_PARTITIONS,
});

export type HoldingEntity = InstanceType<typeof Holding.class>;
