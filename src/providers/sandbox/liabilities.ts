import { NO_LIABILITY_DETAILS, type LiabilityKind, type ProviderLiability } from '../provider-liabilities.ts';
import { DAY_MS } from '../../lib/dates.ts';
import { CARD_PAYMENT_DAY, dayOf, isoDay, type Household } from './household.ts';
import type { AccountTemplate } from './institutions.ts';
import { FLOWS } from './merchants.ts';
import { centsToDecimal, unitsToDecimal } from './money.ts';
import { between, randomFor } from './random.ts';
import type { VisibleTransaction } from './transactions.ts';

/** A card statement closes on the last day of each month and is due when the household pays it, on the 20th of the next. */
const CARD_LEAST_MINIMUM_CENTS = 25_00;
/** Loans: kind, rate type, rate range (thousandths of a percent) and term in months, by account subtype. */
const LOANS: Record<string, { kind: LiabilityKind; rateType: 'FIXED' | 'VARIABLE'; rate: [number, number]; termMonths: number }> = {
  mortgage: { kind: 'MORTGAGE', rateType: 'FIXED', rate: [3_000, 7_250], termMonths: 360 },
  auto: { kind: 'AUTO', rateType: 'FIXED', rate: [4_000, 9_000], termMonths: 72 },
  student: { kind: 'STUDENT', rateType: 'VARIABLE', rate: [4_000, 8_500], termMonths: 120 },
};

/** What a liability is computed from: the account, its household and what the institution reports today. */
export interface LiabilitySource {
  seed: string;
  household: Household;
  template: AccountTemplate;
  accountRemoteId: string;
  /** Every transaction the institution reports today. */
  transactions: VisibleTransaction[];
  today: number;
}

/** The debt details of a card or loan account, derived from its transactions so they agree with its balance. */
export function liabilityOf(source: LiabilitySource): ProviderLiability {
  return source.template.key === 'card' ? cardLiability(source) : loanLiability(source);
}

/**
 * The card: the statement that closed at the end of last month (its balance the posted transactions
 * then), its minimum payment, due on the 20th, and overdue when that day passed with less paid.
 */
function cardLiability({ seed, household, accountRemoteId, transactions, today }: LiabilitySource): ProviderLiability {
  const posted = postedOn(transactions, 'card');
  const { year, month } = monthOf(today);
  const statementDay = dayOf(Date.UTC(year, month, 1)) - 1;
  const dueDay = dayOf(Date.UTC(year, month, CARD_PAYMENT_DAY));
  const statementBalance = household.opening('card') + sum(posted.filter((transaction) => transaction.date <= isoDay(statementDay)));
  const owed = Math.max(0, -statementBalance);
  const minimum = Math.min(owed, Math.max(CARD_LEAST_MINIMUM_CENTS, Math.round(owed / 100)));
  const payments = posted.filter((transaction) => transaction.movement.counterparty === FLOWS.cardPaymentReceived);
  const paidSinceStatement = sum(payments.filter((transaction) => transaction.date > isoDay(statementDay)));
  const purchaseApr = between(randomFor(`${seed}:card:apr`), 19_99, 27_99);
  return {
    ...NO_LIABILITY_DETAILS,
    accountRemoteId,
    kind: 'CREDIT',
    aprs: [
      { type: 'purchase_apr', percentage: centsToDecimal(purchaseApr), balanceSubjectToApr: centsToDecimal(statementBalance) },
      { type: 'cash_apr', percentage: centsToDecimal(purchaseApr + 5_00), balanceSubjectToApr: '0.00' },
    ],
    minimumPayment: centsToDecimal(-minimum),
    nextPaymentDueDate: isoDay(dueDay),
    lastStatementBalance: centsToDecimal(statementBalance),
    lastStatementDate: isoDay(statementDay),
    ...lastPayment(payments),
    isOverdue: today > dueDay && paidSinceStatement < minimum,
    raw: { guid: `LIA-${accountRemoteId}` },
  };
}

/**
 * A loan repaid by the same principal every month: its origination is as many months before the
 * history as its term leaves (a year when the balance outlasts the term), it matures when the
 * balance is repaid, and what was paid this year is what its transactions show.
 */
function loanLiability({ seed, household, template, accountRemoteId, transactions, today }: LiabilitySource): ProviderLiability {
  const role = template.key === 'student' ? 'student' : 'loan';
  const loan = LOANS[template.subtype] ?? LOANS.mortgage!;
  const terms = household.loanTerms(role);
  const principal = terms.paymentCents - terms.interestCents;
  const opening = household.opening(role);
  const first = monthOf(household.firstDay);
  const remaining = Math.ceil(-opening / principal);
  const elapsed = loan.termMonths > remaining ? loan.termMonths - remaining : 12;
  const monthDay = (months: number) => isoDay(dayOf(Date.UTC(first.year, first.month + months, terms.dayOfMonth)));
  const now = monthOf(today);
  const nextPayment = dayOf(Date.UTC(now.year, now.month + (new Date(today * DAY_MS).getUTCDate() < terms.dayOfMonth ? 0 : 1), terms.dayOfMonth));
  const posted = postedOn(transactions, template.key);
  const yearStart = isoDay(dayOf(Date.UTC(now.year, 0, 1)));
  const thisYear = posted.filter((transaction) => transaction.date >= yearStart);
  const interest = -sum(thisYear.filter((transaction) => transaction.movement.counterparty === FLOWS.loanInterest));
  const paid = sum(thisYear.filter((transaction) => transaction.movement.counterparty === FLOWS.loanPaymentReceived));
  const random = randomFor(`${seed}:${template.key}:terms`);
  const rate = Math.round(between(random, loan.rate[0], loan.rate[1]) / 125) * 125;
  const escrowMonthly = between(random, 250_00, 650_00);
  return {
    ...NO_LIABILITY_DETAILS,
    accountRemoteId,
    kind: loan.kind,
    ...lastPayment(posted.filter((transaction) => transaction.movement.counterparty === FLOWS.loanPaymentReceived)),
    isOverdue: false,
    interestRateType: loan.rateType,
    interestRatePercentage: unitsToDecimal(rate, 3),
    originationDate: monthDay(-elapsed),
    originationPrincipal: centsToDecimal(opening - elapsed * principal),
    maturityDate: monthDay(remaining),
    nextPaymentAmount: centsToDecimal(-terms.paymentCents),
    nextPaymentDate: isoDay(nextPayment),
    // Escrow collects monthly and pays the property tax each June and December.
    escrowBalance: loan.kind === 'MORTGAGE' ? centsToDecimal(escrowMonthly * ((now.month % 6) + 1)) : null,
    ytdInterestPaid: centsToDecimal(interest),
    ytdPrincipalPaid: centsToDecimal(paid - interest),
    raw: { guid: `LIA-${accountRemoteId}`, termMonths: loan.termMonths },
  };
}

function postedOn(transactions: VisibleTransaction[], account: AccountTemplate['key']): VisibleTransaction[] {
  return transactions.filter((transaction) => transaction.account === account && transaction.status === 'POSTED');
}

function lastPayment(payments: VisibleTransaction[]): Pick<ProviderLiability, 'lastPaymentAmount' | 'lastPaymentDate'> {
  const last = payments.reduce<VisibleTransaction | undefined>((latest, payment) => (!latest || payment.date >= latest.date ? payment : latest), undefined);
  return { lastPaymentAmount: last ? centsToDecimal(last.cents) : null, lastPaymentDate: last?.date ?? null };
}

function sum(transactions: VisibleTransaction[]): number {
  return transactions.reduce((total, transaction) => total + transaction.cents, 0);
}

function monthOf(day: number): { year: number; month: number } {
  const date = new Date(day * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() };
}
