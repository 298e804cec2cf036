import type { FieldCipher } from '../../lib/field-cipher.ts';

const PURPOSE = 'account identifier';

/** `DE89 3704 0044 0532 0130 00` and `de89370400440532013000` are one IBAN. */
function canonical(identifier: string): string {
  return identifier.replace(/\s+/g, '').toUpperCase();
}

/**
 * The keyed hash stored for an account's identifier (IBAN, full account number): it matches the
 * account across remote ids an upstream reissues, and, unlike the identifier, reveals nothing when
 * read without the service's keys (docs/decisions/accounts-renewal-matching.md).
 */
export function identifierHash(cipher: FieldCipher, identifier: string): string {
  return cipher.keyedHash(PURPOSE, canonical(identifier));
}

/** An identifier's hashes under every configured key, to compare with hashes stored before a key rotation. */
export function identifierHashes(cipher: FieldCipher, identifier: string): string[] {
  return cipher.keyedHashes(PURPOSE, canonical(identifier));
}
