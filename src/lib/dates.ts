/**
 * A real calendar date written as YYYY-MM-DD (`2026-02-30` and `2026-4-1` are not), from the year
 * 0001 on: PostgreSQL has no year 0000, which JavaScript dates do have.
 */
export function isRealDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !value.startsWith('0000') && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
}

/**
 * An instant PostgreSQL can compare a timestamp with: a real one (not a leap second such as
 * `23:59:60Z`, which RFC 3339 allows but JavaScript cannot hold) from 0001-01-01 to 9999-12-31 UTC.
 */
export function isStorableInstant(instant: Date): boolean {
  const year = instant.getUTCFullYear();
  return year >= 1 && year <= 9999;
}

/** Milliseconds in a day of UTC time (no daylight saving there). */
export const DAY_MS = 86_400_000;
