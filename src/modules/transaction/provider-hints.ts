import type { PaymentChannel, ProviderHints } from '../../enrichment/enrichment.ts';
import { isCategory } from '../../enrichment/taxonomy.ts';
import { categoryV1OfV2 } from '../../enrichment/taxonomy-v2.ts';

const CHANNELS: readonly PaymentChannel[] = ['ONLINE', 'IN_STORE', 'OTHER'];

/**
 * What a provider said about a transaction, from the `enrichment` it reported (stored under
 * `remoteData.enrichment`: `categories`, `counterpartyName`, `logo`, `website`, and `mcc`,
 * `paymentChannel` or `merchantName` when an adapter reports them). The one place that reads that
 * object for the pipeline. `counterpartyName` is the provider's merchant name (Plaid's, SimpleFIN's
 * payee) unless the object says its merchant name apart (`merchantName`, null when the provider has
 * none): then `counterpartyName` is the bank's payer or payee as it printed it (Enable Banking's), a
 * name the pipeline reads rather than shows. `categories` carry over only as a pair of the taxonomy (Plaid's personal finance
 * categories, `[primary, detailed]`, version 1, or version 2 read as version 1: taxonomy-v2.ts);
 * Plaid's legacy categories, SimpleFIN's free text and the sandbox's legacy-style lists do not.
 */
export function providerHints(enrichment: Record<string, unknown> | null | undefined): ProviderHints {
  const categories: unknown[] = Array.isArray(enrichment?.categories) ? enrichment.categories : [];
  const [primary, detailed] = categories;
  const channel = text(enrichment?.paymentChannel);
  const merchantApart = enrichment !== null && enrichment !== undefined && 'merchantName' in enrichment;
  return {
    merchantName: text(merchantApart ? enrichment.merchantName : enrichment?.counterpartyName),
    counterpartyName: merchantApart ? text(enrichment.counterpartyName) : null,
    website: text(enrichment?.website),
    logoUrl: text(enrichment?.logo),
    category: typeof primary === 'string' && typeof detailed === 'string' ? (isCategory(primary, detailed) ? { primary, detailed } : (categoryV1OfV2(primary, detailed) ?? null)) : null,
    mcc: text(enrichment?.mcc),
    paymentChannel: CHANNELS.find((known) => known === channel) ?? null,
  };
}

/** A non-empty string, trimmed; anything else is null. */
function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
