import pg from 'pg';
import type { BlobDriver } from '../../src/blobs/blob-driver.ts';
import { reencryptBlobs, type BlobReport } from '../../src/blobs/reencrypt-blobs.ts';
import { reencryptAll, type ColumnReport } from '../../src/db/reencrypt.ts';
import type { FieldCipher } from '../../src/lib/field-cipher.ts';

const SHOWN_IDS = 10;

/**
 * `encryption reencrypt`: rewrites every encrypted value in the current format under the first key
 * of ENCRYPTION_KEYS, then every blob (BLOB_STORE) under it, then says whether the older keys can
 * go. Exit code 1 while anything is left.
 */
export async function reencryptCommand(databaseUrl: string, cipher: FieldCipher, blobs: BlobDriver): Promise<number> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const reports = await reencryptAll(pool, cipher);
    for (const report of reports) console.log(describe(report));
    const profileLive = async (profileId: string) =>
      (await pool.query('select 1 from profile where id = $1 and deleting_at is null', [profileId])).rowCount === 1;
    const blobReport = await reencryptBlobs(blobs, cipher, profileLive);
    console.log(describeBlobs(blobReport));
    const [active, ...older] = cipher.keyIds;
    if (reports.some((report) => report.remaining > 0) || blobReport.failedKeys.length > 0) {
      console.log('\nNot done: keep every key in ENCRYPTION_KEYS, fix or clear the rows and blobs listed, then run this again.');
      return 1;
    }
    console.log(`\nEvery encrypted value is v2 under key ${active}.`);
    if (older.length > 0) console.log(`No value uses ${older.join(', ')} any more: remove ${older.length > 1 ? 'them' : 'it'} from ENCRYPTION_KEYS and restart.`);
    return 0;
  } finally {
    await pool.end();
  }
}

function describe({ table, column, rewritten, remaining, failedIds }: ColumnReport): string {
  let line = `${`${table}.${column}`.padEnd(48)} ${rewritten} re-encrypted`;
  if (failedIds.length > 0) line += `; does not decrypt (tampered with, or under a key not configured) in rows ${shown(failedIds)}`;
  const unexplained = remaining - failedIds.length;
  if (unexplained > 0) line += `; ${unexplained} written meanwhile under another key (is every instance running this ENCRYPTION_KEYS?)`;
  return line;
}

function describeBlobs({ rewritten, failedKeys }: BlobReport): string {
  let line = `${'blobs (statements)'.padEnd(48)} ${rewritten} re-encrypted`;
  if (failedKeys.length > 0) line += `; does not decrypt (tampered with, or under a key not configured): ${shown(failedKeys)}`;
  return line;
}

function shown(list: string[]): string {
  return list.slice(0, SHOWN_IDS).join(', ') + (list.length > SHOWN_IDS ? `, … (${list.length} in all)` : '');
}
