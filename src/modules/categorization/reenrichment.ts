import type { EntityManager } from '@mikro-orm/postgresql';
import { ENRICHMENT_VERSION } from '../../enrichment/pipeline.ts';
import { sourcesBehind, sourcesOfProfile, writeEnrichments, type EnrichmentSource, type RowPosition, type SourcePosition } from '../transaction/transaction-enrichment.store.ts';
import type { Enricher } from '../transaction/transaction-enrichment.ts';
import { enricherFor } from './learning.ts';

/*
 * Enriching stored transactions again, in small keyset batches: each batch is one read and one
 * UPDATE, in no transaction of its own and under no lock, so syncs go on meanwhile. A row a sync (or
 * a correction) rewrote after the batch read it is left as that write made it (writeEnrichments
 * checks it is unchanged), and a USER category is never replaced.
 */

/** Before the first id (a profile's or a row's). */
export const FIRST_ID = '00000000-0000-0000-0000-000000000000';
/** Where a run over every transaction starts: before the first profile's first row. */
export const FIRST_ROW: RowPosition = { profileId: FIRST_ID, id: FIRST_ID };

/** Rows per batch: one read and one statement of this many small rows. */
export const BATCH = 500;

/** What one run did, and where the next one goes on from (undefined when done). */
export interface Progress {
  rewritten: number;
  next: RowPosition | undefined;
}

/**
 * Brings transactions enriched below ENRICHMENT_VERSION up to it, by profile and id from `from`, for
 * at most `batches` batches. Each profile's enricher is read once per run.
 */
export async function reenrichBehind(em: EntityManager, from: RowPosition, batches: number): Promise<Progress> {
  const enrichers = new Map<string, Enricher>();
  let after = from;
  let rewritten = 0;
  for (let batch = 0; batch < batches; batch++) {
    const sources = await sourcesBehind(em, ENRICHMENT_VERSION, after, BATCH);
    if (sources.length === 0) return { rewritten, next: undefined };
    for (const profileId of new Set(sources.map((source) => source.profileId))) {
      if (!enrichers.has(profileId)) enrichers.set(profileId, await enricherFor(em, profileId));
    }
    rewritten += await rewrite(em, sources, (source) => enrichers.get(source.profileId)!);
    const { profileId, id } = sources.at(-1)!;
    after = { profileId, id };
    // A run over many profiles keeps only so many enrichers.
    if (enrichers.size > BATCH) enrichers.clear();
  }
  return { rewritten, next: after };
}

/** Enriches a profile's transactions again with its enricher as it now stands, newest first, at most `limit` of them. */
export async function reenrichProfile(em: EntityManager, profileId: string, limit = Number.POSITIVE_INFINITY): Promise<number> {
  const enricher = await enricherFor(em, profileId);
  let position: SourcePosition | undefined;
  let rewritten = 0;
  for (let read = 0; read < limit; ) {
    const sources = await sourcesOfProfile(em, profileId, position, Math.min(BATCH, limit - read));
    if (sources.length === 0) break;
    rewritten += await rewrite(em, sources, () => enricher);
    read += sources.length;
    position = sources.at(-1)!;
  }
  return rewritten;
}

function rewrite(em: EntityManager, sources: EnrichmentSource[], enricherOf: (source: EnrichmentSource) => Enricher): Promise<number> {
  return writeEnrichments(em, sources.map((source) => ({ source, enrichment: enricherOf(source)(source.input) })));
}
