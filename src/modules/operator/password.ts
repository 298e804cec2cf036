import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Argon2id parameters (docs/decisions/operators-password-hashing.md): OWASP's first recommended
 * setting, 19 MiB of memory, 2 passes, 1 lane, a 16-byte salt and a 32-byte hash. They are written
 * into each stored hash, so raising them later re-hashes a password at its next sign-in.
 */
const PARAMETERS = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;
const SALT_BYTES = 16;
const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Passwords Tributary makes (the first operator's, a reset's): 128 random bits, base64url. */
export function randomPassword(): string {
  return randomBytes(16).toString('base64url');
}

/** The password's Argon2id hash as a PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`), computed off the event loop. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, PARAMETERS);
  const { memory, passes, parallelism } = PARAMETERS;
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${unpadded(salt)}$${unpadded(hash)}`;
}

/** Whether `password` is the one `stored` (a PHC string of hashPassword's) was made from; compared in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = PHC.exec(stored);
  if (!match) return false;
  const [, memory, passes, parallelism, salt, hash] = match;
  const expected = Buffer.from(hash!, 'base64');
  const actual = await derive(password, Buffer.from(salt!, 'base64'), { memory: Number(memory), passes: Number(passes), parallelism: Number(parallelism), tagLength: expected.length });
  return timingSafeEqual(actual, expected);
}

/** Whether a stored hash was made with other parameters than today's (then it is re-hashed at the next sign-in). */
export function needsRehash(stored: string): boolean {
  const { memory, passes, parallelism } = PARAMETERS;
  return !stored.startsWith(`$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$`);
}

/**
 * A hash of no one's password, verified against when a sign-in names an unknown email, so that an
 * unknown email costs the same time as a wrong password.
 */
export const DECOY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$dHJpYnV0YXJ5LWRlY295$+Rk9Vvqf4mIGkqkBmR0MxWkpuNq0mS7B6P3bGmVWl2k';

function derive(password: string, salt: Buffer, parameters: { memory: number; passes: number; parallelism: number; tagLength: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    argon2('argon2id', { message: password, nonce: salt, ...parameters }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function unpadded(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}
