import { scrypt } from 'node:crypto';
import { promisify } from 'node:util';

const derive = promisify(scrypt) as (secret: string | Buffer, salt: Buffer, length: number, options: { N: number; r: number; p: number }) => Promise<Buffer>;

/**
 * A value that tells whether two processes hold the same secret without revealing it: scrypt under
 * a random salt, so even an operator-chosen SESSION_SECRET cannot be guessed from it at speed.
 */
export async function secretCheckValue(secret: string | Buffer, salt: Buffer): Promise<string> {
  return (await derive(secret, salt, 32, { N: 2 ** 14, r: 8, p: 1 })).toString('base64url');
}
