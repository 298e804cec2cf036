/** ES2025's JSON.isRawJSON (Node 24), not yet in TypeScript's es2024 lib: true for what `JSON.rawJSON` made (a Decimal's digits). */
const isRawJSON = (value: object): value is { rawJSON: string } => (JSON as unknown as { isRawJSON(value: unknown): boolean }).isRawJSON(value);

/** UTF-8 bytes of JSON text per character of a string, at most: an escaped control character (`\u0001`) takes six. */
export const MAX_BYTES_PER_CHARACTER = 6;

/**
 * The length of `value`'s JSON text, counted in characters as the value is walked and given up as
 * soon as it passes `budget` (the count then is above `budget`, not the whole length). A string's
 * characters count one each, everything else as JSON.stringify writes it (an empty list or object
 * one short): the count is never more than the UTF-8 bytes of the text, and at most
 * MAX_BYTES_PER_CHARACTER times fewer. A result holds each record's metadata by reference, however many times a document
 * selects it, so the result itself stays small where its text would not: this walk stops at the
 * budget, where JSON.stringify would write the whole text first (tens of megabytes) for it to be
 * refused after.
 */
export function jsonLength(value: unknown, budget: number): number {
  return count(value, 0, budget);
}

function count(value: unknown, counted: number, budget: number): number {
  if (typeof value === 'string') return counted + value.length + 2;
  if (typeof value === 'number') return counted + String(value).length;
  if (typeof value === 'boolean') return counted + (value ? 4 : 5);
  // `null`, as JSON.stringify writes `undefined` in a list (it leaves it out of an object: see below).
  if (typeof value !== 'object' || value === null) return counted + 4;
  if (Array.isArray(value)) {
    counted += 1;
    for (const item of value as unknown[]) {
      counted = count(item, counted + 1, budget);
      if (counted > budget) return counted;
    }
    return counted;
  }
  if (isRawJSON(value)) return counted + value.rawJSON.length;
  counted += 1;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    // `"key":` and the comma or brace after the value.
    counted = count(item, counted + key.length + 4, budget);
    if (counted > budget) return counted;
  }
  return counted;
}

/**
 * Whether `value`'s JSON text takes at most `budget` UTF-8 bytes. The text is written (and measured
 * exactly) only when the count leaves the question open: never when it is already past the budget.
 */
export function jsonFits(value: unknown, budget: number): boolean {
  const counted = jsonLength(value, budget);
  if (counted > budget) return false;
  return counted * MAX_BYTES_PER_CHARACTER <= budget || Buffer.byteLength(JSON.stringify(value)) <= budget;
}
