import type { FuzzRequest } from './requests.ts';
import type { Timed } from './sender.ts';

/**
 * Contract breaches the fuzz suite has found whose fix belongs to code other work is changing. Each
 * is matched narrowly, counted and reported instead of failing the run; delete an entry once it is
 * fixed, and the suite fails again if it comes back.
 */
const KNOWN_ISSUES: Array<{ issue: string; matches: (request: FuzzRequest, response: Timed) => boolean }> = [];

/** The known issue this response shows, if any. */
export function knownIssue(request: FuzzRequest, response: Timed): string | undefined {
  return KNOWN_ISSUES.find((known) => known.matches(request, response))?.issue;
}
