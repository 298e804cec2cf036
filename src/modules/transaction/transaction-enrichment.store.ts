import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
import type { ReadRow } from '../../db/table.ts';
import type { EnrichmentInput } from '../../enrichment/enrichment.ts';
import { TRANSACTION } from './transaction.store.ts';
import { providerHints } from './provider-hints.ts';
import { CATEGORY_FIELDS, ENRICHMENT_FIELDS, type StoredEnrichment } from './transaction-enrichment.ts';

/*
 * Re-enrichment's side of the transaction table: the stored transactions it reads in batches, the
 * enrichments it writes back, and the user's corrections the learned classifier trains on.
 */

/** An automatic category never replaces the user's: `column = case when USER then column else new end`. */
export const unlessUser = (row: string, value: (field: keyof StoredEnrichment) => string) =>
  CATEGORY_FIELDS.map((field) => `${TRANSACTION.column(field)} = case when ${row}.category_source = 'USER' then ${row}.${TRANSACTION.column(field)} else ${value(field)} end`).join(', ');
/** The enrichment columns other than the category, set from `value`. */
export const enrichedColumns = (value: (field: keyof StoredEnrichment) => string) =>
  ENRICHMENT_FIELDS.filter((field) => !(CATEGORY_FIELDS as readonly string[]).includes(field)).map((field) => `${TRANSACTION.column(field)} = ${value(field)}`).join(', ');

/** What re-enrichment reads of a stored transaction: the pipeline's input, and what its write checks is unchanged. */
const INPUT = ['id', 'profileId', 'description', 'amount', 'currencyCode', 'enrichmentVersion'] as const;
const INPUT_SELECT = `${TRANSACTION.select(INPUT, 't')}, a.kind as "accountKind", t.remote_data->'enrichment' as hints`;
/** The transactions with their accounts, joined on their profile too (a co-located join, docs/scaling.md). */
const INPUT_FROM = 'transaction t join account a on a.profile_id = t.profile_id and a.id = t.account_id';

/** The statements of re-enrichment's reads and writes of the transaction table; test/stores.test.ts prepares each. */
export const transactionEnrichmentStatements = {
  // Re-enrichment's batches, each a keyset page: rows behind a version across the table (by profile and id), a
  // profile's rows newest first (by its (profile, date, id) index), or some of a profile's rows.
  // Behind a version, by the primary key (profile, id): each partition's index read from where the last
  // batch stopped and merged, the page's accounts joined after (joined before, the planner scanned every
  // partition: ids alone have had no index since the table was partitioned by profile).
  inputsBehind: `with page as materialized (select * from transaction
        where (profile_id, id) > ($1::uuid, $2::uuid) and enrichment_version < $3 order by profile_id, id limit $4)
      select ${INPUT_SELECT} from page t join account a on a.profile_id = t.profile_id and a.id = t.account_id order by t.profile_id, t.id`,
  inputsOfProfile: `select ${INPUT_SELECT}, t.date from ${INPUT_FROM}
      where t.profile_id = $1 and (t.date, t.id) < ($2::date, $3::uuid) order by t.date desc, t.id desc limit $4`,
  inputsByIds: `select ${INPUT_SELECT} from ${INPUT_FROM} where t.id = any($1::uuid[]) and t.profile_id = $2`,
  // Writes a batch's new enrichment, only to rows still as they were read (same version, description,
  // amount and provider hints): a sync that rewrote one meanwhile wrote its enrichment itself. Only
  // rows whose enrichment changes are written; a USER category stays.
  writeEnrichments: `update transaction t
        set ${enrichedColumns((field) => `r."${field}"`)}, ${unlessUser('t', (field) => `r."${field}"`)}
       from jsonb_to_recordset($1::jsonb) as r(${TRANSACTION.recordset(['id', 'profileId', 'description', 'amount', ...ENRICHMENT_FIELDS])}, "readVersion" integer, hints jsonb)
      where t.profile_id = r."profileId" and t.id = r.id and t.enrichment_version = r."readVersion" and t.description = r.description and t.amount = r.amount
        and t.remote_data->'enrichment' is not distinct from r.hints
        and (${ENRICHMENT_FIELDS.map((field) => `t.${TRANSACTION.column(field)}`).join(', ')}) is distinct from (${ENRICHMENT_FIELDS.map((field) => `r."${field}"`).join(', ')})`,
  // The profile's corrections, newest first: the learned classifier's training set.
  corrections: `select t.clean_description as "cleanDescription", t.description, t.merchant_name as "merchantName", t.amount,
        t.category_primary as "categoryPrimary", t.category_detailed as "categoryDetailed"
       from transaction t where t.profile_id = $1 and t.category_source = 'USER' order by t.date desc, t.id desc limit $2`,
};

/** A stored transaction as re-enrichment reads it: the pipeline's input, and what the write checks is unchanged. */
export interface EnrichmentSource {
  id: string;
  profileId: string;
  input: EnrichmentInput;
  readVersion: number;
  /** `remoteData.enrichment` as stored (null when the provider reported none). */
  hints: Record<string, unknown> | null;
}

/** Where a profile's keyset page of sources starts: after (date, id), newest first. */
export interface SourcePosition {
  date: string;
  id: string;
}

type InputRow = ReadRow<typeof TRANSACTION, (typeof INPUT)[number]> & { accountKind: EnrichmentInput['accountKind']; hints: Record<string, unknown> | null };

function toSource(row: InputRow): EnrichmentSource {
  const { id, profileId, description, amount, currencyCode, accountKind, hints, enrichmentVersion } = row;
  return { id, profileId, readVersion: enrichmentVersion, hints, input: { description, amount, currencyCode, accountKind, hints: providerHints(hints) } };
}

/** Where a keyset page of sources across every profile starts: after (profile, id). */
export interface RowPosition {
  profileId: string;
  id: string;
}

/** Up to `limit` transactions (any profile's) enriched below `version`, after `after`, by profile and id. */
export async function sourcesBehind(em: EntityManager, version: number, after: RowPosition, limit: number): Promise<EnrichmentSource[]> {
  return (await run<InputRow>(em, transactionEnrichmentStatements.inputsBehind, [after.profileId, after.id, version, limit])).rows.map(toSource);
}

/** Up to `limit` of a profile's transactions before `position` (all, when absent), newest first, each with its position. */
export async function sourcesOfProfile(em: EntityManager, profileId: string, position: SourcePosition | undefined, limit: number): Promise<Array<EnrichmentSource & { date: string }>> {
  const { date, id } = position ?? { date: 'infinity', id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' };
  const { rows } = await run<InputRow & { date: string }>(em, transactionEnrichmentStatements.inputsOfProfile, [profileId, date, id, limit]);
  return rows.map((row) => ({ ...toSource(row), date: row.date }));
}

/** The profile's transactions of `ids` as sources. */
export async function sourcesByIds(em: EntityManager, profileId: string, ids: string[]): Promise<EnrichmentSource[]> {
  return (await run<InputRow>(em, transactionEnrichmentStatements.inputsByIds, [ids, profileId])).rows.map(toSource);
}

/** Stores new enrichments of sources, each only if its row is still as it was read; returns how many rows changed. */
export async function writeEnrichments(em: EntityManager, enriched: Array<{ source: EnrichmentSource; enrichment: StoredEnrichment }>): Promise<number> {
  if (enriched.length === 0) return 0;
  const rows = enriched.map(({ source, enrichment }) => ({
    id: source.id,
    profileId: source.profileId,
    description: source.input.description,
    amount: source.input.amount,
    readVersion: source.readVersion,
    hints: source.hints,
    ...enrichment,
  }));
  return (await run(em, transactionEnrichmentStatements.writeEnrichments, [JSON.stringify(rows)])).count;
}

/** A correction the learned classifier trains on. */
export interface CorrectionRow {
  cleanDescription: string | null;
  description: string;
  merchantName: string | null;
  amount: string;
  categoryPrimary: string;
  categoryDetailed: string;
}

/** The profile's latest `limit` corrections (transactions whose category the user set). */
export async function corrections(em: EntityManager, profileId: string, limit: number): Promise<CorrectionRow[]> {
  return (await run<CorrectionRow>(em, transactionEnrichmentStatements.corrections, [profileId, limit])).rows;
}
