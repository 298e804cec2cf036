import type { CategorySource, EnrichmentInput, MerchantSource, PaymentChannel } from '../../enrichment/enrichment.ts';

/** What the service stores of a transaction's enrichment: the transaction table's enrichment columns. */
export interface StoredEnrichment {
  cleanDescription: string;
  merchantName: string | null;
  merchantWebsite: string | null;
  merchantLogoUrl: string | null;
  merchantSource: MerchantSource | null;
  /** Exact decimal text with three digits, 0.000 to 1.000. */
  merchantConfidence: string | null;
  categoryPrimary: string | null;
  categoryDetailed: string | null;
  categorySource: CategorySource | null;
  /** Exact decimal text with three digits, 0.000 to 1.000. */
  categoryConfidence: string | null;
  paymentChannel: PaymentChannel;
  enrichmentVersion: number;
}

/**
 * Enriches one transaction for storage: the pipeline, then the profile's learned classifier and its
 * environment's rules (src/modules/categorization/categorizer.ts). A category the user set is not its
 * business: the statements that write its result keep a USER category as it is.
 */
export type Enricher = (input: EnrichmentInput) => StoredEnrichment;

/** The enrichment columns, in the order the statements list them. */
export const ENRICHMENT_FIELDS = [
  'cleanDescription',
  'merchantName',
  'merchantWebsite',
  'merchantLogoUrl',
  'merchantSource',
  'merchantConfidence',
  'categoryPrimary',
  'categoryDetailed',
  'categorySource',
  'categoryConfidence',
  'paymentChannel',
  'enrichmentVersion',
] as const satisfies ReadonlyArray<keyof StoredEnrichment>;

/** The columns that hold the category: a USER category keeps all four. */
export const CATEGORY_FIELDS = ['categoryPrimary', 'categoryDetailed', 'categorySource', 'categoryConfidence'] as const satisfies ReadonlyArray<keyof StoredEnrichment>;
