import {
  type StatementsListResponse,
  CounterpartyType,
  type AccountBase,
  type APR,
  type CreditCardLiability,
  type Holding,
  type InvestmentTransaction,
  type LineOfCreditLiability,
  type LoanLiability,
  type MortgageLiability,
  type Security,
  type StudentLoan,
  type Transaction,
  type TransactionPaymentChannelEnum,
} from 'plaid';
import { isPositive, sum } from '../decimals.ts';
import type { InvestmentTransactionType, ProviderHolding, ProviderInvestmentTransaction, ProviderSecurity, SecurityType } from '../provider-investments.ts';
import { NO_LIABILITY_DETAILS, type LiabilityKind, type ProviderLiability } from '../provider-liabilities.ts';
import type { AccountKind, ProviderAccount, ProviderBalance, ProviderTransaction } from '../provider-records.ts';
import type { ProviderStatement } from '../provider-statements.ts';
import { decimal, negate } from './money.ts';

const KINDS: Record<string, AccountKind> = { depository: 'DEPOSITORY', credit: 'CREDIT', loan: 'LOAN', investment: 'INVESTMENT', brokerage: 'INVESTMENT' };

/** Plaid's account type as Tributary's kind; `other` accounts are treated as deposits. */
export function kindOf(type: string): AccountKind {
  return KINDS[type] ?? 'DEPOSITORY';
}

/**
 * Balances in Tributary's sign convention (money in positive, owed negative). Plaid reports what a liability owes as a positive `current`, and
 * every limit (a card's credit limit, a depository account's overdraft limit: what the holder may
 * owe) as a positive number; Tributary's are negative. `available` (credit still available, or
 * money that can be spent) keeps its sign.
 */
export function toBalance(account: AccountBase, at: Date): ProviderBalance {
  const liability = isLiability(account.type);
  const current = decimal(account.balances.current);
  const limit = decimal(account.balances.limit);
  return {
    at,
    available: decimal(account.balances.available),
    current: current !== null && liability ? negate(current) : current,
    limit: limit === null ? null : negate(limit),
  };
}

export function toAccount(account: AccountBase, at: Date): ProviderAccount {
  return {
    remoteId: account.account_id,
    name: account.name,
    kind: kindOf(account.type),
    subtype: account.subtype ?? null,
    state: 'OPEN',
    mask: account.mask,
    currencyCode: currencyOf(account.balances),
    balance: toBalance(account, at),
  };
}

/** Plaid's `payment_channel` as the enrichment pipeline's hint (it then takes it over the one it reads in the text). */
const PAYMENT_CHANNELS: Record<`${TransactionPaymentChannelEnum}`, string> = { online: 'ONLINE', 'in store': 'IN_STORE', other: 'OTHER' };

/**
 * Plaid's amounts are positive when money leaves the account, for every account type; Tributary's
 * are positive when money comes in. The whole Plaid object is kept under remoteData.plaid. Plaid's
 * personal finance category, merchant and payment channel are the enrichment's hints; its
 * published Transaction carries no merchant category code, so no `mcc` hint comes from Plaid.
 */
export function toTransaction(transaction: Transaction, at: Date): ProviderTransaction {
  const timestamp = at.toISOString();
  const category = transaction.personal_finance_category;
  const counterparty = transaction.counterparties?.find((candidate) => candidate.type === CounterpartyType.Merchant) ?? transaction.counterparties?.[0];
  return {
    remoteId: transaction.transaction_id,
    accountRemoteId: transaction.account_id,
    pendingRemoteId: transaction.pending ? null : (transaction.pending_transaction_id ?? null),
    date: transaction.date,
    description: transaction.merchant_name ?? transaction.name,
    amount: negate(decimal(transaction.amount)!),
    status: transaction.pending ? 'PENDING' : 'POSTED',
    raw: { ...transaction, timestamp },
    enrichment: {
      categories: category ? [category.primary, category.detailed] : (transaction.category ?? []),
      counterpartyName: transaction.merchant_name ?? counterparty?.name ?? null,
      logo: transaction.logo_url ?? counterparty?.logo_url ?? null,
      website: transaction.website ?? counterparty?.website ?? null,
      paymentChannel: PAYMENT_CHANNELS[transaction.payment_channel] ?? null,
      timestamp,
    },
  };
}

const SECURITY_TYPES: Record<string, SecurityType> = {
  equity: 'EQUITY',
  etf: 'ETF',
  'mutual fund': 'MUTUAL_FUND',
  'fixed income': 'FIXED_INCOME',
  cash: 'CASH',
  cryptocurrency: 'CRYPTOCURRENCY',
  derivative: 'DERIVATIVE',
};

/** Plaid's security type as Tributary's; `loan`, `other` and types Plaid adds later are OTHER. */
export function securityTypeOf(type: string | null): SecurityType {
  return (type !== null && SECURITY_TYPES[type]) || 'OTHER';
}

export function toSecurity(security: Security): ProviderSecurity {
  return {
    remoteId: security.security_id,
    name: security.name,
    tickerSymbol: security.ticker_symbol,
    isin: security.isin,
    cusip: security.cusip,
    type: securityTypeOf(security.type),
    currencyCode: currencyOf(security),
    closePrice: decimal(security.close_price),
    closePriceDate: security.close_price_as_of,
  };
}

/** A position as Plaid reports it; quantity, price, value and cost basis keep Plaid's exact digits and signs (a short position is negative). */
export function toHolding(holding: Holding, at: Date): ProviderHolding {
  return {
    accountRemoteId: holding.account_id,
    securityRemoteId: holding.security_id,
    quantity: decimal(holding.quantity)!,
    price: decimal(holding.institution_price)!,
    priceDate: holding.institution_price_as_of ?? holding.institution_price_datetime?.slice(0, 10) ?? null,
    value: decimal(holding.institution_value)!,
    costBasis: decimal(holding.cost_basis),
    currencyCode: currencyOf(holding),
    raw: { ...holding, timestamp: at.toISOString() },
  };
}

/**
 * One holding per security and account: Plaid may report a position as several lots (one per
 * purchase), which are summed exactly (quantity, value, and cost basis when every lot has one). The
 * price and its day are the first lot's (Plaid's `institution_price` is the security's, the same on
 * every lot); `raw` is the first lot's with every lot under `lots`.
 */
export function toHoldings(holdings: Holding[], at: Date): ProviderHolding[] {
  const positions = new Map<string, ProviderHolding[]>();
  for (const holding of holdings) {
    const key = `${holding.account_id}\n${holding.security_id}`;
    positions.set(key, [...(positions.get(key) ?? []), toHolding(holding, at)]);
  }
  return [...positions.values()].map((lots) => {
    const [first] = lots as [ProviderHolding, ...ProviderHolding[]];
    if (lots.length === 1) return first;
    const costs = lots.map((lot) => lot.costBasis);
    return {
      ...first,
      quantity: sum(lots.map((lot) => lot.quantity)),
      value: sum(lots.map((lot) => lot.value)),
      costBasis: costs.every((cost) => cost !== null) ? sum(costs) : null,
      raw: { ...first.raw, lots: lots.map((lot) => lot.raw) },
    };
  });
}

/** Cash subtypes Tributary names on their own; every other one keeps its Plaid type (the subtype is kept). */
const CASH_SUBTYPES: Record<string, InvestmentTransactionType> = {
  dividend: 'DIVIDEND',
  'qualified dividend': 'DIVIDEND',
  'non-qualified dividend': 'DIVIDEND',
  interest: 'INTEREST',
  'interest receivable': 'INTEREST',
};
const INVESTMENT_TYPES: Record<string, InvestmentTransactionType> = { buy: 'BUY', sell: 'SELL', cancel: 'CANCEL', cash: 'CASH', fee: 'FEE', transfer: 'TRANSFER' };

export function investmentTypeOf(type: string, subtype: string | null): InvestmentTransactionType {
  return (type === 'cash' && subtype !== null && CASH_SUBTYPES[subtype]) || INVESTMENT_TYPES[type] || 'OTHER';
}

/**
 * Plaid's `amount` is positive when cash leaves the account (a buy, a fee) and negative when it comes
 * in (a sale, a dividend), as for transactions: flipped. `fees` are what was charged, positive as the
 * contract has them and as Plaid reports them (`7.99`), so kept. `quantity` already reads as
 * Tributary's (a buy positive, a sale negative).
 */
export function toInvestmentTransaction(transaction: InvestmentTransaction, at: Date): ProviderInvestmentTransaction {
  return {
    remoteId: transaction.investment_transaction_id,
    accountRemoteId: transaction.account_id,
    securityRemoteId: transaction.security_id,
    date: transaction.date,
    type: investmentTypeOf(transaction.type, transaction.subtype),
    subtype: transaction.subtype,
    quantity: decimal(transaction.quantity)!,
    price: decimal(transaction.price)!,
    fees: decimal(transaction.fees),
    amount: negate(decimal(transaction.amount)!),
    currencyCode: currencyOf(transaction),
    description: transaction.name,
    raw: { ...transaction, timestamp: at.toISOString() },
  };
}

/** What Plaid reports as owed (a positive amount) as the holder's sign: negative. */
const owed = (value: unknown) => {
  const amount = decimal(value);
  return amount === null ? null : negate(amount);
};

/** A card's or a line of credit's APRs; the balance subject to each is owed: negative. */
const aprsOf = (aprs: APR[]) => aprs.map((apr) => ({ type: apr.apr_type, percentage: decimal(apr.apr_percentage)!, balanceSubjectToApr: owed(apr.balance_subject_to_apr) }));

/**
 * A card's details. Plaid's statement balance, minimum payment and the balances subject to each APR
 * are positive amounts owed: negative here. The last payment went into the account: positive, as Plaid has it.
 */
export function toCreditLiability(credit: CreditCardLiability & { account_id: string }): ProviderLiability {
  return {
    ...NO_LIABILITY_DETAILS,
    accountRemoteId: credit.account_id,
    kind: 'CREDIT',
    aprs: aprsOf(credit.aprs),
    minimumPayment: owed(credit.minimum_payment_amount),
    nextPaymentDueDate: credit.next_payment_due_date,
    lastStatementBalance: owed(credit.last_statement_balance),
    lastStatementDate: credit.last_statement_issue_date,
    lastPaymentAmount: decimal(credit.last_payment_amount),
    lastPaymentDate: credit.last_payment_date,
    isOverdue: credit.is_overdue,
    raw: { ...credit },
  };
}

/** Plaid's amount past due as whether a payment is overdue: any amount above zero is; null when not reported. */
const pastDue = (value: unknown) => {
  const amount = decimal(value);
  return amount === null ? null : isPositive(amount);
};

/** An interest rate's type (`fixed`, `variable`, in any case) as Tributary's. */
function rateTypeOf(type: string | null | undefined): 'FIXED' | 'VARIABLE' | null {
  const rateType = type?.toLowerCase();
  return rateType === 'fixed' ? 'FIXED' : rateType === 'variable' ? 'VARIABLE' : null;
}

/**
 * A mortgage's details: principal and next payment owed (negative); escrow and what was paid this
 * year positive. Plaid reports no `is_overdue` for a mortgage, but its `past_due_amount`.
 */
export function toMortgageLiability(mortgage: MortgageLiability): ProviderLiability {
  return {
    ...NO_LIABILITY_DETAILS,
    accountRemoteId: mortgage.account_id,
    kind: 'MORTGAGE',
    lastPaymentAmount: decimal(mortgage.last_payment_amount),
    lastPaymentDate: mortgage.last_payment_date,
    isOverdue: pastDue(mortgage.past_due_amount),
    interestRateType: rateTypeOf(mortgage.interest_rate.type),
    interestRatePercentage: decimal(mortgage.interest_rate.percentage),
    originationDate: mortgage.origination_date,
    originationPrincipal: owed(mortgage.origination_principal_amount),
    maturityDate: mortgage.maturity_date,
    nextPaymentAmount: owed(mortgage.next_monthly_payment),
    nextPaymentDate: mortgage.next_payment_due_date,
    escrowBalance: decimal(mortgage.escrow_balance),
    ytdInterestPaid: decimal(mortgage.ytd_interest_paid),
    ytdPrincipalPaid: decimal(mortgage.ytd_principal_paid),
    raw: { ...mortgage },
  };
}

/**
 * A student loan's details: its minimum payment is the next payment due (owed: negative); its
 * expected payoff date is its maturity. Its statement stays in `raw`: the contract's statement and
 * minimum-payment fields are a card's, null on loans.
 */
export function toStudentLiability(loan: StudentLoan & { account_id: string }): ProviderLiability {
  return {
    ...NO_LIABILITY_DETAILS,
    accountRemoteId: loan.account_id,
    kind: 'STUDENT',
    lastPaymentAmount: decimal(loan.last_payment_amount),
    lastPaymentDate: loan.last_payment_date,
    isOverdue: loan.is_overdue,
    interestRatePercentage: decimal(loan.interest_rate_percentage),
    originationDate: loan.origination_date,
    originationPrincipal: owed(loan.origination_principal_amount),
    maturityDate: loan.expected_payoff_date,
    nextPaymentAmount: owed(loan.minimum_payment_amount),
    nextPaymentDate: loan.next_payment_due_date,
    ytdInterestPaid: decimal(loan.ytd_interest_paid),
    ytdPrincipalPaid: decimal(loan.ytd_principal_paid),
    raw: { ...loan },
  };
}

/** A closed-end loan's kind, from its account's subtype (Plaid's `loan` list names no kind itself). */
const LOAN_KINDS: Record<string, LiabilityKind> = { auto: 'AUTO', consumer: 'PERSONAL', student: 'STUDENT', mortgage: 'MORTGAGE' };

export function loanKindOf(subtype: string | null | undefined): LiabilityKind {
  return (subtype && LOAN_KINDS[subtype]) || 'OTHER';
}

/**
 * A closed-end loan's details (Plaid's `loan` list: auto, personal, business… loans), as a mortgage's:
 * principal and next payment owed (negative), payments made positive. Plaid reports nothing overdue
 * for them; the outstanding principal and payoff amount stay in `raw`.
 */
export function toLoanLiability(loan: LoanLiability, kind: LiabilityKind): ProviderLiability {
  return {
    ...NO_LIABILITY_DETAILS,
    accountRemoteId: loan.account_id,
    kind,
    lastPaymentAmount: decimal(loan.last_payment_amount),
    lastPaymentDate: loan.last_payment_date,
    interestRateType: rateTypeOf(loan.interest_rate?.type),
    interestRatePercentage: decimal(loan.interest_rate?.percentage),
    originationDate: loan.origination_date,
    originationPrincipal: owed(loan.origination_principal_amount),
    maturityDate: loan.maturity_date,
    nextPaymentAmount: owed(loan.next_payment_amount),
    nextPaymentDate: loan.next_payment_due_date,
    ytdInterestPaid: decimal(loan.ytd_interest_paid),
    raw: { ...loan },
  };
}

/**
 * A line of credit's details (Plaid's `line_of_credit` list), as a card's: its APRs, statement and
 * minimum payment, owed negative; overdue when Plaid reports an amount past due. Its limit and
 * available credit are the account's balance; its interest rate and draw period stay in `raw`.
 */
export function toLineOfCreditLiability(line: LineOfCreditLiability): ProviderLiability {
  return {
    ...NO_LIABILITY_DETAILS,
    accountRemoteId: line.account_id,
    kind: 'CREDIT',
    aprs: aprsOf(line.aprs),
    minimumPayment: owed(line.minimum_payment_amount),
    nextPaymentDueDate: line.next_payment_due_date,
    lastStatementBalance: owed(line.last_statement_balance),
    lastStatementDate: line.last_statement_issue_date,
    lastPaymentAmount: decimal(line.last_payment_amount),
    lastPaymentDate: line.last_payment_date,
    isOverdue: pastDue(line.past_due_amount),
    raw: { ...line },
  };
}

function isLiability(type: string): boolean {
  return type === 'credit' || type === 'loan';
}

function currencyOf(value: { iso_currency_code: string | null; unofficial_currency_code: string | null }): string {
  return value.iso_currency_code ?? value.unofficial_currency_code ?? 'USD';
}


/** /statements/list as statements: each a calendar month (Plaid gives its month and year), issued on the day Plaid says it was posted. */
export function toStatements(list: StatementsListResponse): ProviderStatement[] {
  return list.accounts.flatMap((account) =>
    account.statements.map((statement) => {
      const lastDay = new Date(Date.UTC(statement.year, statement.month, 0)).getUTCDate();
      const month = `${statement.year}-${String(statement.month).padStart(2, '0')}`;
      return { remoteId: statement.statement_id, accountRemoteId: account.account_id, startOn: `${month}-01`, endOn: `${month}-${lastDay}`, issuedOn: statement.date_posted ?? null };
    }),
  );
}
