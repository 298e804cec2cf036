import { defineEntity, p } from '@mikro-orm/core';
import { PROFILE_PARTITIONS } from '../../db/profile-partitions.ts';
import { INVESTMENT_TRANSACTION_TYPES } from '../../providers/provider-investments.ts';
import { Account } from '../account/account.entity.ts';
import { Connection } from '../connection/connection.entity.ts';
import { Profile } from '../profile/profile.entity.ts';
import { reported, Security } from '../security/security.entity.ts';

/**
 * A movement in an investment account (a buy, a sale, a dividend, a fee, cash), keyed by the
 * provider's id within its account. `amount` follows the account's cash (money in positive);
 * `quantity` the units (into the account positive). (profile, date, id) serves every page.
 */
export const InvestmentTransaction = defineEntity({
  name: 'InvestmentTransaction',
  properties: {
    profile: () => p.manyToOne(Profile).primary().createForeignKeyConstraint(false),
    id: p.uuid().primary(),
    connection: () => p.manyToOne(Connection).createForeignKeyConstraint(false),
    account: () => p.manyToOne(Account).deleteRule('cascade'),
    security: () => p.manyToOne(Security).nullable(),
    remoteId: p.text(),
    date: p.date(),
    type: p.enum(INVESTMENT_TRANSACTION_TYPES),
    subtype: p.text().nullable(),
    quantity: reported(),
    price: reported(),
    fees: reported().nullable(),
    amount: reported(),
    currencyCode: p.text(),
    description: p.text(),
    remoteData: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['profile', 'account', 'remoteId'] }],
  indexes: [{ properties: ['profile', 'date', 'id'] }, { properties: ['connection', 'date'] }],
  partitionBy: PROFILE_PARTITIONS,
});

export type InvestmentTransactionEntity = InstanceType<typeof InvestmentTransaction.class>;
