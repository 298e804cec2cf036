import type { Enrichment, EnrichmentInput } from '../../enrichment/enrichment.ts';
import { enrich, ENRICHMENT_VERSION } from '../../enrichment/pipeline.ts';
import type { Enricher, StoredEnrichment } from '../transaction/transaction-enrichment.ts';
import { classify, wordsOf, type ClassifierCounts } from './classifier.ts';
import { matchingRule, type OperatorRule } from './operator-rules.ts';

/**
 * The enricher of one profile: the pipeline decides merchant, channel and a PROVIDER or built-in
 * RULES category; the profile's learned classifier overrides it (LEARNED), and failing that the
 * environment's operator rules (RULES). A USER category is above all of them, and kept by the
 * statements that store the result. Order and reasons: docs/decisions/categorization-precedence.md.
 * `pipeline`: `enrich` itself, or a run's memo of it (pipeline-memo.ts).
 */
/** A confidence as stored, with three digits; floored, so a posterior just under 1 never reads as certain. */
function stored(confidence: number): string {
  return (Math.floor(confidence * 1000) / 1000).toFixed(3);
}

export function enricherOf(counts: ClassifierCounts | null, rules: readonly OperatorRule[], pipeline: (input: EnrichmentInput) => Enrichment = enrich): Enricher {
  return (input: EnrichmentInput): StoredEnrichment => {
    const enriched = pipeline(input);
    const merchantName = enriched.merchant?.name ?? null;
    const learned = counts && classify(counts, wordsOf(enriched.cleanDescription, merchantName, input.amount));
    const rule = learned ? undefined : matchingRule(rules, { description: input.description, cleanDescription: enriched.cleanDescription, merchantName, amount: input.amount });
    const category = learned
      ? { primary: learned.primary, detailed: learned.detailed, source: 'LEARNED' as const, confidence: learned.posterior }
      : rule
        ? { primary: rule.categoryPrimary, detailed: rule.categoryDetailed, source: 'RULES' as const, confidence: 1 }
        : enriched.category;
    return {
      cleanDescription: enriched.cleanDescription,
      merchantName,
      merchantWebsite: enriched.merchant?.website ?? null,
      merchantLogoUrl: enriched.merchant?.logoUrl ?? null,
      merchantSource: enriched.merchant?.source ?? null,
      merchantConfidence: enriched.merchant ? stored(enriched.merchant.confidence) : null,
      categoryPrimary: category?.primary ?? null,
      categoryDetailed: category?.detailed ?? null,
      categorySource: category?.source ?? null,
      categoryConfidence: category ? stored(category.confidence) : null,
      paymentChannel: enriched.paymentChannel,
      enrichmentVersion: ENRICHMENT_VERSION,
    };
  };
}
