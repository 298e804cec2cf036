import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobDriver } from '../../src/blobs/blob-driver.ts';
import { BlobKeyError } from '../../src/blobs/blob-keys.ts';
import { BLOB_DRIVERS, type OpenedDriver } from '../support/blob-drivers.ts';

/** More than one ListObjectsV2 page and one DeleteObjects call (1,000 keys each). */
const MANY = 1_005;

async function keysOf(driver: BlobDriver, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of driver.keys(prefix)) keys.push(key);
  return keys.sort();
}

describe.each(BLOB_DRIVERS)('the $name blob driver', ({ open }) => {
  let opened: OpenedDriver;
  let driver: BlobDriver;
  beforeAll(async () => {
    opened = await open();
    driver = opened.driver;
  });
  afterAll(() => opened?.close());

  it('gets the bytes put under a key, the latest after an overwrite, and null for a key never put', async () => {
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    await driver.put('profiles/p-put/statements/a.pdf', everyByte);
    expect(await driver.get('profiles/p-put/statements/a.pdf')).toEqual(everyByte);
    const larger = Buffer.alloc(300_000, 'z');
    await driver.put('profiles/p-put/statements/a.pdf', larger);
    expect(await driver.get('profiles/p-put/statements/a.pdf')).toEqual(larger);
    await driver.put('profiles/p-put/empty', Buffer.alloc(0));
    expect(await driver.get('profiles/p-put/empty')).toEqual(Buffer.alloc(0));
    expect(await driver.get('profiles/p-put/statements/b.pdf')).toBeNull();
    expect(await driver.get('profiles/p-put/statements')).toBeNull();
    expect(await driver.get('nothing/here.pdf')).toBeNull();
  });

  it(`deletes every key under a prefix, past one page (${MANY} keys), and no key that only shares its start`, { timeout: 120_000 }, async () => {
    const doomed = Array.from({ length: MANY }, (_, i) => `profiles/p1/statements/${String(i).padStart(4, '0')}.pdf`);
    const queue = [...doomed];
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let key = queue.pop(); key; key = queue.pop()) await driver.put(key, Buffer.from(key));
    }));
    await driver.put('profiles/p10/statements/kept.pdf', Buffer.from('p10'));
    await driver.put('profiles/p2/statements/kept.pdf', Buffer.from('p2'));
    expect(await keysOf(driver, 'profiles/p1/')).toEqual(doomed);

    await driver.deletePrefix('profiles/p1/');
    expect(await keysOf(driver, 'profiles/p1/')).toEqual([]);
    expect(await driver.get(doomed[0]!)).toBeNull();
    expect(await keysOf(driver, 'profiles/p')).toEqual(expect.arrayContaining(['profiles/p10/statements/kept.pdf', 'profiles/p2/statements/kept.pdf']));
    expect(String(await driver.get('profiles/p10/statements/kept.pdf'))).toBe('p10');

    // A prefix is the start of a key, not only of a folder; and nothing under it is no error.
    await driver.deletePrefix('profiles/p1');
    expect(await driver.get('profiles/p10/statements/kept.pdf')).toBeNull();
    expect(String(await driver.get('profiles/p2/statements/kept.pdf'))).toBe('p2');
    await driver.deletePrefix('profiles/none/');
  });

  it('refuses keys and prefixes that could leave the store or name one object two ways, before any request', async () => {
    const bad = ['../secrets.json', 'profiles/../../x', '/etc/passwd', 'profiles//x', 'profiles/./x', 'profiles\\x', '.hidden', 'profiles/x/', 'a b', 'x'.repeat(600), ''];
    for (const key of bad) {
      await expect(driver.put(key, Buffer.from('x')), key).rejects.toThrow(BlobKeyError);
      await expect(driver.get(key), key).rejects.toThrow(BlobKeyError);
    }
    for (const prefix of ['', '/', '../', 'profiles/../', '/profiles/', 'profiles//']) {
      await expect(driver.deletePrefix(prefix), prefix).rejects.toThrow(BlobKeyError);
    }
    if (opened.root) expect(readdirSync(path.dirname(opened.root))).not.toContain('secrets.json');
  });
});

describe('the filesystem blob driver on disk', () => {
  let opened: OpenedDriver;
  beforeAll(async () => (opened = await BLOB_DRIVERS[0]!.open()));
  afterAll(() => opened?.close());

  it('keeps each blob as a 0600 file in 0700 directories, leaving no temporary file after overwrites', async () => {
    for (const text of ['one', 'two', 'three']) await opened.driver.put('profiles/p/statements/s.pdf', Buffer.from(text));
    const root = opened.root!;
    expect(statSync(path.join(root, 'profiles/p/statements/s.pdf')).mode & 0o777).toBe(0o600);
    for (const directory of ['profiles', 'profiles/p', 'profiles/p/statements']) expect(statSync(path.join(root, directory)).mode & 0o777).toBe(0o700);
    expect(readdirSync(path.join(root, 'profiles/p/statements'))).toEqual(['s.pdf']);
    expect(String(await opened.atRest('profiles/p/statements/s.pdf'))).toBe('three');
  });
});
