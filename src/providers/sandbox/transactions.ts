import type { ProviderTransaction } from '../provider-records.ts';
import { bankLine } from './descriptions.ts';
import { Household, isoDay, type AccountRole, type Movement } from './household.ts';
import type { SandboxInstitution } from './institutions.ts';
import { centsToDecimal } from './money.ts';

/** Days after posting when a correction or a reversal shows up. */
const CORRECTION_DAYS = 3;
const REVERSAL_DAYS = 5;

/** The household behind a sandbox login at an institution. */
export function householdOf(seed: string, institution: SandboxInstitution, firstDay: number): Household {
  return new Household(seed, { accounts: institution.accounts.map((account) => account.key), firstDay, spendsAbroad: institution.spendsAbroad });
}

/** A movement as the sandbox institution reports it on a given day. */
export interface VisibleTransaction {
  remoteId: string;
  pendingRemoteId: string | null;
  account: AccountRole;
  date: string;
  cents: number;
  status: 'PENDING' | 'POSTED';
  movement: Movement;
  corrected: boolean;
}

/** Every transaction the institution reports on `today` for a history that starts on `firstDay`. */
export function visibleOn(seed: string, household: Household, firstDay: number, today: number): VisibleTransaction[] {
  const out: VisibleTransaction[] = [];
  for (let day = firstDay; day <= today; day++) {
    for (const movement of household.on(day)) {
      const version = visibleVersion(seed, movement, today);
      if (version) out.push(version);
    }
  }
  return out;
}

/**
 * The version of a movement reported on `today`, or undefined when none: pending first for card
 * purchases, then posted, sometimes corrected a few days later, reversed or dropped.
 */
export function visibleVersion(seed: string, movement: Movement, today: number): VisibleTransaction | undefined {
  if (today < movement.day) return undefined;
  const id = `${seed.slice(0, 10)}-${movement.key}`;
  const pendingId = `${id}-p`;
  const common = { account: movement.account, movement };
  if (movement.pendingCents !== null && today < movement.postDay) {
    return { ...common, remoteId: pendingId, pendingRemoteId: null, date: isoDay(movement.day), cents: movement.pendingCents, status: 'PENDING', corrected: false };
  }
  if (today < movement.postDay || movement.fate === 'dropped') return undefined;
  if (movement.fate === 'reversed' && today >= movement.postDay + REVERSAL_DAYS) return undefined;
  const corrected = movement.fate === 'corrected' && today >= movement.postDay + CORRECTION_DAYS;
  return {
    ...common,
    remoteId: id,
    pendingRemoteId: movement.pendingCents === null ? null : pendingId,
    date: isoDay(movement.postDay),
    // A correction: the merchant settles a slightly different amount a few days later.
    cents: corrected ? movement.cents + (movement.cents < 0 ? 150 : -150) : movement.cents,
    status: 'POSTED',
    corrected,
  };
}

/**
 * A sandbox transaction as the provider interface carries it: the bank's raw line as the
 * description (descriptions.ts), the institution's own data under `raw`, and no enrichment: like a
 * raw bank feed, the sandbox names no merchant and no category, so Tributary's pipeline finds them.
 */
export function presentTransaction(accountRemoteId: string, transaction: VisibleTransaction, now: Date): ProviderTransaction {
  const { counterparty, original } = transaction.movement;
  const timestamp = now.toISOString();
  const pointOfSale = counterparty.channel === 'other' ? '' : 'POS ';
  return {
    remoteId: transaction.remoteId,
    accountRemoteId,
    pendingRemoteId: transaction.pendingRemoteId,
    date: transaction.date,
    description: bankLine(transaction.movement, accountRemoteId),
    amount: centsToDecimal(transaction.cents),
    status: transaction.status,
    originalAmount: original ? centsToDecimal(original.cents) : null,
    originalCurrencyCode: original?.currencyCode ?? null,
    raw: {
      guid: `TRN-${transaction.remoteId}`,
      description: counterparty.descriptor,
      originalDescription: `${pointOfSale}${counterparty.descriptor} ${isoDay(transaction.movement.day).slice(5)}`,
      ...(transaction.corrected ? { corrected: true } : {}),
      timestamp,
    },
    enrichment: null,
  };
}
