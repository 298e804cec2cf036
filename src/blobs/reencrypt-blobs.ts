import { DecryptionError, type FieldCipher } from '../lib/field-cipher.ts';
import type { BlobDriver } from './blob-driver.ts';
import { profileBlobPrefix } from './blob-keys.ts';

export interface BlobReport {
  rewritten: number;
  /** Keys of the blobs that do not decrypt (tampered with, or under a key not configured): still under an older key. */
  failedKeys: string[];
}

/** A profile's blob key (profileBlobPrefix), its stored uuid captured. */
const PROFILE_KEY = /^profiles\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\//;

/**
 * Rewrites every blob whose header names a key other than the active one under the active key
 * (`npm run cli -- encryption reencrypt`, after the columns). A blob is written once under its key
 * (a statement's PDF), so reading and writing it back races with no other writer but a profile's
 * deletion: a blob rewritten for a profile that, checked after the write, is gone or being deleted is
 * removed again (the deletion marks the profile before it deletes blobs, so it either saw the
 * rewritten blob or left it to this check). Idempotent.
 */
export async function reencryptBlobs(driver: BlobDriver, cipher: FieldCipher, profileLive: (profileId: string) => Promise<boolean>): Promise<BlobReport> {
  const report: BlobReport = { rewritten: 0, failedKeys: [] };
  const active = cipher.keyIds[0];
  for await (const key of driver.keys('')) {
    const stored = await driver.get(key);
    if (stored === null || cipher.blobKeyId(stored) === active) continue;
    let rewritten: Buffer;
    try {
      rewritten = cipher.encryptBlob(key, cipher.decryptBlob(key, stored));
    } catch (error) {
      if (!(error instanceof DecryptionError)) throw error;
      report.failedKeys.push(key);
      continue;
    }
    await driver.put(key, rewritten);
    report.rewritten++;
    const profileId = PROFILE_KEY.exec(key)?.[1];
    if (profileId !== undefined && !(await profileLive(profileId))) await driver.deletePrefix(profileBlobPrefix(profileId));
  }
  return report;
}
