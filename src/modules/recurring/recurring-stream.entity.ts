import { defineEntity, p } from '@mikro-orm/core';
import { Account } from '../account/account.entity.ts';
import { money } from '../balance/balance.entity.ts';
import { Connection } from '../connection/connection.entity.ts';
import { Profile } from '../profile/profile.entity.ts';
import { Transaction } from '../transaction/transaction.entity.ts';
import { FREQUENCIES } from './cadence.ts';
import { DIRECTIONS, STREAM_STATUSES } from './detection.ts';

/**
 * A recurring stream of one account (detection.ts): a counterparty paid or paying at a regular
 * cadence. Recomputed after each sync that changed transactions (recurring.job.ts); a stream keeps
 * its id across recomputations (stream-matching.ts). `key` is the stream key (streamKey);
 * `merchantName` and `category` (detailed) are the latest member's, as enrichment found them. Amounts are signed
 * like the transactions'. (profile, first_date, id) serves every `recurringStreams` page;
 * (status, predicted_next_date) the daily sweep of streams past their grace period (stream-sweeper.ts).
 */
export const RecurringStream = defineEntity({
  name: 'RecurringStream',
  properties: {
    id: p.uuid().primary(),
    profile: () => p.manyToOne(Profile).createForeignKeyConstraint(false),
    connection: () => p.manyToOne(Connection).createForeignKeyConstraint(false),
    account: () => p.manyToOne(Account).deleteRule('cascade'),
    direction: p.enum(DIRECTIONS),
    key: p.text(),
    description: p.text(),
    merchantName: p.text().nullable(),
    category: p.text().nullable(),
    frequency: p.enum(FREQUENCIES),
    status: p.enum(STREAM_STATUSES),
    averageAmount: money(),
    lastAmount: money(),
    currencyCode: p.text(),
    firstDate: p.date(),
    lastDate: p.date(),
    predictedNextDate: p.date(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime(),
  },
  indexes: [{ properties: ['profile', 'firstDate', 'id'] }, { properties: ['account'] }, { properties: ['status', 'predictedNextDate'] }],
});

/**
 * A transaction's membership of a stream; both sides cascade, so a removed transaction leaves its
 * stream. The transaction is named by its key, (profile_id, id): the membership carries the profile.
 */
export const RecurringStreamTransaction = defineEntity({
  name: 'RecurringStreamTransaction',
  properties: {
    stream: () => p.manyToOne(RecurringStream).primary().deleteRule('cascade'),
    transaction: () => p.manyToOne(Transaction).primary().deleteRule('cascade').joinColumns('profile_id', 'transaction_id'),
  },
  indexes: [{ properties: ['transaction'] }],
});
