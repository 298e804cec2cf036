import { scheduleOf, type Cadence, type Schedule } from './cadence.ts';

/*
 * Predicted dates on banking days (docs/decisions/recurring-banking-days.md). A payment due on a
 * weekend or bank holiday is made on a banking day next to it: which one is the payer's habit, as
 * the stream's past payments show it; without evidence, the direction's convention (money in, such
 * as pay, on the banking day before; money out, such as a direct debit, on the one after).
 */

/** Whether a day (days since 1970-01-01, as cadence.ts counts them) is a banking day. Pure: detection stays deterministic. */
export type BankingCalendar = (day: number) => boolean;

/** The calendar without a country: every day but Saturday and Sunday is a banking day. */
export const weekendsOnly: BankingCalendar = (day) => {
  const weekday = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday; 0 = Sunday.
  return weekday !== 0 && weekday !== 6;
};

/** Where a payment due on a day that is no banking day is made. */
export const HABITS = ['PREVIOUS', 'NEXT', 'AS_DUE'] as const;
export type Habit = (typeof HABITS)[number];

/** The day a payment due on `due` is made under `habit`. */
export function paymentDay(due: number, habit: Habit, isBankingDay: BankingCalendar): number {
  if (habit === 'AS_DUE' || isBankingDay(due)) return due;
  const step = habit === 'PREVIOUS' ? -1 : 1;
  let day = due + step;
  while (!isBankingDay(day)) day += step;
  return day;
}

/** A series as the prediction reads it: its cadence, member days (oldest first) and their schedule indexes (0 for the first). */
export interface ScheduledSeries {
  cadence: Cadence;
  days: number[];
  slots: number[];
}

/**
 * The predicted day of a series' next occurrence. The schedule is fitted first: its anchor is taken
 * within the cadence's tolerance of the first occurrence (which may itself have moved off a
 * weekend), with the habit, so as to put the most occurrences on their exact payment day; ties keep
 * the anchor nearest the first occurrence, and the direction's convention among equally good habits.
 */
export function predictedDay(series: ScheduledSeries, convention: Habit, isBankingDay: BankingCalendar): number {
  const { cadence, days, slots } = series;
  const habits = [convention, ...HABITS.filter((habit) => habit !== convention)];
  let best: { schedule: Schedule; habit: Habit; hits: number } | undefined;
  for (const offset of offsetsNearestFirst(cadence.toleranceDays)) {
    const schedule = scheduleOf(cadence.frequency, days[0]! + offset);
    const second = slots.indexOf(1);
    if (second >= 0) schedule.learn(1, days[second]!);
    for (const habit of habits) {
      const hits = days.filter((day, i) => paymentDay(schedule.expected(slots[i]!), habit, isBankingDay) === day).length;
      if (!best || hits > best.hits) best = { schedule, habit, hits };
    }
  }
  return paymentDay(best!.schedule.expected(slots.at(-1)! + 1), best!.habit, isBankingDay);
}

/** 0, -1, 1, -2, 2, … up to ±`tolerance`. */
function offsetsNearestFirst(tolerance: number): number[] {
  return [0, ...Array.from({ length: tolerance }, (_, i) => [-(i + 1), i + 1]).flat()];
}
