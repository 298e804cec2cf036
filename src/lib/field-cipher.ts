import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const FORMAT = 'v1';

/**
 * Column-level encryption for sensitive fields (AES-256-GCM). A stored value is
 * `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts), so keys can rotate: the first key of the
 * ring encrypts, every key in the ring decrypts. The field name is bound as associated data, so a
 * ciphertext copied into another column does not decrypt.
 */
export class FieldCipher {
  readonly #keys: Map<string, Buffer>;
  readonly #activeKeyId: string;

  constructor(keys: Array<{ id: string; key: Buffer }>) {
    if (keys.length === 0) throw new Error('FieldCipher needs at least one key');
    for (const { id, key } of keys) {
      if (key.length !== 32) throw new Error(`encryption key "${id}" must be 32 bytes`);
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) throw new Error(`encryption key id "${id}" must be 1-32 of [A-Za-z0-9_-]`);
    }
    this.#keys = new Map(keys.map(({ id, key }) => [id, key]));
    this.#activeKeyId = keys[0]!.id;
  }

  /** Parses `kid:base64key[,kid:base64key…]`. */
  static fromKeyList(list: string): FieldCipher {
    return new FieldCipher(
      list.split(',').map((entry) => {
        const [id = '', key = ''] = entry.trim().split(':');
        return { id, key: Buffer.from(key, 'base64') };
      }),
    );
  }

  encrypt(field: string, plaintext: string | null): string | null {
    if (plaintext === null) return null;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#keys.get(this.#activeKeyId)!, iv);
    cipher.setAAD(Buffer.from(field));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'));
    return [FORMAT, this.#activeKeyId, ...parts].join('.');
  }

  decrypt(field: string, stored: string | null | undefined): string | null {
    if (stored == null) return null;
    const [format, keyId = '', iv = '', tag = '', ciphertext = ''] = stored.split('.');
    const key = this.#keys.get(keyId);
    if (format !== FORMAT || !key) throw new Error(`cannot decrypt ${field}: unknown format or key id "${keyId}"`);
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(field));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
