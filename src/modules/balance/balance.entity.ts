import { defineEntity, p } from '@mikro-orm/core';
import { PROFILE_PARTITIONS } from '../../db/profile-partitions.ts';
import { Account } from '../account/account.entity.ts';
import { Profile } from '../profile/profile.entity.ts';

export const BALANCE_SOURCES = ['SYNC', 'REFRESH'] as const;
export type BalanceSource = (typeof BALANCE_SOURCES)[number];

/** A money column: exact decimal, read and written as a string (never a JS number). */
export const money = () => p.decimal('string').columnType('numeric(19,4)');

/**
 * A balance of an account at a point in time, signed from the holder's point of view (see the
 * contract's `Balance`). Rows are only ever added; the account's `latestBalanceId` names the newest.
 */
export const Balance = defineEntity({
  name: 'Balance',
  properties: {
    profile: () => p.manyToOne(Profile).primary().deleteRule('cascade'),
    id: p.uuid().primary(),
    account: () => p.manyToOne(Account).deleteRule('cascade'),
    at: p.datetime(),
    source: p.enum(BALANCE_SOURCES),
    available: money().nullable(),
    current: money().nullable(),
    limit: money().nullable(),
    currencyCode: p.text(),
  },
  indexes: [{ properties: ['account', 'at'] }],
  partitionBy: PROFILE_PARTITIONS,
});

export type BalanceEntity = InstanceType<typeof Balance.class>;
