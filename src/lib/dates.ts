/** A real calendar date written as YYYY-MM-DD (`2026-02-30` and `2026-4-1` are not). */
export function isRealDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
}
