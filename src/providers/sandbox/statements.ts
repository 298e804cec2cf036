import type { ProviderStatement } from '../provider-statements.ts';
import type { StatementContent } from '../statement-pdf.ts';
import { DAY_MS } from '../../lib/dates.ts';
import { dayOf, isoDay, type AccountRole, type Household } from './household.ts';
import type { AccountTemplate } from './institutions.ts';
import { centsToDecimal } from './money.ts';
import { presentTransaction, type VisibleTransaction } from './transactions.ts';

/** A sandbox statement's period: one calendar month of one account. */
export interface SandboxStatementPeriod {
  key: AccountRole;
  /** `YYYY-MM`. */
  month: string;
}

/** Only accounts whose balance follows from their transactions get statements (not the investment accounts, valued at market prices). */
export function hasStatements(template: AccountTemplate): boolean {
  return template.kind !== 'INVESTMENT';
}

/** `<seed>-<account>-<YYYY-MM>`: the same across sign-ins, even where account ids are reissued. */
export function statementRemoteId(seed: string, period: SandboxStatementPeriod): string {
  return `${seed.slice(0, 10)}-${period.key}-${period.month}`;
}

/** The period a statement id of this login names; undefined for one the sandbox did not issue. */
export function periodOf(seed: string, remoteId: string): SandboxStatementPeriod | undefined {
  const match = /^(.+)-([a-z]+)-(\d{4}-\d{2})$/.exec(remoteId);
  if (!match || match[1] !== seed.slice(0, 10)) return undefined;
  return { key: match[2] as AccountRole, month: match[3]! };
}

/** First and last day of the month's period; a history that began mid-month begins the first statement. */
function daysOf(month: string, firstDay: number): { start: number; end: number } {
  const [year, monthIndex] = month.split('-').map(Number) as [number, number];
  const start = Math.max(firstDay, dayOf(Date.UTC(year, monthIndex - 1, 1)));
  return { start, end: dayOf(Date.UTC(year, monthIndex, 1)) - 1 };
}

/** Every complete month of the history before today's month, oldest first, as `YYYY-MM`. */
export function statementMonths(firstDay: number, today: number): string[] {
  const months: string[] = [];
  const first = new Date(firstDay * DAY_MS);
  const now = new Date(today * DAY_MS);
  for (let cursor = Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), 1); cursor < Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1); ) {
    const at = new Date(cursor);
    months.push(at.toISOString().slice(0, 7));
    cursor = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
  }
  return months;
}

/** The statement of a period as the listing reports it; issued the day after the period ends. */
export function listedStatement(seed: string, accountRemoteId: string, period: SandboxStatementPeriod, firstDay: number): ProviderStatement {
  const { start, end } = daysOf(period.month, firstDay);
  return { remoteId: statementRemoteId(seed, period), accountRemoteId, startOn: isoDay(start), endOn: isoDay(end), issuedOn: isoDay(end + 1) };
}

/**
 * What a statement shows, from the transactions the institution reports now: the balance before
 * the period (the account's opening balance and every posted transaction before it), each posted
 * transaction of the period as the sync reports it, and the balance after them. So the closing
 * balance is the account's current balance less what posted after the period.
 */
export function statementContent(input: {
  seed: string;
  household: Household;
  firstDay: number;
  period: SandboxStatementPeriod;
  template: AccountTemplate;
  accountRemoteId: string;
  mask: string;
  institution: { name: string; currencyCode: string };
  transactions: VisibleTransaction[];
  now: Date;
}): StatementContent {
  const { household, period, template, accountRemoteId, transactions, now } = input;
  const listed = listedStatement(input.seed, accountRemoteId, period, input.firstDay);
  const posted = transactions.filter((transaction) => transaction.account === period.key && transaction.status === 'POSTED');
  const before = posted.filter((transaction) => transaction.date < listed.startOn).reduce((sum, transaction) => sum + transaction.cents, 0);
  const inPeriod = posted.filter((transaction) => transaction.date >= listed.startOn && transaction.date <= listed.endOn).sort((a, b) => a.date.localeCompare(b.date));
  const opening = household.opening(period.key) + before;
  const closing = inPeriod.reduce((sum, transaction) => sum + transaction.cents, opening);
  return {
    institution: input.institution.name,
    accountName: template.name,
    mask: input.mask,
    currencyCode: input.institution.currencyCode,
    startOn: listed.startOn,
    endOn: listed.endOn,
    issuedOn: listed.issuedOn!,
    openingBalance: centsToDecimal(opening),
    closingBalance: centsToDecimal(closing),
    lines: inPeriod.map((transaction) => {
      const { date, description, amount } = presentTransaction(accountRemoteId, transaction, now);
      return { date, description, amount };
    }),
  };
}
