import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EncryptedBlobStore } from '../../src/blobs/encrypted-blob-store.ts';
import { DecryptionError, FieldCipher } from '../../src/lib/field-cipher.ts';
import { BLOB_DRIVERS, type OpenedDriver } from '../support/blob-drivers.ts';

const keyList = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
/** Plaintext with a run no ciphertext will hold by chance. */
const statement = Buffer.from(`%PDF-1.7\nAccount 1234-5678 statement, Jane Example, 4 Market St, balance 1234.56\n${'STATEMENT-PLAINTEXT '.repeat(50)}`);

describe.each(BLOB_DRIVERS)('encrypted blobs on the $name driver', ({ open }) => {
  let opened: OpenedDriver;
  const old = keyList('old');
  const cipher = FieldCipher.fromKeyList(old);
  let blobs: EncryptedBlobStore;
  beforeAll(async () => {
    opened = await open();
    blobs = new EncryptedBlobStore(opened.driver, cipher);
  });
  afterAll(() => opened?.close());

  it('keeps ciphertext at rest, a fresh one each write, and gives the plaintext back', async () => {
    await blobs.put('profiles/p/statements/a.pdf', statement);
    const first = await opened.atRest('profiles/p/statements/a.pdf');
    await blobs.put('profiles/p/statements/a.pdf', statement);
    const second = await opened.atRest('profiles/p/statements/a.pdf');
    for (const stored of [first, second]) {
      expect(stored.includes('STATEMENT-PLAINTEXT')).toBe(false);
      expect(stored.includes('Jane Example')).toBe(false);
      expect(stored.subarray(0, 4).toString()).toBe('tbl1');
    }
    expect(first.equals(second)).toBe(false);
    expect(await blobs.get('profiles/p/statements/a.pdf')).toEqual(statement);
    expect(await blobs.get('profiles/p/statements/missing.pdf')).toBeNull();
  });

  it('refuses a tampered, truncated or moved blob with an error naming its key, never other bytes', async () => {
    await blobs.put('profiles/p/statements/b.pdf', statement);
    const stored = await opened.atRest('profiles/p/statements/b.pdf');
    const tampered = Buffer.from(stored);
    tampered[tampered.length - 10]! ^= 0x01;
    await opened.driver.put('profiles/p/statements/b.pdf', tampered);
    await expect(blobs.get('profiles/p/statements/b.pdf')).rejects.toThrow(DecryptionError);
    await expect(blobs.get('profiles/p/statements/b.pdf')).rejects.toThrow(/cannot decrypt blob profiles\/p\/statements\/b\.pdf: authentication failed/);

    await opened.driver.put('profiles/p/statements/b.pdf', stored.subarray(0, 12));
    await expect(blobs.get('profiles/p/statements/b.pdf')).rejects.toThrow(/cannot decrypt blob profiles\/p\/statements\/b\.pdf: not an encrypted blob/);

    // Another profile's statement copied over this key: decrypts only under the key it was written for.
    await opened.driver.put('profiles/q/statements/b.pdf', stored);
    await expect(blobs.get('profiles/q/statements/b.pdf')).rejects.toThrow(/cannot decrypt blob profiles\/q\/statements\/b\.pdf: authentication failed/);
    await opened.driver.put('profiles/p/statements/b.pdf', stored);
    expect(await blobs.get('profiles/p/statements/b.pdf')).toEqual(statement);
  });

  it('reads blobs written under an older key after a rotation, and writes new ones under the new key', async () => {
    await blobs.put('profiles/p/statements/before.pdf', statement);
    const rotated = new EncryptedBlobStore(opened.driver, FieldCipher.fromKeyList(`${keyList('new')},${old}`));
    expect(await rotated.get('profiles/p/statements/before.pdf')).toEqual(statement);
    await rotated.put('profiles/p/statements/after.pdf', statement);
    expect(cipher.blobKeyId(await opened.atRest('profiles/p/statements/before.pdf'))).toBe('old');
    expect(cipher.blobKeyId(await opened.atRest('profiles/p/statements/after.pdf'))).toBe('new');
    // The old key gone from the ring: its blobs name it, and do not decrypt.
    const withoutOld = new EncryptedBlobStore(opened.driver, FieldCipher.fromKeyList(keyList('new')));
    await expect(withoutOld.get('profiles/p/statements/before.pdf')).rejects.toThrow(/blob profiles\/p\/statements\/before\.pdf: key "old" is not configured/);
  });
});
