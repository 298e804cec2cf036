import { timingSafeEqual } from 'node:crypto';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId } from '../../lib/ids.ts';

/** How long a download URL works after it is read. */
export const URL_LIFETIME_SECONDS = 3600;
/** What the URL's signing key is derived for (FieldCipher.keyedHash): no other keyed hash can stand in for a signature. */
const PURPOSE = 'statement download url';

/** The part of a download URL its signature covers, as the URL carries it (public ids, expiry in Unix seconds). */
export interface DownloadClaim {
  statementId: string;
  profileId: string;
  expires: number;
}

/** `<statement id>\n<profile id>\n<expires>`: newline-separated, so no two claims read alike. */
const signed = ({ statementId, profileId, expires }: DownloadClaim) => `${statementId}\n${profileId}\n${expires}`;

/**
 * A statement's download URL on `origin`, signed for its profile and valid for an hour from `now`
 * (docs/decisions/statements-download-url-signing.md): HMAC-SHA256 under a key derived from the
 * encrypting field key, naming that key, so a rotation leaves the hour's URLs working.
 */
export function downloadUrl(cipher: FieldCipher, origin: string, statement: { id: string; profileId: string }, now: Date): { url: string; expiresAt: Date } {
  const claim = { statementId: encodeId('statement', statement.id), profileId: encodeId('profile', statement.profileId), expires: Math.floor(now.getTime() / 1000) + URL_LIFETIME_SECONDS };
  const url = new URL(`/v1/statements/${claim.statementId}/download`, origin);
  url.searchParams.set('profile', claim.profileId);
  url.searchParams.set('expires', String(claim.expires));
  url.searchParams.set('signature', cipher.keyedHash(PURPOSE, signed(claim)));
  return { url: url.href, expiresAt: new Date(claim.expires * 1000) };
}

/** Why a download URL is refused, or `VALID`. Expiry is checked first, so an expired URL says so whatever else is wrong. */
export function checkDownload(cipher: FieldCipher, claim: DownloadClaim, signature: string, now: Date): 'VALID' | 'EXPIRED' | 'INVALID' {
  if (claim.expires * 1000 <= now.getTime()) return 'EXPIRED';
  const given = Buffer.from(signature);
  const matches = cipher.keyedHashes(PURPOSE, signed(claim)).some((expected) => {
    const wanted = Buffer.from(expected);
    return wanted.length === given.length && timingSafeEqual(wanted, given);
  });
  return matches ? 'VALID' : 'INVALID';
}
