import type { FieldIssue } from '../errors.ts';

/** A place in the value being checked; its path is built only when something there is reported. */
interface Visit {
  value: unknown;
  key: string;
  parent: Visit | undefined;
  /** Set on the visit that reports a bad key of the object `parent`. */
  keyProblem?: string;
}

/**
 * Every string in a JSON-like value (object keys included) that PostgreSQL cannot store: a NUL
 * character (text and jsonb refuse it) or an unpaired UTF-16 surrogate (jsonb refuses it; text
 * would silently get U+FFFD instead). A bad value is reported at its own path, a bad key at the
 * object holding it, so no issue path carries the offending text. Issues come in document order.
 * The walk is iterative: a request body may nest deeper than the call stack goes.
 */
export function unstorableText(value: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const pending: Visit[] = [{ value, key: '', parent: undefined }];
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    if (visit.keyProblem) {
      issues.push({ path: pathOf(visit.parent), message: `keys must not contain ${visit.keyProblem}` });
      continue;
    }
    const current = visit.value;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) issues.push({ path: pathOf(visit), message: `must not contain ${problem}` });
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) pending.push({ value: current[index], key: String(index), parent: visit });
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current as Record<string, unknown>);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, item] = entries[index];
        const keyProblem = textProblem(key);
        pending.push(keyProblem ? { value: undefined, key, parent: visit, keyProblem } : { value: item, key, parent: visit });
      }
    }
  }
  return issues;
}

function pathOf(visit: Visit | undefined): string[] {
  const path: string[] = [];
  for (let at = visit; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'NUL characters (\\u0000)';
  if (!text.isWellFormed()) return 'an unpaired surrogate (text must be well-formed Unicode)';
  return undefined;
}
