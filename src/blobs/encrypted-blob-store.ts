import type { FieldCipher } from '../lib/field-cipher.ts';
import type { BlobDriver } from './blob-driver.ts';
import type { BlobStore } from './blob-store.ts';

/**
 * The store the service hands out: callers put and get plaintext, the driver keeps ciphertext
 * (AES-256-GCM under the field keys, FieldCipher.encryptBlob). The blob key is bound as associated
 * data, so bytes copied under another key do not decrypt (DecryptionError naming the key); the key
 * id in each blob's header lets blobs under an older key still decrypt after a rotation.
 */
export class EncryptedBlobStore implements BlobStore {
  readonly #driver: BlobDriver;
  readonly #cipher: FieldCipher;

  constructor(driver: BlobDriver, cipher: FieldCipher) {
    this.#driver = driver;
    this.#cipher = cipher;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    await this.#driver.put(key, this.#cipher.encryptBlob(key, bytes));
  }

  async get(key: string): Promise<Buffer | null> {
    const stored = await this.#driver.get(key);
    return stored && this.#cipher.decryptBlob(key, stored);
  }

  deletePrefix(prefix: string): Promise<void> {
    return this.#driver.deletePrefix(prefix);
  }
}
