import type { Enrichment, EnrichmentInput } from '../../enrichment/enrichment.ts';
import { enrich } from '../../enrichment/pipeline.ts';

/** Lines one memo keeps: a sync's batch (2,000 rows) fits; a longer run starts over when it is full. */
const MEMO_LINES = 4096;

/**
 * The pipeline for one run over many transactions (a sync's batch of pages), answering a line it has
 * already enriched in this run from memory: a household's card and bill lines repeat word for word
 * (the same store's descriptor, a monthly direct debit). `enrich` is pure and reads of the amount
 * only its sign (test/unit/enrichment-memo.test.ts holds it to that), so the key is everything else
 * it reads and that sign. The answers are shared: callers read them, never change them.
 * Why per batch, and what it bought: docs/decisions/sync-enrichment-memo.md.
 */
export function memoizedEnrich(): (input: EnrichmentInput) => Enrichment {
  const seen = new Map<string, Enrichment>();
  return (input) => {
    const key = keyOf(input);
    let enrichment = seen.get(key);
    if (enrichment === undefined) {
      enrichment = enrich(input);
      if (seen.size === MEMO_LINES) seen.clear();
      seen.set(key, enrichment);
    }
    return enrichment;
  };
}

/** Every hint as it is (a hint added later is in the key without a change here); the amount's sign. */
function keyOf({ description, amount, currencyCode, accountKind, hints }: EnrichmentInput): string {
  return JSON.stringify([description, amount.trimStart().startsWith('-'), currencyCode, accountKind, hints]);
}
