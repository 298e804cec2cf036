import type { Enrichment, EnrichmentInput } from './enrichment.ts';

/**
 * PLACEHOLDER until the enrichment pipeline merges: carries the provider's hints over, nothing more.
 * Raising it makes the service re-enrich every stored transaction in the background.
 */
export const ENRICHMENT_VERSION = 1;

export function enrich(input: EnrichmentInput): Enrichment {
  const { hints } = input;
  return {
    cleanDescription: input.description.trim(),
    merchant: hints.merchantName ? { name: hints.merchantName, website: hints.website, logoUrl: hints.logoUrl } : null,
    category: hints.category ? { ...hints.category, source: 'PROVIDER', confidence: 1 } : null,
    paymentChannel: hints.paymentChannel ?? 'OTHER',
  };
}
