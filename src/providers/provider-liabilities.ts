/*
 * Liabilities, a product beyond cash. Amounts are exact decimal strings with every digit the upstream
 * gives; money follows the same signs as transactions and balances: what the holder owes negative,
 * payments made positive.
 */

export const LIABILITY_KINDS = ['CREDIT', 'MORTGAGE', 'STUDENT', 'AUTO', 'PERSONAL', 'OTHER'] as const;
export type LiabilityKind = (typeof LIABILITY_KINDS)[number];

/** The debt details of one credit or loan account. Balances owed are negative; payments made are positive. */
export interface ProviderLiability {
  accountRemoteId: string;
  kind: LiabilityKind;
  /** Cards: each APR with the balance subject to it (negative: owed). */
  aprs: { type: string; percentage: string; balanceSubjectToApr: string | null }[];
  /** The next payment due, owed: negative. */
  minimumPayment: string | null;
  nextPaymentDueDate: string | null;
  lastStatementBalance: string | null;
  lastStatementDate: string | null;
  /** Paid into the account: positive. */
  lastPaymentAmount: string | null;
  lastPaymentDate: string | null;
  isOverdue: boolean | null;
  /** Loans. */
  interestRateType: 'FIXED' | 'VARIABLE' | null;
  interestRatePercentage: string | null;
  originationDate: string | null;
  /** Borrowed at origination, owed: negative. */
  originationPrincipal: string | null;
  maturityDate: string | null;
  /** The next loan payment due, owed: negative. */
  nextPaymentAmount: string | null;
  nextPaymentDate: string | null;
  /** Held in escrow for the holder: positive. */
  escrowBalance: string | null;
  /** Paid this year: positive. */
  ytdInterestPaid: string | null;
  ytdPrincipalPaid: string | null;
  raw: Record<string, unknown>;
}

/** A liability with no details yet: adapters spread it and set what their upstream reports. */
export const NO_LIABILITY_DETAILS: Omit<ProviderLiability, 'accountRemoteId' | 'kind' | 'raw'> = {
  aprs: [],
  minimumPayment: null,
  nextPaymentDueDate: null,
  lastStatementBalance: null,
  lastStatementDate: null,
  lastPaymentAmount: null,
  lastPaymentDate: null,
  isOverdue: null,
  interestRateType: null,
  interestRatePercentage: null,
  originationDate: null,
  originationPrincipal: null,
  maturityDate: null,
  nextPaymentAmount: null,
  nextPaymentDate: null,
  escrowBalance: null,
  ytdInterestPaid: null,
  ytdPrincipalPaid: null,
};
