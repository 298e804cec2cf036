import { describe, expect, it } from 'vitest';
import type { CreditCardLiability, Holding, InvestmentTransaction, LineOfCreditLiability, LoanLiability, MortgageLiability, Security, StudentLoan } from 'plaid';
import { decimal } from '../../src/providers/plaid/money.ts';
import {
  investmentTypeOf,
  loanKindOf,
  securityTypeOf,
  toCreditLiability,
  toHolding,
  toHoldings,
  toInvestmentTransaction,
  toLineOfCreditLiability,
  toLoanLiability,
  toMortgageLiability,
  toSecurity,
  toStudentLiability,
} from '../../src/providers/plaid/transforms.ts';
import { actionsOf } from '../../src/providers/plaid/webhooks.ts';
import { ProviderError } from '../../src/providers/provider-errors.ts';

const AT = new Date('2026-11-01T12:00:00Z');
/** Decimal text as the exact parser hands it over in place of a JSON number. */
const n = (text: string) => text as unknown as number;

function security(overrides: Partial<Security>): Security {
  return {
    security_id: 'sec_1',
    isin: null,
    cusip: null,
    sedol: null,
    institution_security_id: null,
    institution_id: null,
    proxy_security_id: null,
    name: 'Vanguard Total Stock Market ETF',
    ticker_symbol: 'VTI',
    is_cash_equivalent: false,
    type: 'etf',
    close_price: n('276.81'),
    close_price_as_of: '2026-10-31',
    iso_currency_code: 'USD',
    unofficial_currency_code: null,
    market_identifier_code: null,
    sector: null,
    industry: null,
    cfi_code: null,
    figi: null,
    option_contract: null,
    fixed_income: null,
    ...overrides,
  };
}

function investmentTransaction(overrides: Partial<InvestmentTransaction>): InvestmentTransaction {
  return {
    investment_transaction_id: 'inv_1',
    account_id: 'acc_brokerage',
    security_id: 'sec_1',
    date: '2026-10-30',
    name: 'BUY Vanguard Total Stock Market ETF',
    quantity: n('2.5'),
    amount: n('692.03'),
    price: n('276.81'),
    fees: n('0.01'),
    type: 'buy',
    subtype: 'buy',
    iso_currency_code: 'USD',
    unofficial_currency_code: null,
    ...overrides,
  } as InvestmentTransaction;
}

describe('Plaid decimals in exponent form', () => {
  it('writes out the exponent Plaid uses below 1e-6 without a float', () => {
    expect(decimal('1e-08')).toBe('0.00000001');
    expect(decimal('-1.5e-7')).toBe('-0.00000015');
    expect(decimal('1.2345e2')).toBe('123.45');
    expect(decimal('2.5E+3')).toBe('2500');
    expect(decimal(n('0.1234567891'))).toBe('0.1234567891');
    expect(() => decimal('1e-21')).toThrow(ProviderError);
    expect(() => decimal('0x10')).toThrow(ProviderError);
  });
});

describe('Plaid securities', () => {
  it('maps every Plaid security type, and anything else to OTHER', () => {
    const types = ['equity', 'etf', 'mutual fund', 'fixed income', 'cash', 'cryptocurrency', 'derivative', 'loan', 'other', 'warrant', null];
    expect(types.map(securityTypeOf)).toEqual(['EQUITY', 'ETF', 'MUTUAL_FUND', 'FIXED_INCOME', 'CASH', 'CRYPTOCURRENCY', 'DERIVATIVE', 'OTHER', 'OTHER', 'OTHER', 'OTHER']);
  });

  it('keeps names, identifiers, a null ticker, the close price exactly and the unofficial currency', () => {
    expect(toSecurity(security({ cusip: '922908769', isin: 'US9229087690' }))).toEqual({
      remoteId: 'sec_1',
      name: 'Vanguard Total Stock Market ETF',
      tickerSymbol: 'VTI',
      isin: 'US9229087690',
      cusip: '922908769',
      type: 'ETF',
      currencyCode: 'USD',
      closePrice: '276.81',
      closePriceDate: '2026-10-31',
    });
    const fund = toSecurity(security({ ticker_symbol: null, type: 'mutual fund', close_price: null, close_price_as_of: null }));
    expect(fund).toMatchObject({ tickerSymbol: null, type: 'MUTUAL_FUND', closePrice: null, closePriceDate: null });
    const coin = toSecurity(security({ type: 'cryptocurrency', iso_currency_code: null, unofficial_currency_code: 'BTC', close_price: n('67123.12345678') }));
    expect(coin).toMatchObject({ type: 'CRYPTOCURRENCY', currencyCode: 'BTC', closePrice: '67123.12345678' });
  });
});

describe('Plaid holdings', () => {
  it('keeps quantity, price, value and cost basis exactly, fractions of a share and of a coin included', () => {
    const holding: Holding = {
      account_id: 'acc_brokerage',
      security_id: 'sec_btc',
      institution_price: n('67123.12345678'),
      institution_price_as_of: '2026-10-31',
      institution_value: n('8286.87'),
      cost_basis: null,
      quantity: n('0.1234567891'),
      iso_currency_code: 'USD',
      unofficial_currency_code: null,
    };
    expect(toHolding(holding, AT)).toMatchObject({
      accountRemoteId: 'acc_brokerage',
      securityRemoteId: 'sec_btc',
      quantity: '0.1234567891',
      price: '67123.12345678',
      priceDate: '2026-10-31',
      value: '8286.87',
      costBasis: null,
      currencyCode: 'USD',
      raw: { security_id: 'sec_btc', timestamp: AT.toISOString() },
    });
    const short = toHolding({ ...holding, quantity: n('-10'), institution_value: n('-2768.1'), cost_basis: n('-2500'), institution_price_as_of: null, institution_price_datetime: '2026-10-31T20:00:00Z' }, AT);
    expect(short).toMatchObject({ quantity: '-10', value: '-2768.1', costBasis: '-2500', priceDate: '2026-10-31' });
  });

  it('keeps the digits of Plaid’s example (25,000 units at 0.177494362 worth 4437.35905), and sums lots of one security in one account', () => {
    const doge: Holding = {
      account_id: 'acc_brokerage',
      security_id: 'sec_doge',
      institution_price: n('0.177494362'),
      institution_price_as_of: '2022-01-14',
      institution_value: n('4437.35905'),
      cost_basis: n('92.47'),
      quantity: n('25000'),
      iso_currency_code: 'USD',
      unofficial_currency_code: null,
    };
    const [held, ...rest] = toHoldings([doge, { ...doge, quantity: n('0.000000015'), institution_value: n('2.66e-9'), cost_basis: n('0.01') }, { ...doge, account_id: 'acc_other' }], AT);
    expect(held).toMatchObject({ accountRemoteId: 'acc_brokerage', quantity: '25000.000000015', price: '0.177494362', value: '4437.35905000266', costBasis: '92.48' });
    expect(held!.raw.lots).toHaveLength(2);
    expect(rest).toEqual([toHolding({ ...doge, account_id: 'acc_other' }, AT)]);
    // A lot without a cost basis leaves the position's unknown.
    expect(toHoldings([doge, { ...doge, cost_basis: null }], AT)[0]!.costBasis).toBeNull();
  });
});

describe('Plaid investment transactions', () => {
  it('flips Plaid amount sign (positive = cash out) to money into the account positive; fees stay positive, as Plaid reports them', () => {
    const buy = toInvestmentTransaction(investmentTransaction({}), AT);
    expect(buy).toMatchObject({ type: 'BUY', subtype: 'buy', quantity: '2.5', price: '276.81', fees: '0.01', amount: '-692.03', description: 'BUY Vanguard Total Stock Market ETF' });
    // Plaid's own example: every digit of the quantity kept.
    const example = toInvestmentTransaction(investmentTransaction({ quantity: n('0.7388014749727547'), price: n('10.42'), amount: n('7.7'), fees: n('7.99') }), AT);
    expect(example).toMatchObject({ quantity: '0.7388014749727547', price: '10.42', amount: '-7.7', fees: '7.99' });
    const sell = toInvestmentTransaction(investmentTransaction({ type: 'sell' as never, subtype: 'sell' as never, quantity: n('-1.25'), amount: n('-346.01'), fees: n('0') }), AT);
    expect(sell).toMatchObject({ type: 'SELL', quantity: '-1.25', amount: '346.01', fees: '0' });
    const dividend = toInvestmentTransaction(investmentTransaction({ type: 'cash' as never, subtype: 'dividend' as never, quantity: n('0'), price: n('0'), amount: n('-12.4'), fees: null }), AT);
    expect(dividend).toMatchObject({ type: 'DIVIDEND', subtype: 'dividend', quantity: '0', amount: '12.4', fees: null });
    const fee = toInvestmentTransaction(investmentTransaction({ security_id: null, type: 'fee' as never, subtype: 'management fee' as never, quantity: n('0'), price: n('0'), amount: n('4.99'), fees: null }), AT);
    expect(fee).toMatchObject({ type: 'FEE', securityRemoteId: null, amount: '-4.99' });
  });

  it('names dividends and interest among cash movements, keeps Plaid type for the rest', () => {
    expect(investmentTypeOf('cash', 'qualified dividend')).toBe('DIVIDEND');
    expect(investmentTypeOf('cash', 'non-qualified dividend')).toBe('DIVIDEND');
    expect(investmentTypeOf('cash', 'interest')).toBe('INTEREST');
    expect(investmentTypeOf('cash', 'deposit')).toBe('CASH');
    expect(investmentTypeOf('buy', 'dividend reinvestment')).toBe('BUY');
    expect(investmentTypeOf('transfer', 'split')).toBe('TRANSFER');
    expect(investmentTypeOf('cancel', 'sell')).toBe('CANCEL');
    expect(investmentTypeOf('fee', 'account fee')).toBe('FEE');
    expect(investmentTypeOf('something new', null)).toBe('OTHER');
  });
});

describe('Plaid liabilities in the holder’s signs (owed negative)', () => {
  /** The contract's card fields: null on loans, whatever Plaid reports of a loan's statement. */
  const CARD_FIELDS_NULL = { minimumPayment: null, nextPaymentDueDate: null, lastStatementBalance: null, lastStatementDate: null };

  it('makes what a card owes negative (statement, minimum payment, balances under each APR); the last payment stays positive', () => {
    const credit: CreditCardLiability & { account_id: string } = {
      account_id: 'acc_credit',
      aprs: [
        { apr_type: 'purchase_apr' as never, apr_percentage: n('15.24'), balance_subject_to_apr: n('1562.32'), interest_charge_amount: n('130.22') },
        { apr_type: 'cash_apr' as never, apr_percentage: n('27.95'), balance_subject_to_apr: null, interest_charge_amount: null },
      ],
      is_overdue: false,
      last_payment_amount: n('168.25'),
      last_payment_date: '2026-10-05',
      last_statement_issue_date: '2026-10-01',
      last_statement_balance: n('1708.77'),
      minimum_payment_amount: n('20'),
      next_payment_due_date: '2026-11-15',
    };
    expect(toCreditLiability(credit)).toMatchObject({
      accountRemoteId: 'acc_credit',
      kind: 'CREDIT',
      aprs: [
        { type: 'purchase_apr', percentage: '15.24', balanceSubjectToApr: '-1562.32' },
        { type: 'cash_apr', percentage: '27.95', balanceSubjectToApr: null },
      ],
      minimumPayment: '-20',
      nextPaymentDueDate: '2026-11-15',
      lastStatementBalance: '-1708.77',
      lastStatementDate: '2026-10-01',
      lastPaymentAmount: '168.25',
      lastPaymentDate: '2026-10-05',
      isOverdue: false,
      interestRateType: null,
      originationPrincipal: null,
    });
  });

  it('makes a mortgage principal and next payment negative; escrow and this year payments positive; the rate type in capitals; its card fields null', () => {
    const mortgage = {
      account_id: 'acc_mortgage',
      account_number: '3120194154',
      current_late_fee: n('25'),
      escrow_balance: n('3141.54'),
      has_pmi: true,
      has_prepayment_penalty: true,
      interest_rate: { percentage: n('3.99'), type: 'fixed' },
      last_payment_amount: n('3141.54'),
      last_payment_date: '2026-10-15',
      loan_type_description: 'conventional',
      loan_term: '30 year',
      maturity_date: '2045-07-31',
      next_monthly_payment: n('3141.54'),
      next_payment_due_date: '2026-11-15',
      origination_date: '2015-08-01',
      origination_principal_amount: n('425000'),
      past_due_amount: n('2304'),
      property_address: { city: 'Malakoff', country: 'US', postal_code: '14236', region: 'NY', street: '2992 Cameron Road' },
      ytd_interest_paid: n('12300.4'),
      ytd_principal_paid: n('12340.5'),
    } as MortgageLiability;
    expect(toMortgageLiability(mortgage)).toMatchObject({
      kind: 'MORTGAGE',
      interestRateType: 'FIXED',
      interestRatePercentage: '3.99',
      originationDate: '2015-08-01',
      originationPrincipal: '-425000',
      maturityDate: '2045-07-31',
      nextPaymentAmount: '-3141.54',
      nextPaymentDate: '2026-11-15',
      escrowBalance: '3141.54',
      ytdInterestPaid: '12300.4',
      ytdPrincipalPaid: '12340.5',
      lastPaymentAmount: '3141.54',
      aprs: [],
      ...CARD_FIELDS_NULL,
    });
    expect(toMortgageLiability({ ...mortgage, interest_rate: { percentage: null, type: 'variable' } })).toMatchObject({ interestRateType: 'VARIABLE', interestRatePercentage: null });
    expect(toMortgageLiability({ ...mortgage, interest_rate: { percentage: null, type: null } }).interestRateType).toBeNull();
  });

  it('reads a mortgage with an amount past due as overdue, none past due as not, and an unreported one as unknown', () => {
    const mortgage = { account_id: 'acc_mortgage', interest_rate: { percentage: null, type: null }, past_due_amount: n('2304') } as unknown as MortgageLiability;
    expect(toMortgageLiability(mortgage).isOverdue).toBe(true);
    expect(toMortgageLiability({ ...mortgage, past_due_amount: n('0.00') }).isOverdue).toBe(false);
    expect(toMortgageLiability({ ...mortgage, past_due_amount: n('1e-7') }).isOverdue).toBe(true);
    expect(toMortgageLiability({ ...mortgage, past_due_amount: null }).isOverdue).toBeNull();
  });

  it('maps a closed-end loan (its kind from the account subtype) as a loan, and a line of credit as a card, overdue when past due', () => {
    const loan: LoanLiability = {
      account_id: 'acc_auto',
      account_number: '1234',
      interest_rate: { percentage: n('6.125'), type: 'fixed' as never },
      principal_balance: n('18000.5'),
      origination_principal_amount: n('24000'),
      origination_date: '2024-03-01',
      loan_term_months: 60,
      maturity_date: '2029-03-01',
      payment_count: 60,
      payment_frequency: null,
      next_payment_amount: n('464.2'),
      next_payment_due_date: '2026-11-01',
      last_payment_amount: n('464.2'),
      last_payment_date: '2026-10-01',
      payoff_amount: n('18100'),
      ytd_interest_paid: n('920.75'),
      compounding_period: null,
    };
    expect(toLoanLiability(loan, loanKindOf('auto'))).toMatchObject({
      accountRemoteId: 'acc_auto',
      kind: 'AUTO',
      interestRateType: 'FIXED',
      interestRatePercentage: '6.125',
      originationPrincipal: '-24000',
      originationDate: '2024-03-01',
      maturityDate: '2029-03-01',
      nextPaymentAmount: '-464.2',
      nextPaymentDate: '2026-11-01',
      lastPaymentAmount: '464.2',
      ytdInterestPaid: '920.75',
      isOverdue: null,
      aprs: [],
      ...CARD_FIELDS_NULL,
    });
    expect(['auto', 'consumer', 'student', 'mortgage', 'business', null].map(loanKindOf)).toEqual(['AUTO', 'PERSONAL', 'STUDENT', 'MORTGAGE', 'OTHER', 'OTHER']);
    const line: LineOfCreditLiability = {
      account_id: 'acc_heloc',
      interest_rate: { percentage: n('8.5'), type: 'variable' as never },
      credit_limit: n('50000'),
      available_credit: n('38000'),
      principal_balance: n('12000'),
      minimum_payment_amount: n('150'),
      next_payment_amount: n('150'),
      next_payment_due_date: '2026-11-10',
      last_payment_amount: n('150'),
      last_payment_date: '2026-10-10',
      last_statement_balance: n('12085.3'),
      last_statement_issue_date: '2026-10-01',
      past_due_amount: n('150'),
      finance_charges: n('85.3'),
      draw_period_end_date: '2034-01-01',
      aprs: [{ apr_type: 'purchase_apr' as never, apr_percentage: n('8.5'), balance_subject_to_apr: n('12000'), interest_charge_amount: n('85.3') }],
    };
    expect(toLineOfCreditLiability(line)).toMatchObject({
      kind: 'CREDIT',
      aprs: [{ type: 'purchase_apr', percentage: '8.5', balanceSubjectToApr: '-12000' }],
      minimumPayment: '-150',
      nextPaymentDueDate: '2026-11-10',
      lastStatementBalance: '-12085.3',
      lastPaymentAmount: '150',
      isOverdue: true,
      interestRateType: null,
      originationPrincipal: null,
    });
    expect(toLineOfCreditLiability({ ...line, past_due_amount: n('0') }).isOverdue).toBe(false);
  });

  it('reads a student loan minimum payment as its next payment due (negative), its expected payoff as maturity, its card fields null', () => {
    const loan = {
      account_id: 'acc_student',
      account_number: '4277075694',
      disbursement_dates: ['2012-12-31'],
      expected_payoff_date: '2032-07-28',
      guarantor: 'DEPT OF ED',
      interest_rate_percentage: n('5.25'),
      is_overdue: false,
      last_payment_amount: n('138.05'),
      last_payment_date: '2026-10-02',
      last_statement_balance: n('18520'),
      last_statement_issue_date: '2026-10-01',
      loan_name: 'Consolidation',
      loan_status: { end_date: '2032-07-28', type: 'repayment' },
      minimum_payment_amount: n('25'),
      next_payment_due_date: '2026-11-25',
      origination_date: '2012-12-31',
      origination_principal_amount: n('25000'),
      outstanding_interest_amount: n('6227.36'),
      payment_reference_number: '4277075694',
      pslf_status: { estimated_eligibility_date: null, payments_made: null, payments_remaining: null },
      repayment_plan: { description: 'Standard Repayment', type: 'standard' },
      sequence_number: '1',
      servicer_address: { city: 'San Matias', country: 'US', postal_code: '99415', region: 'CA', street: '123 Relaxation Road' },
      ytd_interest_paid: n('280.55'),
      ytd_principal_paid: n('271.65'),
    } as StudentLoan & { account_id: string };
    expect(toStudentLiability(loan)).toMatchObject({
      kind: 'STUDENT',
      interestRatePercentage: '5.25',
      nextPaymentAmount: '-25',
      nextPaymentDate: '2026-11-25',
      ...CARD_FIELDS_NULL,
      originationPrincipal: '-25000',
      maturityDate: '2032-07-28',
      ytdInterestPaid: '280.55',
      isOverdue: false,
      escrowBalance: null,
    });
  });
});

describe('Plaid investment and liability webhooks', () => {
  it('asks for a sync on HOLDINGS, INVESTMENTS_TRANSACTIONS and LIABILITIES DEFAULT_UPDATE', () => {
    for (const type of ['HOLDINGS', 'INVESTMENTS_TRANSACTIONS', 'LIABILITIES']) {
      expect(actionsOf({ item_id: 'item_1', webhook_type: type, webhook_code: 'DEFAULT_UPDATE' })).toEqual([{ kind: 'SYNC', remoteId: 'item_1' }]);
    }
    expect(actionsOf({ item_id: 'item_1', webhook_type: 'HOLDINGS', webhook_code: 'SOMETHING_ELSE' })).toEqual([]);
  });
});
