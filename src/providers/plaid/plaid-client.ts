import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { Configuration, PlaidApi, PlaidEnvironments } from 'plaid';

/** Plaid's environments and where they are served. */
export const PLAID_ENVS = { sandbox: PlaidEnvironments.sandbox!, production: PlaidEnvironments.production! } as const;
export type PlaidEnv = keyof typeof PLAID_ENVS;

/**
 * Response fields that carry money, quantities, prices or rates: kept as the exact decimal text
 * Plaid sent, never a float (a crypto quantity has more digits than a float keeps exactly).
 */
const MONEY_FIELDS = new Set([
  'amount', 'available', 'current', 'limit',
  // investments
  'quantity', 'vested_quantity', 'institution_price', 'institution_value', 'vested_value', 'cost_basis', 'close_price', 'price', 'fees',
  // liabilities
  'apr_percentage', 'balance_subject_to_apr', 'interest_charge_amount', 'last_payment_amount', 'last_statement_balance', 'minimum_payment_amount',
  'percentage', 'interest_rate_percentage', 'next_monthly_payment', 'origination_principal_amount', 'escrow_balance', 'ytd_interest_paid',
  'ytd_principal_paid', 'current_late_fee', 'past_due_amount', 'outstanding_interest_amount',
]);
/** An upstream call that hangs must not hold a sync (or a request) forever. */
const TIMEOUT_MS = 30_000;

export interface PlaidClientOptions {
  clientId: string;
  secret: string;
  basePath: string;
  /** Extra CA certificates (PEM file) trusted for the upstream, besides the system's. */
  caFile?: string;
}

/**
 * The official SDK, with two changes: money fields are parsed as decimal strings (the JSON number's
 * own text, through JSON.parse's source access), and the upstream's certificate may be signed by an
 * extra CA (tests run a fake of Plaid on loopback).
 */
export function plaidClient({ clientId, secret, basePath, caFile }: PlaidClientOptions): PlaidApi {
  const ca = caFile ? [...rootCertificates, readFileSync(caFile, 'utf8')] : undefined;
  return new PlaidApi(
    new Configuration({
      basePath,
      baseOptions: {
        headers: { 'PLAID-CLIENT-ID': clientId, 'PLAID-SECRET': secret, 'Plaid-Version': '2020-09-14' },
        httpsAgent: new Agent({ keepAlive: true, ca }),
        timeout: TIMEOUT_MS,
        transformResponse: [parseExactly],
      },
    }),
  );
}

type Reviver = (this: unknown, key: string, value: unknown, context: { source?: string }) => unknown;

function parseExactly(data: unknown): unknown {
  if (typeof data !== 'string' || data === '') return data;
  const reviver: Reviver = (key, value, context) => (typeof value === 'number' && MONEY_FIELDS.has(key) && context?.source ? context.source : value);
  try {
    return JSON.parse(data, reviver as (key: string, value: unknown) => unknown);
  } catch {
    return data;
  }
}
