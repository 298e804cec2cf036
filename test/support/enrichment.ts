import type { Enrichment, ProviderHints } from '../../src/enrichment/enrichment.ts';
import { enrich } from '../../src/enrichment/pipeline.ts';

/** Hints of a provider that gives none: the pipeline reads the line alone. */
export const NO_HINTS: ProviderHints = { merchantName: null, counterpartyName: null, website: null, logoUrl: null, category: null, mcc: null, paymentChannel: null };

/** The enrichment of one line of a depository account, with the hints given (none by default). */
export function enrichLine(description: string, amount = '-12.00', currencyCode = 'EUR', hints: Partial<ProviderHints> = {}): Enrichment {
  return enrich({ description, amount, currencyCode, accountKind: 'DEPOSITORY', hints: { ...NO_HINTS, ...hints } });
}

/** The merchant's name `enrichLine` gives, or null. */
export function nameOfLine(description: string, amount = '-12.00', currencyCode = 'EUR', hints: Partial<ProviderHints> = {}): string | null {
  return enrichLine(description, amount, currencyCode, hints).merchant?.name ?? null;
}

/** The detailed category `enrichLine` gives, or null. */
export function detailedOfLine(description: string, amount = '-12.00', currencyCode = 'EUR', hints: Partial<ProviderHints> = {}): string | null {
  return enrichLine(description, amount, currencyCode, hints).category?.detailed ?? null;
}

/** An enrichment's merchant name and detailed category, each null when absent: what most line tests compare. */
export function nameAndDetailed({ merchant, category }: Enrichment): [string | null, string | null] {
  return [merchant?.name ?? null, category?.detailed ?? null];
}
