/** A blob key or prefix the stores refuse: it could name a path outside the store, or an object another key also names. */
export class BlobKeyError extends Error {
  constructor(key: string, reason: string) {
    super(`blob key ${JSON.stringify(key)} refused: ${reason}`);
    this.name = 'BlobKeyError';
  }
}

/** One path segment: starts with a letter, digit, `_` or `-` (so never `.`, `..` or a hidden temporary file). */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const MAX_KEY_LENGTH = 512;

/**
 * Checks a blob key: `/`-separated segments of letters, digits, `.`, `_` and `-`, none empty or
 * starting with a dot (no `..`, no absolute key, no backslash), at most 512 characters. Every driver
 * checks, so a key means the same file or object everywhere.
 */
export function checkBlobKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0) throw new BlobKeyError(String(key), 'empty');
  if (key.length > MAX_KEY_LENGTH) throw new BlobKeyError(key.slice(0, 64), `longer than ${MAX_KEY_LENGTH} characters`);
  if (key.startsWith('/')) throw new BlobKeyError(key, 'absolute');
  for (const segment of key.split('/')) {
    if (!SEGMENT.test(segment)) throw new BlobKeyError(key, `segment ${JSON.stringify(segment)} is not letters, digits, ".", "_" and "-" starting with no dot`);
  }
  return key;
}

/** Checks a deletePrefix prefix: a key's start, so a key itself or one ending in `/` (never empty: that would be every blob). */
export function checkBlobPrefix(prefix: string): string {
  checkBlobKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
  return prefix;
}

/** Where the blobs of profile `profileId` (its stored uuid) are kept; its deletion removes them all. */
export function profileBlobPrefix(profileId: string): string {
  return `profiles/${profileId}/`;
}
