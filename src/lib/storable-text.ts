import type { FieldIssue } from '../errors.ts';

/**
 * Every string in a JSON-like value (object keys included) that PostgreSQL cannot store: a NUL
 * character (text and jsonb refuse it) or an unpaired UTF-16 surrogate (jsonb refuses it; text
 * would silently get U+FFFD instead). A bad value is reported at its own path, a bad key at the
 * object holding it, so no issue path carries the offending text.
 */
export function unstorableText(value: unknown, path: string[] = []): FieldIssue[] {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? [{ path, message: `must not contain ${problem}` }] : [];
  }
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => unstorableText(item, [...path, String(index)]));
  return Object.entries(value).flatMap(([key, item]) => {
    const problem = textProblem(key);
    return problem ? [{ path, message: `keys must not contain ${problem}` }] : unstorableText(item, [...path, key]);
  });
}

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'NUL characters (\\u0000)';
  if (!text.isWellFormed()) return 'an unpaired surrogate (text must be well-formed Unicode)';
  return undefined;
}
