import type { FieldIssue } from '../../errors.ts';
import { ValidationError } from '../../errors.ts';

/** Custom metadata as stored: never empty (an empty result is stored as null). */
export type Metadata = Record<string, string | number | boolean>;

const METADATA_LIMITS = { keys: 50, keyLength: 50, valueLength: 500 } as const;

const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]{2,}/;
// An international number (+ and 7-15 digits) or a national one written with separators.
const PHONE = /^\+[\d\s().-]{7,20}$|^\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}$/;
const SENSITIVE_KEY = /e-?mail|phone|mobile|birth|dob|bday|ssn/i;
const DATE_SHAPES = [
  /^(?<y>\d{4})-(?<m>\d{2})-(?<d>\d{2})$/,
  /^(?<m>\d{1,2})\/(?<d>\d{1,2})\/(?<y>\d{4})$/,
  /^(?<d>\d{1,2})\.(?<m>\d{1,2})\.(?<y>\d{4})$/,
];
const MIN_AGE_YEARS = 13;

/**
 * Applies a metadata update under the SPEC's rules: `undefined` leaves metadata unchanged, `null`
 * clears it, an object merges (a `null` value deletes its key; an empty result reads `null`).
 * Throws ValidationError listing every broken rule, with paths under `metadata`.
 */
export function mergeMetadata(current: Metadata | null | undefined, update: unknown): Metadata | null {
  current ??= null;
  if (update === undefined) return current;
  if (update === null) return null;
  const issues = checkUpdate(update);
  if (issues.length > 0) throw new ValidationError(issues);
  // Keys are the caller's own ("constructor" is an ordinary key): a Map, never property assignment.
  const merged = new Map(Object.entries(current ?? {}));
  for (const [key, value] of Object.entries(update as Record<string, unknown>)) {
    if (value === null) merged.delete(key);
    else merged.set(key, value as string | number | boolean);
  }
  if (merged.size > METADATA_LIMITS.keys) {
    throw new ValidationError([{ path: ['metadata'], message: `metadata can hold at most ${METADATA_LIMITS.keys} keys; this update would leave ${merged.size}` }]);
  }
  return merged.size === 0 ? null : Object.fromEntries(merged);
}

/** The issues with a metadata update object (not yet merged); empty when it is acceptable. */
function checkUpdate(update: unknown): FieldIssue[] {
  if (typeof update !== 'object' || update === null || Array.isArray(update)) {
    return [{ path: ['metadata'], message: 'metadata must be a JSON object or null' }];
  }
  const entries = Object.entries(update);
  if (entries.length === 0) return [{ path: ['metadata'], message: 'metadata must include at least one key' }];
  if (entries.length > METADATA_LIMITS.keys) {
    return [{ path: ['metadata'], message: `metadata can hold at most ${METADATA_LIMITS.keys} keys` }];
  }
  return entries.flatMap(([key, value]) => checkEntry(key, value).map((message) => ({ path: ['metadata', key], message })));
}

function checkEntry(key: string, value: unknown): string[] {
  if (key.length === 0) return ['a metadata key must not be empty'];
  // Other keys named after Object.prototype members ("constructor", "toString") are ordinary keys.
  // This one is not: JavaScript object literals (graphql-jit compiles inline GraphQL arguments into
  // them) and assignments treat it as the prototype, so it could not be written the same way everywhere.
  if (key === '__proto__') return ['"__proto__" cannot be a metadata key'];
  if (key.length > METADATA_LIMITS.keyLength) return [`a metadata key must be at most ${METADATA_LIMITS.keyLength} characters`];
  if (value === null) return [];
  if (!['string', 'number', 'boolean'].includes(typeof value)) return ['a metadata value must be a string, number, boolean or null'];
  if (typeof value === 'number' && !Number.isFinite(value)) return ['a metadata number must be finite'];
  const text = String(value);
  if (text.length > METADATA_LIMITS.valueLength) return [`a metadata value must be at most ${METADATA_LIMITS.valueLength} characters`];
  const sensitive = sensitiveKind(key, text);
  return sensitive ? [`metadata must not hold sensitive data (this looks like ${sensitive}); use the profile's own fields`] : [];
}

function sensitiveKind(key: string, value: string): string | undefined {
  if (SENSITIVE_KEY.test(key)) return 'an email, phone number or birthday, judging by its key';
  if (EMAIL.test(value)) return 'an email address';
  if (PHONE.test(value.trim())) return 'a phone number';
  if (isPlausibleBirthday(value.trim())) return 'a birthday';
  return undefined;
}

/** A date-shaped value between 1900 and MIN_AGE_YEARS ago: the dates a person's birthday takes. */
function isPlausibleBirthday(value: string, today = new Date()): boolean {
  for (const shape of DATE_SHAPES) {
    const groups = shape.exec(value)?.groups;
    if (!groups) continue;
    const year = Number(groups.y);
    const month = Number(groups.m);
    const day = Number(groups.d);
    if (month < 1 || month > 12 || day < 1 || day > 31) return false;
    const latest = today.getUTCFullYear() - MIN_AGE_YEARS;
    return year >= 1900 && year <= latest;
  }
  return false;
}

