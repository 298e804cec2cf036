import type { FieldIssue } from '../../errors.ts';

/** How far back a statements refresh may reach (Plaid's limit, and the sandbox's history). */
const YEARS_BACK = 2;

/**
 * What is wrong with a statements refresh's period on `now`'s UTC day: it must not start more than
 * two years before that day, nor end after it, nor end before it starts. Empty when it is right.
 */
export function statementPeriodIssues(period: { startOn: string; endOn: string }, now: Date): FieldIssue[] {
  const today = now.toISOString().slice(0, 10);
  const earliest = new Date(Date.UTC(now.getUTCFullYear() - YEARS_BACK, now.getUTCMonth(), now.getUTCDate())).toISOString().slice(0, 10);
  const issues: FieldIssue[] = [];
  if (period.startOn < earliest) issues.push({ path: ['startOn'], message: `must be on or after ${earliest} (two years back)` });
  if (period.endOn > today) issues.push({ path: ['endOn'], message: `must not be after today (${today})` });
  if (period.endOn < period.startOn) issues.push({ path: ['endOn'], message: 'must not be before startOn' });
  return issues;
}
