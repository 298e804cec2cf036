import { defineEntity, p } from '@mikro-orm/core';
import type { Metadata } from '../metadata/metadata.ts';
import { Account } from '../account/account.entity.ts';
import { money } from '../balance/balance.entity.ts';
import { Connection } from '../connection/connection.entity.ts';
import { Profile } from '../profile/profile.entity.ts';

export const TRANSACTION_STATUSES = ['PENDING', 'POSTED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/**
 * A movement of money on an account. `amount` is signed relative to the account (negative = DEBIT),
 * so `entryType` is derived, never stored. `remoteId` is the provider's id, unique per connection; a
 * pending transaction that posts keeps this row (and its id and metadata) and takes the posted
 * transaction's remoteId. `remoteData` holds one sub-object per provider, each with a `timestamp`.
 * (profile, date, id) serves every `transactions` page in both sort orders. Only `account` carries a
 * foreign key: `profile` and `connection` are the account's own (written together by the sync engine,
 * and removed by the account's cascade), and checking all three tripled the cost of every insert.
 */
export const Transaction = defineEntity({
  name: 'Transaction',
  properties: {
    id: p.uuid().primary(),
    profile: () => p.manyToOne(Profile).createForeignKeyConstraint(false),
    connection: () => p.manyToOne(Connection).createForeignKeyConstraint(false),
    account: () => p.manyToOne(Account).deleteRule('cascade'),
    remoteId: p.text(),
    date: p.date(),
    description: p.text(),
    amount: money(),
    status: p.enum(TRANSACTION_STATUSES),
    currencyCode: p.text(),
    /** A payment made in another currency: the amount in it (same sign as `amount`), and its ISO 4217 code. */
    originalAmount: money().nullable(),
    originalCurrencyCode: p.text().nullable(),
    metadata: p.json<Metadata>().nullable(),
    remoteData: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['connection', 'remoteId'] }],
  indexes: [{ properties: ['profile', 'date', 'id'] }, { properties: ['account', 'date', 'id'] }],
});

export type TransactionEntity = InstanceType<typeof Transaction.class>;
