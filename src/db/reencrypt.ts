import type pg from 'pg';
import { DecryptionError, type FieldCipher } from '../lib/field-cipher.ts';

/**
 * Every column that holds FieldCipher values, with the field name its values are bound to. A test
 * checks that every `*_encrypted` column of the schema is listed, so a new one cannot be missed.
 */
export const ENCRYPTED_COLUMNS = [
  { table: 'profile', column: 'email_encrypted', field: 'email' },
  { table: 'profile', column: 'phone_encrypted', field: 'phone' },
  { table: 'profile', column: 'date_of_birth_encrypted', field: 'dateOfBirth' },
  { table: 'profile', column: 'address_encrypted', field: 'address' },
  { table: 'connection', column: 'credential_encrypted', field: 'credential' },
  { table: 'connection', column: 'refresh_presence_encrypted', field: 'refreshPresence' },
  // The current and the previous secret share a field: rotation moves the value from one to the other.
  { table: 'webhook_subscription', column: 'secret_encrypted', field: 'webhookSecret' },
  { table: 'webhook_subscription', column: 'previous_secret_encrypted', field: 'webhookSecret' },
  { table: 'provider_setting', column: 'settings_encrypted', field: 'providerSettings' },
  { table: 'account_owners', column: 'owners_encrypted', field: 'accountOwners' },
  // A confirmed enrolment moves the pending secret to the current one: they share a field.
  { table: 'operator', column: 'totp_secret_encrypted', field: 'totpSecret' },
  { table: 'operator', column: 'totp_pending_encrypted', field: 'totpSecret' },
] as const;

export interface ColumnReport {
  table: string;
  column: string;
  rewritten: number;
  /** Values still not in the current format and key afterwards (failed, or written meanwhile by an instance with another key list). */
  remaining: number;
  /** Ids of the rows whose value does not decrypt (tampered with, or under a key not configured). */
  failedIds: string[];
}

/** The one call re-encryption makes: a pg Pool or Client. */
export interface Queryable {
  query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>>;
}

/**
 * Rewrites every encrypted value that is not yet in the current format under the active key: legacy
 * v1 values become v2 (bound to their row), values under older keys move to the active key. Runs
 * in batches of `batchSize` rows, one UPDATE each, alongside a running service: a row is only rewritten if it still
 * holds the value that was read, so a concurrent update is never overwritten. Idempotent.
 */
export async function reencryptAll(db: Queryable, cipher: FieldCipher, batchSize = 500): Promise<ColumnReport[]> {
  const reports: ColumnReport[] = [];
  for (const target of ENCRYPTED_COLUMNS) reports.push(await reencryptColumn(db, cipher, target, batchSize));
  return reports;
}

async function reencryptColumn(
  db: Queryable,
  cipher: FieldCipher,
  { table, column, field }: (typeof ENCRYPTED_COLUMNS)[number],
  batchSize: number,
): Promise<ColumnReport> {
  const stale = `${column} is not null and not starts_with(${column}, $1)`;
  const report: ColumnReport = { table, column, rewritten: 0, remaining: 0, failedIds: [] };
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await db.query<{ id: string; value: string }>(
      `select id, ${column} as value from ${table} where id > $2 and ${stale} order by id limit $3`,
      [cipher.currentPrefix, after, batchSize],
    );
    if (rows.length === 0) break;
    after = rows.at(-1)!.id;
    const ids: string[] = [];
    const olds: string[] = [];
    const news: string[] = [];
    for (const { id, value } of rows) {
      try {
        news.push(cipher.reencrypt(field, { id }, value)!);
        ids.push(id);
        olds.push(value);
      } catch (error) {
        if (!(error instanceof DecryptionError)) throw error;
        report.failedIds.push(id);
      }
    }
    const { rowCount } = await db.query(
      `update ${table} as t set ${column} = v.value
         from unnest($1::uuid[], $2::text[], $3::text[]) as v(id, old, value)
        where t.id = v.id and t.${column} = v.old`,
      [ids, olds, news],
    );
    report.rewritten += rowCount ?? 0;
  }
  const { rows } = await db.query<{ count: string }>(`select count(*) from ${table} where ${stale}`, [cipher.currentPrefix]);
  report.remaining = Number(rows[0]!.count);
  return report;
}
