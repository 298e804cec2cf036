import { DAY } from './activity.ts';

/**
 * How the bridge meters `/accounts` requests per access token over a rolling 24 hours of its clock.
 * The Bridge's developer guide asks for 24 requests a day or fewer, allows "a little leeway", warns,
 * and then disables the access token (403 from then on; the user must make a new setup token).
 * SimpleFIN support has put the numbers at 24 suggested, warned at 48, blocked at 96.
 */
export interface BudgetPolicy {
  /** Requests in any rolling 24 hours answered without complaint. Default 24. */
  perDay: number;
  /**
   * `warn-then-disable` (default, the Bridge's behaviour): past `perDay` the data still comes, with a
   * warning in `errors`/`errlist`; past `disableAfter` the token is disabled for good.
   * `reject-429`: past `perDay` the request is refused with 429 and `Retry-After`, nothing disabled.
   */
  onExceeded: 'warn-then-disable' | 'reject-429';
  /** Requests in 24 hours after which the token is disabled (`warn-then-disable`). Default 4 × `perDay`. */
  disableAfter: number;
}

export type BudgetVerdict = { kind: 'ok' } | { kind: 'warn'; count: number } | { kind: 'disabled' } | { kind: 'rejected'; retryAfterSeconds: number };

/** Counts one request at `now` against `times` (the token's earlier requests) and says how to answer it. */
export function spend(times: number[], policy: BudgetPolicy, now: number): BudgetVerdict {
  const windowStart = now - DAY;
  while (times.length > 0 && times[0]! <= windowStart) times.shift();
  const count = times.length + 1;
  if (policy.onExceeded === 'reject-429') {
    if (count > policy.perDay) return { kind: 'rejected', retryAfterSeconds: times.length === 0 ? DAY : Math.max(1, times[0]! + DAY - now) };
    times.push(now);
    return { kind: 'ok' };
  }
  times.push(now);
  if (count > policy.disableAfter) return { kind: 'disabled' };
  return count > policy.perDay ? { kind: 'warn', count } : { kind: 'ok' };
}

/** The warning that rides on an answer past the budget; its wording is the fake's, the Bridge's is not published. */
export function budgetWarning(count: number, perDay: number): string {
  return `This Access Token has made ${count} requests in the last 24 hours; make ${perDay} or fewer, or it will be disabled.`;
}
