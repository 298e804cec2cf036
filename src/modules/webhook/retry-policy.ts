/** Delays before each retry after a failure: about three days in all (the contract's schedule). */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 72_000];

/** No retry waits longer than the schedule's longest delay, whatever the receiver asks for. */
export const MAX_RETRY_DELAY_MS = Math.max(...RETRY_DELAYS_SECONDS) * 1000;

/**
 * Whole days an event's attempts can span at most: every retry delayed as long as a receiver's
 * `Retry-After` may make it (7.5 days; the schedule alone spans about 2.98). The shortest
 * LOG_RETENTION_DAYS, so that the log never drops an event with an attempt still to come.
 */
export const RETRY_HORIZON_DAYS = Math.ceil((RETRY_DELAYS_SECONDS.length * MAX_RETRY_DELAY_MS) / 86_400_000);

/**
 * How long after failed attempt number `attempt` the next one is made, in milliseconds: the
 * schedule's delay, or longer when the receiver's `Retry-After` asks for it (never past
 * MAX_RETRY_DELAY_MS); undefined after the schedule's last delay.
 */
export function retryDelayMs(attempt: number, retryAfter: string | undefined, now: Date): number | undefined {
  const scheduled = RETRY_DELAYS_SECONDS[attempt - 1];
  if (scheduled === undefined) return undefined;
  return Math.max(scheduled * 1000, retryAfterMs(retryAfter, now));
}

/** Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with the day's name. */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/;

/**
 * `Retry-After` (delay-seconds or an HTTP-date) in milliseconds from now, between 0 and
 * MAX_RETRY_DELAY_MS; 0 when absent or neither form (a huge or far-future value is capped, never an
 * invalid date).
 */
export function retryAfterMs(value: string | undefined, now: Date): number {
  const text = value?.trim() ?? '';
  let wanted = Number.NaN;
  if (/^\d+$/.test(text)) wanted = Number(text) * 1000;
  else if (HTTP_DATE.test(text)) wanted = Date.parse(text) - now.getTime();
  return Number.isNaN(wanted) ? 0 : Math.min(MAX_RETRY_DELAY_MS, Math.max(0, wanted));
}
