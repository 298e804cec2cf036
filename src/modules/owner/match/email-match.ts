import validator from 'validator';
import { best, fieldMatch, type FieldMatch } from './threshold.ts';

/**
 * The profile's email against the owners' addresses (the contract's `OwnerFieldMatch`), the best
 * pair kept; null when either side has none.
 */
export function matchEmail(profileEmail: string | null, ownerEmails: readonly string[]): FieldMatch | null {
  if (!profileEmail) return null;
  const top = best(ownerEmails.map((email) => ({ score: compareEmails(profileEmail, email) })));
  return top && fieldMatch(top.score);
}

/**
 * 100: the same address, whatever the case; 90: the same mailbox by its provider's rules
 * (validator's normalizeEmail, a maintained list of the large providers' domains: Gmail ignores dots
 * and `+` tags, Outlook, Yahoo and iCloud their sub-address tags); 70: the same but for a `+` tag
 * at another domain; otherwise 0.
 */
export function compareEmails(a: string, b: string): number {
  const [left, right] = [a.trim().toLowerCase(), b.trim().toLowerCase()];
  if (left === right) return 100;
  if (!left.includes('@') || !right.includes('@')) return 0;
  if (validator.normalizeEmail(left) === validator.normalizeEmail(right)) return 90;
  return withoutTag(left) === withoutTag(right) ? 70 : 0;
}

function withoutTag(address: string): string {
  const at = address.lastIndexOf('@');
  return address.slice(0, at).replace(/\+.*$/, '') + address.slice(at);
}
