import type { Enrichment, EnrichmentInput } from '../../enrichment/enrichment.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { corrections } from '../transaction/transaction-enrichment.store.ts';
import type { Enricher } from '../transaction/transaction-enrichment.ts';
import { enricherOf } from './categorizer.ts';
import { modelOf, rulesOfProfile, saveModel } from './categorization.store.ts';
import { LEARNED, train, wordsOf } from './classifier.ts';

/**
 * Rebuilds the profile's classifier from its corrections as they stand (its latest ones): a
 * correction changed or taken back is learned or forgotten at once, and nothing of another profile
 * ever counts. Runs in the transaction that changed a correction.
 */
export async function retrain(tx: EntityManager, profileId: string): Promise<void> {
  const rows = await corrections(tx, profileId, LEARNED.maxCorrections);
  const counts = train(
    rows.map((row) => ({
      words: wordsOf(row.cleanDescription ?? row.description.trim(), row.merchantName, row.amount),
      primary: row.categoryPrimary,
      detailed: row.categoryDetailed,
    })),
  );
  await saveModel(tx, profileId, counts);
}

/** The profile's enricher as it stands: its classifier and its environment's rules (two reads); `pipeline` as enricherOf takes it. */
export async function enricherFor(em: EntityManager, profileId: string, pipeline?: (input: EnrichmentInput) => Enrichment): Promise<Enricher> {
  const counts = await modelOf(em, profileId);
  return enricherOf(counts, await rulesOfProfile(em, profileId), pipeline);
}
