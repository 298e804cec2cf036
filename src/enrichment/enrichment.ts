/**
 * What the local enrichment pipeline reads and what it decides for one transaction. The pipeline is
 * pure and deterministic (same input, same output, no I/O): it runs inside every sync, for every
 * provider, and again over history when ENRICHMENT_VERSION changes.
 */

/** What a provider already said about a transaction (Plaid's enrichment, SimpleFIN's payee, …). */
export interface ProviderHints {
  /** The provider's own name of the merchant (Plaid's `merchant_name`, SimpleFIN's payee): shown as it is. */
  merchantName: string | null;
  /**
   * Who the bank says paid or was paid (Enable Banking's creditor or debtor name), as the bank has it
   * (ACME SVERIGE AB, PayPal Europe S.a.r.l. et Cie S.C.A): a name to read, not one to show as it is.
   */
  counterpartyName: string | null;
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
/** Who named the merchant: the provider, Tributary's directory, or the bank's own text read by the pipeline. */
export type MerchantSource = 'PROVIDER' | 'DIRECTORY' | 'DESCRIPTION';

export interface Enrichment {
  /** The description without processor prefixes, store and terminal numbers, card references, dates and locations. */
  cleanDescription: string;
  /**
   * The merchant, or for money in the payer; website and logo only when a provider supplied them;
   * how sure the source is (0 to 1, as a category's confidence).
   */
  merchant: { name: string; website: string | null; logoUrl: string | null; source: MerchantSource; confidence: number } | null;
  /** Null when nothing recognised it (the transaction stays uncategorised). */
  category: { primary: string; detailed: string; source: Extract<CategorySource, 'PROVIDER' | 'RULES'>; confidence: number } | null;
  paymentChannel: PaymentChannel;
}
