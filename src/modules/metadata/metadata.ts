import type { FieldIssue } from '../../errors.ts';
import { ValidationError } from '../../errors.ts';
import { sensitiveDataIn } from './sensitive-data.ts';

/** Custom metadata as stored: never empty (an empty result is stored as null). */
export type Metadata = Record<string, string | number | boolean>;

const METADATA_LIMITS = { keys: 50, keyLength: 50, valueLength: 500 } as const;

/**
 * Applies a metadata update under the metadata rules: `undefined` leaves metadata unchanged, `null`
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
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return ['a metadata value must be a string, number, boolean or null'];
  if (typeof value === 'number' && !Number.isFinite(value)) return ['a metadata number must be finite'];
  const text = String(value);
  if (text.length > METADATA_LIMITS.valueLength) return [`a metadata value must be at most ${METADATA_LIMITS.valueLength} characters`];
  const sensitive = sensitiveDataIn(key, text);
  return sensitive ? [`metadata must not hold sensitive data (this looks like ${sensitive}); use the profile's own fields`] : [];
}
