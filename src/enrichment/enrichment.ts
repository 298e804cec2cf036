/**
 * What the local enrichment pipeline reads and what it decides for one transaction. The pipeline is
 * pure and deterministic (same input, same output, no I/O): it runs inside every sync, for every
 * provider, and again over history when ENRICHMENT_VERSION changes.
 */

/** What a provider already said about a transaction (Plaid's enrichment, SimpleFIN's payee, …). */
export interface ProviderHints {
  merchantName: string | null;
  website: string | null;
  logoUrl: string | null;
  /** A category in Tributary's taxonomy (Plaid's personal finance categories carry over one-to-one). */
  category: { primary: string; detailed: string } | null;
  /** ISO 18245 merchant category code, when the upstream reports one. */
  mcc: string | null;
  paymentChannel: PaymentChannel | null;
}

export interface EnrichmentInput {
  /** The bank's own text, as raw as the provider gives it. */
  description: string;
  /** Signed as Tributary's amounts: positive = money in. */
  amount: string;
  currencyCode: string;
  accountKind: 'DEPOSITORY' | 'CREDIT' | 'LOAN' | 'INVESTMENT';
  hints: ProviderHints;
}

export type PaymentChannel = 'ONLINE' | 'IN_STORE' | 'OTHER';
export type CategorySource = 'PROVIDER' | 'RULES' | 'LEARNED' | 'USER';

export interface Enrichment {
  /** The description without processor prefixes, store and terminal numbers, card references, dates and locations. */
  cleanDescription: string;
  /** Recognised merchant; website and logo only when a provider supplied them. */
  merchant: { name: string; website: string | null; logoUrl: string | null } | null;
  /** Null when nothing recognised it (the transaction stays uncategorised). */
  category: { primary: string; detailed: string; source: Extract<CategorySource, 'PROVIDER' | 'RULES'>; confidence: number } | null;
  paymentChannel: PaymentChannel;
}
