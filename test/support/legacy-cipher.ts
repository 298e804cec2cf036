import { createCipheriv, randomBytes } from 'node:crypto';

/**
 * A value as Tributary stored it before ciphertexts were bound to their row: `v1.<keyId>.<iv>.<tag>.<ct>`
 * with the field name alone as associated data. Written independently of src/lib/field-cipher.ts,
 * so tests prove the service still reads what older versions wrote.
 */
export function encryptV1(base64Key: string, keyId: string, field: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(base64Key, 'base64'), iv);
  cipher.setAAD(Buffer.from(field));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', keyId, ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'))].join('.');
}
