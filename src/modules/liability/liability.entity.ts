import { defineEntity, p } from '@mikro-orm/core';
import { LIABILITY_KINDS } from '../../providers/provider-liabilities.ts';
import { Account } from '../account/account.entity.ts';
import { Connection } from '../connection/connection.entity.ts';
import { Profile } from '../profile/profile.entity.ts';
import { reported } from '../security/security.entity.ts';

export const INTEREST_RATE_TYPES = ['FIXED', 'VARIABLE'] as const;

/** A card's APR as stored: exact decimal strings, the balance owed negative. */
export interface StoredApr {
  type: string;
  percentage: string;
  balanceSubjectToApr: string | null;
}

/**
 * The debt details of one credit or loan account (one row per account), as the last sync reported
 * them, signed as balances are (owed negative, paid positive). Rates are in percent.
 */
export const Liability = defineEntity({
  name: 'Liability',
  properties: {
    id: p.uuid().primary(),
    profile: () => p.manyToOne(Profile).createForeignKeyConstraint(false),
    connection: () => p.manyToOne(Connection).createForeignKeyConstraint(false),
    account: () => p.manyToOne(Account).deleteRule('cascade').unique(),
    kind: p.enum(LIABILITY_KINDS),
    aprs: p.json<StoredApr[]>(),
    minimumPayment: reported().nullable(),
    nextPaymentDueDate: p.date().nullable(),
    lastStatementBalance: reported().nullable(),
    lastStatementDate: p.date().nullable(),
    lastPaymentAmount: reported().nullable(),
    lastPaymentDate: p.date().nullable(),
    isOverdue: p.boolean().nullable(),
    interestRateType: p.enum(INTEREST_RATE_TYPES).nullable(),
    interestRatePercentage: reported().nullable(),
    originationDate: p.date().nullable(),
    originationPrincipal: reported().nullable(),
    maturityDate: p.date().nullable(),
    nextPaymentAmount: reported().nullable(),
    nextPaymentDate: p.date().nullable(),
    escrowBalance: reported().nullable(),
    ytdInterestPaid: reported().nullable(),
    ytdPrincipalPaid: reported().nullable(),
    remoteData: p.json<Record<string, unknown>>(),
    updatedAt: p.datetime(),
  },
  indexes: [{ properties: ['connection'] }],
});

export type LiabilityEntity = InstanceType<typeof Liability.class>;
