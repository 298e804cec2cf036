import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { secretCheckValue } from './secret-check-value.ts';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'v2';
/** Written before row binding: the associated data was the field name alone. Read until re-encrypted. */
const LEGACY_FORMAT = 'v1';
/** The first bytes of an encrypted blob (format 1). */
const BLOB_MAGIC = Buffer.from('tbl1');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The row an encrypted value belongs to: its primary key, known before the row is inserted. */
export interface CipherRecord {
  id: string;
}

/**
 * A stored value that does not decrypt here: tampered with, moved from another row, column or blob
 * key, or under a key no longer configured. Names the field and row, or the blob key (never the
 * value), so the log leads the operator to it; the API answers a 500, never another row's data.
 */
export class DecryptionError extends Error {
  /** `what`: `<field> of record <id>`, or `blob <key>`. */
  constructor(what: string, reason: string) {
    super(`cannot decrypt ${what}: ${reason}`);
    this.name = 'DecryptionError';
  }
}

/**
 * Column-level encryption for sensitive fields (AES-256-GCM). A stored value is
 * `v2.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts), so keys can rotate: the first key of the
 * ring encrypts, every key in the ring decrypts. The field name and the row's id are bound as
 * associated data, so a ciphertext copied into another column or another row does not decrypt.
 * Legacy `v1` values (bound to the field only) still decrypt; `npm run cli -- encryption reencrypt`
 * rewrites them, and values under older keys, in the current format and key.
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

  /** Ids of the configured keys, the encrypting one first. */
  get keyIds(): string[] {
    return [...this.#keys.keys()];
  }

  /** The check value of key `keyId` under `salt` (see src/db/key-check.ts): never the key itself. */
  checkValueOf(keyId: string, salt: Buffer): Promise<string> {
    const key = this.#keys.get(keyId);
    if (!key) throw new Error(`encryption key "${keyId}" is not configured`);
    return secretCheckValue(key, salt);
  }

  /** How every value written now begins: a stored value without it is due for re-encryption. */
  get currentPrefix(): string {
    return `${FORMAT}.${this.#activeKeyId}.`;
  }

  /** Encrypts `field` of the row `record` (pass the entity, or `{ id }` of a row about to be inserted). */
  encrypt(field: string, record: CipherRecord, plaintext: string): string;
  encrypt(field: string, record: CipherRecord, plaintext: string | null): string | null;
  encrypt(field: string, record: CipherRecord, plaintext: string | null): string | null {
    const aad = boundData(field, record);
    if (plaintext === null) return null;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#keys.get(this.#activeKeyId)!, iv);
    cipher.setAAD(aad);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'));
    return [FORMAT, this.#activeKeyId, ...parts].join('.');
  }

  /** Decrypts `field` of the row `record`; throws DecryptionError when the value was not written for it. */
  decrypt(field: string, record: CipherRecord, stored: string): string;
  decrypt(field: string, record: CipherRecord, stored: string | null | undefined): string | null;
  decrypt(field: string, record: CipherRecord, stored: string | null | undefined): string | null {
    const aad = boundData(field, record);
    if (stored == null) return null;
    const what = `${field} of record ${record.id}`;
    const [format, keyId = '', iv = '', tag = '', ciphertext = ''] = stored.split('.');
    if (format !== FORMAT && format !== LEGACY_FORMAT) throw new DecryptionError(what, `unknown format "${format}"`);
    const key = this.#keys.get(keyId);
    if (!key) throw new DecryptionError(what, `key "${keyId}" is not configured`);
    try {
      const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(format === FORMAT ? aad : Buffer.from(field));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new DecryptionError(what, 'authentication failed (tampered with, or written for another field or row)');
    }
  }

  /**
   * Encrypts the bytes stored under blob key `blobKey`: `tbl1`, the key id's length (one byte) and
   * the key id, then iv, tag and ciphertext. The header and the blob key are the associated data, so
   * a blob copied under another key, or its header edited, does not decrypt.
   */
  encryptBlob(blobKey: string, plaintext: Buffer): Buffer {
    const header = blobHeader(this.#activeKeyId);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#keys.get(this.#activeKeyId)!, iv);
    cipher.setAAD(Buffer.concat([header, Buffer.from(blobKey)]));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([header, iv, cipher.getAuthTag(), ciphertext]);
  }

  /** The plaintext of `stored`, read under blob key `blobKey`; throws DecryptionError when it was not written there by encryptBlob. */
  decryptBlob(blobKey: string, stored: Buffer): Buffer {
    const what = `blob ${blobKey}`;
    const keyId = this.blobKeyId(stored);
    if (keyId === undefined) throw new DecryptionError(what, 'not an encrypted blob (no header)');
    const key = this.#keys.get(keyId);
    if (!key) throw new DecryptionError(what, `key "${keyId}" is not configured`);
    const headerBytes = BLOB_MAGIC.length + 1 + keyId.length;
    const iv = stored.subarray(headerBytes, headerBytes + IV_BYTES);
    const tag = stored.subarray(headerBytes + IV_BYTES, headerBytes + IV_BYTES + TAG_BYTES);
    try {
      const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.concat([stored.subarray(0, headerBytes), Buffer.from(blobKey)]));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(stored.subarray(headerBytes + IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      throw new DecryptionError(what, 'authentication failed (tampered with, truncated, or written under another blob key)');
    }
  }

  /** The id of the key an encrypted blob is under (read from its header), or undefined when it has no header. */
  blobKeyId(stored: Buffer): string | undefined {
    if (stored.length < BLOB_MAGIC.length + 1 || !stored.subarray(0, BLOB_MAGIC.length).equals(BLOB_MAGIC)) return undefined;
    const length = stored[BLOB_MAGIC.length]!;
    const end = BLOB_MAGIC.length + 1 + length;
    if (stored.length < end + IV_BYTES + TAG_BYTES) return undefined;
    return stored.subarray(BLOB_MAGIC.length + 1, end).toString('latin1');
  }

  /**
   * A keyed hash (HMAC-SHA256) of `value` for `purpose`, under a key derived from the encrypting key:
   * `<keyId>.<base64url>`. For values compared but never stored as is (an account's IBAN); without
   * the key, a stored hash cannot be tested against guesses.
   */
  keyedHash(purpose: string, value: string): string {
    return this.#keyedHash(this.#activeKeyId, purpose, value);
  }

  /** `value`'s keyed hashes under every key of the ring, so a hash stored before a rotation still matches. */
  keyedHashes(purpose: string, value: string): string[] {
    return this.keyIds.map((keyId) => this.#keyedHash(keyId, purpose, value));
  }

  #keyedHash(keyId: string, purpose: string, value: string): string {
    const key = Buffer.from(hkdfSync('sha256', this.#keys.get(keyId)!, Buffer.alloc(0), `tributary keyed hash: ${purpose}`, 32));
    return `${keyId}.${createHmac('sha256', key).update(value, 'utf8').digest('base64url')}`;
  }

  /** The stored value in the current format under the active key (null stays null). */
  reencrypt(field: string, record: CipherRecord, stored: string | null): string | null {
    return this.encrypt(field, record, this.decrypt(field, record, stored));
  }
}

/** `<field>\0<record id>`: the record id is checked to be a stored uuid, so a wrong argument fails loudly. */
function boundData(field: string, record: CipherRecord): Buffer {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(field)) throw new Error(`FieldCipher: field name "${field}" must be alphanumeric`);
  if (typeof record?.id !== 'string' || !UUID.test(record.id)) throw new Error(`FieldCipher: ${field} needs the id (a lowercase uuid) of the row it belongs to`);
  return Buffer.from(`${field}\0${record.id}`);
}

function blobHeader(keyId: string): Buffer {
  return Buffer.concat([BLOB_MAGIC, Buffer.from([keyId.length]), Buffer.from(keyId, 'latin1')]);
}
