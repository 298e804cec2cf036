import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobDriver } from '../../src/blobs/blob-driver.ts';
import { profileBlobPrefix } from '../../src/blobs/blob-keys.ts';
import { FsBlobStore } from '../../src/blobs/fs-blob-store.ts';
import { blobDirectory } from '../../src/blobs/open-blob-store.ts';
import { S3BlobStore } from '../../src/blobs/s3-blob-store.ts';
import { decodeId } from '../../src/lib/ids.ts';
import { createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

const PLAINTEXT = '%PDF-1.7 statement of Jane Example';

describe.each(['fs', 's3'] as const)('the service\'s blob store (BLOB_STORE=%s)', (blobStore) => {
  let app: TestApp;
  /** The service's store read without decryption: DATA_DIR/blobs, or the app's S3 bucket. */
  let atRest: BlobDriver & { close?(): void };
  beforeAll(async () => {
    app = await startTestApp({}, { blobStore });
    atRest = app.s3 ? new S3BlobStore(app.s3.settings) : new FsBlobStore(blobDirectory(app.dataDir));
  });
  afterAll(async () => {
    atRest?.close?.();
    await app?.stop();
  });

  it('keeps blobs encrypted at rest, and a deleted profile\'s are gone with its rows while another\'s stay', async () => {
    const [doomed, kept] = [await createProfile(app), await createProfile(app)];
    const keyOf = (profile: { id: string }, name: string) => `${profileBlobPrefix(decodeId('profile', profile.id)!)}statements/${name}.pdf`;
    for (const profile of [doomed, kept]) {
      for (const name of ['a', 'b']) await app.service.blobs.put(keyOf(profile, name), Buffer.from(PLAINTEXT));
    }
    expect((await atRest.get(keyOf(doomed, 'a')))!.includes('Jane Example')).toBe(false);
    expect(String(await app.service.blobs.get(keyOf(doomed, 'a')))).toBe(PLAINTEXT);

    expect((await app.http.delete(`/v1/profiles/${doomed.id}`, { auth: app.apiKey })).status).toBe(202);
    await waitFor(async () => ((await app.sql('select 1 from profile where uuid = $1', [doomed.uuid])).length === 0 ? true : undefined), 'profile rows to go');
    const left: string[] = [];
    for await (const key of atRest.keys('profiles/')) left.push(key);
    expect(left.sort()).toEqual([keyOf(kept, 'a'), keyOf(kept, 'b')]);
    expect(await app.service.blobs.get(keyOf(doomed, 'a'))).toBeNull();
    expect(String(await app.service.blobs.get(keyOf(kept, 'b')))).toBe(PLAINTEXT);
  });
});
