/*
 * The cadences a recurring stream can have, as schedules of expected dates. Dates are day numbers
 * (days since 1970-01-01, UTC calendar). A schedule is anchored on a stream's first occurrence:
 * occurrence k is expected on a date computed from the anchor (never from the previous occurrence),
 * so a payment moved by a weekend does not shift the ones after it. Days of the month past the
 * 28th are read as "the month's last day" (a rent due on the 31st falls on Feb 28).
 */

export const FREQUENCIES = ['WEEKLY', 'BIWEEKLY', 'SEMI_MONTHLY', 'MONTHLY', 'ANNUALLY'] as const;
import { DAY_MS } from '../../lib/dates.ts';
export type Frequency = (typeof FREQUENCIES)[number];

export interface Cadence {
  frequency: Frequency;
  /** The usual days between two occurrences. */
  periodDays: number;
  /** Days an occurrence may fall either side of its expected date (weekends, bank holidays, month lengths). */
  toleranceDays: number;
  /** Days past the predicted date after which the stream counts as ended: half a period. */
  graceDays: number;
  /** Occurrences needed before a series counts as a stream at all. */
  minOccurrences: number;
}

export const CADENCES: Record<Frequency, Cadence> = {
  WEEKLY: { frequency: 'WEEKLY', periodDays: 7, toleranceDays: 2, graceDays: 4, minOccurrences: 3 },
  BIWEEKLY: { frequency: 'BIWEEKLY', periodDays: 14, toleranceDays: 3, graceDays: 7, minOccurrences: 3 },
  SEMI_MONTHLY: { frequency: 'SEMI_MONTHLY', periodDays: 15, toleranceDays: 3, graceDays: 8, minOccurrences: 3 },
  MONTHLY: { frequency: 'MONTHLY', periodDays: 30, toleranceDays: 4, graceDays: 15, minOccurrences: 3 },
  ANNUALLY: { frequency: 'ANNUALLY', periodDays: 365, toleranceDays: 10, graceDays: 30, minOccurrences: 2 },
};

/** A day of the month from which on a schedule means the month's last day. */
const MONTH_END_FROM = 29;
const MONTH_END = 31;

export function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

export function isoDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The expected dates of one series: occurrence k (0 = the anchor) and, once the second is seen, a refinement. */
export interface Schedule {
  expected(k: number): number;
  /** Takes the actual date of occurrence 1 into account (semi-monthly: the second day of the month). */
  learn(k: number, day: number): void;
}

/** The schedule of `frequency` anchored on `anchor` (a day number). */
export function scheduleOf(frequency: Frequency, anchor: number): Schedule {
  const date = new Date(anchor * DAY_MS);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const dom = dayOfMonthAnchor(date);
  switch (frequency) {
    case 'WEEKLY':
      return fixedStep(anchor, 7);
    case 'BIWEEKLY':
      return fixedStep(anchor, 14);
    case 'MONTHLY':
      return { expected: (k) => dayInMonth(year, month + k, dom), learn: () => {} };
    case 'ANNUALLY':
      return { expected: (k) => dayInMonth(year + k, month, dom), learn: () => {} };
    case 'SEMI_MONTHLY':
      return semiMonthly(year, month, dom);
  }
}

function fixedStep(anchor: number, days: number): Schedule {
  return { expected: (k) => anchor + k * days, learn: () => {} };
}

/**
 * Two days a month: the anchor's, and one about half a month later (guessed as 15 days on, then
 * taken from the second occurrence seen: 1st and 15th, 15th and last). Occurrence 2k is on the
 * anchor's day k months on; 2k+1 on the other day, in the same month or the next when it wraps.
 */
function semiMonthly(year: number, month: number, first: number): Schedule {
  let second = first <= 15 ? Math.min(first + 15, MONTH_END) : first - 15;
  const expected = (k: number) => {
    const months = Math.floor(k / 2);
    if (k % 2 === 0) return dayInMonth(year, month + months, first);
    return dayInMonth(year, month + months + (second < first ? 1 : 0), second);
  };
  return {
    expected,
    learn: (k, day) => {
      if (k === 1) second = dayOfMonthAnchor(new Date(day * DAY_MS));
    },
  };
}

/** The day of the month a schedule keeps, past-the-28th days meaning the month's last. */
function dayOfMonthAnchor(date: Date): number {
  const dom = date.getUTCDate();
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  return dom >= MONTH_END_FROM || dom === last ? MONTH_END : dom;
}

/** Day `dom` of the month (`month` may run past December), clamped to the month's last day. */
function dayInMonth(year: number, month: number, dom: number): number {
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Math.floor(Date.UTC(year, month, Math.min(dom, last)) / DAY_MS);
}
