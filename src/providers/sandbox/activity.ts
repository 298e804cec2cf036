import type { AccountTemplate, Merchant, SandboxInstitution } from './institutions.ts';
import { MERCHANTS } from './institutions.ts';
import { between, randomFor } from './random.ts';

export const DAY_MS = 86_400_000;
/** How far back a new connection's history reaches. */
export const HISTORY_DAYS = 730;
/** Days a card authorisation stays PENDING before it posts (or is dropped). */
export const POSTING_LAG_DAYS = 2;
/** Days after posting when a correction or a reversal shows up. */
const CORRECTION_DAYS = 3;
const REVERSAL_DAYS = 5;

export type AccountKey = AccountTemplate['key'];

/**
 * One money movement as the sandbox institution will eventually report it. Which version of it is
 * visible depends on the day asked about (see `visibleVersion`): pending first for card-style
 * purchases, then posted, sometimes corrected, reversed or dropped.
 */
export interface Activity {
  id: string;
  account: AccountKey;
  /** Authorisation day (days since the Unix epoch). */
  day: number;
  postDay: number;
  description: string;
  raw: string;
  cents: number;
  /** The authorised amount while pending, or null for movements that post directly. */
  pendingCents: number | null;
  categories: string[];
  counterparty: string;
  website: string | null;
  fate: 'posts' | 'dropped' | 'corrected' | 'reversed';
}

export interface VisibleTransaction {
  remoteId: string;
  pendingRemoteId: string | null;
  account: AccountKey;
  date: string;
  cents: number;
  status: 'PENDING' | 'POSTED';
  activity: Activity;
  corrected: boolean;
}

/** The version of an activity the institution reports on `today`, or undefined when none. */
export function visibleVersion(activity: Activity, today: number): VisibleTransaction | undefined {
  if (today < activity.day) return undefined;
  const pendingId = `${activity.id}-p`;
  if (activity.pendingCents !== null && today < activity.postDay) {
    return { remoteId: pendingId, pendingRemoteId: null, account: activity.account, date: isoDay(activity.day), cents: activity.pendingCents, status: 'PENDING', activity, corrected: false };
  }
  if (today < activity.postDay || activity.fate === 'dropped') return undefined;
  if (activity.fate === 'reversed' && today >= activity.postDay + REVERSAL_DAYS) return undefined;
  const corrected = activity.fate === 'corrected' && today >= activity.postDay + CORRECTION_DAYS;
  return {
    remoteId: activity.id,
    pendingRemoteId: activity.pendingCents === null ? null : pendingId,
    account: activity.account,
    date: isoDay(activity.postDay),
    // A correction: the merchant settles a slightly different amount a few days later.
    cents: corrected ? activity.cents + (activity.cents < 0 ? 150 : -150) : activity.cents,
    status: 'POSTED',
    activity,
    corrected,
  };
}

const ISO_DAYS = new Map<number, string>();

/** `YYYY-MM-DD` of a day number (memoised: history generation asks for the same days again and again). */
export function isoDay(day: number): string {
  let iso = ISO_DAYS.get(day);
  if (iso === undefined) {
    iso = new Date(day * DAY_MS).toISOString().slice(0, 10);
    ISO_DAYS.set(day, iso);
  }
  return iso;
}

export function dayOf(time: number): number {
  return Math.floor(time / DAY_MS);
}

/** Per-connection constants: payroll, payments and the like stay the same month after month. */
interface Profile {
  payroll: number;
  loanPayment: number;
  loanInterest: number;
  contribution: number;
}

function profileOf(seed: string): Profile {
  const random = randomFor(`${seed}:profile`);
  return {
    payroll: between(random, 2_400_00, 3_200_00),
    loanPayment: between(random, 450_00, 1_900_00),
    loanInterest: between(random, 150_00, 900_00),
    contribution: between(random, 200_00, 800_00),
  };
}

/**
 * Every movement that happens on `day` across a connection's accounts, always the same for the same
 * seed and day. Linked movements (a transfer to savings, a card payment) appear on both accounts.
 * The card payment settles what was spent from `historyStart` on (null: leave its amount at 0, used
 * while computing statements).
 */
export function activitiesOn(seed: string, institution: SandboxInstitution, day: number, historyStart: number | null): Activity[] {
  const has = new Set(institution.accounts.map((account) => account.key));
  const random = randomFor(`${seed}:${day}`);
  const profile = profileOf(seed);
  const date = new Date(day * DAY_MS);
  const dom = date.getUTCDate();
  const friday = date.getUTCDay() === 5 && Math.floor(day / 7) % 2 === 0;
  const out: Activity[] = [];
  const add = (account: AccountKey, fields: Omit<Activity, 'id' | 'account' | 'day' | 'postDay' | 'fate' | 'pendingCents'>, pendable = false, tipped = false) => {
    if (!has.has(account)) return;
    const roll = random();
    const fate = pendable && roll < 0.03 ? 'dropped' : roll < 0.05 ? 'corrected' : roll < 0.055 ? 'reversed' : 'posts';
    const tip = tipped ? Math.round(fields.cents * 0.18) : 0;
    out.push({
      ...fields,
      id: `${seed.slice(0, 10)}-${day}-${out.length}`,
      account,
      day,
      postDay: pendable ? day + POSTING_LAG_DAYS : day,
      cents: fields.cents + tip,
      pendingCents: pendable ? fields.cents : null,
      fate,
    });
  };
  const purchase = (account: AccountKey, merchants: readonly Merchant[]) => {
    const shop = merchants[between(random, 0, merchants.length - 1)]!;
    const half = Math.floor(shop.spread / 2);
    const cents = -(shop.cents + between(random, -half, half));
    add(account, { description: shop.name, raw: `POS ${shop.raw}`, cents, categories: [...shop.categories], counterparty: shop.name, website: shop.website }, true, shop.tipped);
  };
  const transfer = (account: AccountKey, description: string, cents: number, categories: string[], counterparty: string) =>
    add(account, { description, raw: description.toUpperCase(), cents, categories, counterparty, website: null });

  if (friday) {
    transfer('checking', 'Acme Corp Payroll', profile.payroll, ['Transfer', 'Payroll'], 'Acme Corp');
    transfer('retirement', '401k Contribution', profile.contribution, ['Transfer', 'Deposit'], 'Acme Corp');
  }
  if (dom === 1) transfer('checking', 'Rent - Sunset Apartments', -1_850_00, ['Payment', 'Rent'], 'Sunset Apartments');
  if (dom === 2 && has.has('savings')) {
    transfer('checking', 'Transfer to Savings', -300_00, ['Transfer', 'Savings'], 'Savings');
    transfer('savings', 'Transfer from Checking', 300_00, ['Transfer', 'Savings'], 'Checking');
  }
  if (dom === 3) transfer('brokerage', 'Recurring Contribution', profile.contribution, ['Transfer', 'Deposit'], 'Checking');
  if (dom === 5 && has.has('loan')) {
    transfer('checking', 'Loan Payment', -profile.loanPayment, ['Payment', 'Loan'], institution.name);
    transfer('loan', 'Payment Received', profile.loanPayment, ['Payment', 'Loan'], 'Checking');
    transfer('loan', 'Interest Charged', -profile.loanInterest, ['Bank Fees', 'Interest'], institution.name);
  }
  if (dom === 8) purchase('card', MERCHANTS.subscriptions.slice(0, 1));
  if (dom === 12) purchase('checking', MERCHANTS.utilities);
  if (dom === 15) purchase('card', MERCHANTS.subscriptions.slice(1));
  if (dom === 15 && date.getUTCMonth() % 3 === 2) transfer('brokerage', 'Dividend', between(random, 20_00, 300_00), ['Income', 'Dividends'], 'Vanguard');
  if (dom === 20 && has.has('card')) {
    // The card is paid in full each month: last calendar month's purchases.
    const payment = historyStart === null ? 0 : statementBalance(seed, institution, day, historyStart);
    transfer('checking', 'Credit Card Payment', -payment, ['Payment', 'Credit Card'], institution.name);
    transfer('card', 'Payment Thank You', payment, ['Payment', 'Credit Card'], 'Checking');
  }
  if (dom === 28) transfer('savings', 'Interest Paid', between(random, 1_00, 9_00), ['Income', 'Interest'], institution.name);
  if (random() < 0.35) purchase('checking', MERCHANTS.groceries);
  if (random() < 0.45) purchase('checking', MERCHANTS.coffee);
  if (random() < 0.05) transfer('checking', 'ATM Withdrawal', -60_00, ['Transfer', 'Withdrawal'], institution.name);
  if (random() < 0.3) purchase('card', MERCHANTS.restaurants);
  if (random() < 0.25) purchase('card', MERCHANTS.shopping);
  if (random() < 0.3) purchase('card', MERCHANTS.transport);
  if (random() < 0.01) {
    add(has.has('card') ? 'card' : 'checking', { description: 'Amazon', raw: 'AMZN MKTP US REFUND', cents: between(random, 10_00, 80_00), categories: ['Shops', 'Refund'], counterparty: 'Amazon', website: 'amazon.com' });
  }
  return out;
}

/** What was spent on the card during the calendar month before `day`'s month (within the history). */
function statementBalance(seed: string, institution: SandboxInstitution, day: number, historyStart: number): number {
  const date = new Date(day * DAY_MS);
  const first = Math.max(historyStart, dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1)));
  const last = dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)) - 1;
  let spent = 0;
  for (let d = first; d <= last; d++) {
    for (const activity of activitiesOn(seed, institution, d, null)) {
      if (activity.account === 'card' && activity.cents < 0 && activity.fate !== 'dropped' && activity.fate !== 'reversed') spent -= activity.cents;
    }
  }
  return spent;
}
