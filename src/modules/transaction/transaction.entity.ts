import { defineEntity, p } from '@mikro-orm/core';
import { PROFILE_PARTITIONS } from '../../db/profile-partitions.ts';
import type { CategorySource, MerchantSource, PaymentChannel } from '../../enrichment/enrichment.ts';
import type { Metadata } from '../metadata/metadata.ts';
import { Account } from '../account/account.entity.ts';
import { money } from '../balance/balance.entity.ts';
import { Connection } from '../connection/connection.entity.ts';
import { Profile } from '../profile/profile.entity.ts';

export const TRANSACTION_STATUSES = ['PENDING', 'POSTED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export const PAYMENT_CHANNELS = ['ONLINE', 'IN_STORE', 'OTHER'] as const satisfies readonly PaymentChannel[];
export const CATEGORY_SOURCES = ['PROVIDER', 'RULES', 'LEARNED', 'USER'] as const satisfies readonly CategorySource[];
export const MERCHANT_SOURCES = ['PROVIDER', 'DIRECTORY', 'DESCRIPTION'] as const satisfies readonly MerchantSource[];

/**
 * A movement of money on an account. `amount` is signed relative to the account (negative = DEBIT),
 * so `entryType` is derived, never stored. `remoteId` is the provider's id, unique per connection; a
 * pending transaction that posts keeps this row (and its id and metadata) and takes the posted
 * transaction's remoteId. `remoteData` holds one sub-object per provider, each with a `timestamp`.
 * (profile, date, id) serves every `transactions` page in both sort orders. Only `account` carries a
 * foreign key: `profile` and `connection` are the account's own (written together by the sync engine,
 * and removed by the account's cascade), and checking all three tripled the cost of every insert.
 * The enrichment columns (merchant, category, payment channel) are what the local pipeline decided
 * at `enrichmentVersion`, or what the user set (`categorySource` USER), which nothing automatic
 * overwrites; `cleanDescription` is kept because the learned classifier reads its words.
 */
export const Transaction = defineEntity({
  name: 'Transaction',
  properties: {
    profile: () => p.manyToOne(Profile).primary().createForeignKeyConstraint(false),
    id: p.uuid().primary(),
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
    cleanDescription: p.text().nullable(),
    merchantName: p.text().nullable(),
    merchantWebsite: p.text().nullable(),
    merchantLogoUrl: p.text().nullable(),
    /** Who named the merchant and how sure it is; null for a row enriched before version 2 until re-enrichment reaches it. */
    merchantSource: p.enum(MERCHANT_SOURCES).nullable(),
    merchantConfidence: p.decimal('string').columnType('numeric(4,3)').nullable(),
    categoryPrimary: p.text().nullable(),
    categoryDetailed: p.text().nullable(),
    categorySource: p.enum(CATEGORY_SOURCES).nullable(),
    categoryConfidence: p.decimal('string').columnType('numeric(4,3)').nullable(),
    paymentChannel: p.enum(PAYMENT_CHANNELS).default('OTHER'),
    /** 0: written before enrichment existed; the re-enrichment job brings every row to ENRICHMENT_VERSION. */
    enrichmentVersion: p.integer().default(0),
    remoteData: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['profile', 'connection', 'remoteId'] }],
  indexes: [
    { properties: ['profile', 'date', 'id'] },
    { properties: ['account', 'date', 'id'] },
    // The learned classifier's training set: a profile's own corrections, a small share of its rows.
    { name: 'transaction_user_category_index', expression: `create index "transaction_user_category_index" on "transaction" ("profile_id") where "category_source" = 'USER'` },
  ],
  partitionBy: PROFILE_PARTITIONS,
});

export type TransactionEntity = InstanceType<typeof Transaction.class>;
