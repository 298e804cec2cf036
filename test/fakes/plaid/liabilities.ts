import { APRAprTypeEnum, type CreditCardLiability, type LiabilitiesObject, type MortgageLiability, type StudentLoan } from 'plaid';
import { isoDay } from '../../../src/providers/sandbox/household.ts';

/** A test's changes to one account's liability details (`updateLiability`), over the generated ones. */
export type LiabilityPatch = Partial<CreditCardLiability> | Partial<MortgageLiability> | Partial<StudentLoan>;

export interface LiabilityAccounts {
  today: number;
  /** Plaid's `current` of each account (positive: owed), and its id; absent: the Item has no such account. */
  credit: { accountId: string; current: number };
  student: { accountId: string; current: number };
  mortgage: { accountId: string; current: number } | null;
  patches: ReadonlyMap<string, LiabilityPatch>;
}

/**
 * /liabilities/get's `liabilities` for an Item, in Plaid's signs (amounts owed positive), numbers as
 * Plaid's Sandbox shows them; statement balances follow the accounts' current balances.
 */
export function liabilitiesOf({ today, credit, student, mortgage, patches }: LiabilityAccounts): LiabilitiesObject {
  const patched = <T extends object>(accountId: string, liability: T): T => ({ ...liability, ...(patches.get(accountId) as Partial<T> | undefined) });
  const card: CreditCardLiability = {
    account_id: credit.accountId,
    aprs: [
      { apr_type: APRAprTypeEnum.PurchaseApr, apr_percentage: 15.24, balance_subject_to_apr: credit.current, interest_charge_amount: 130.22 },
      { apr_type: APRAprTypeEnum.BalanceTransferApr, apr_percentage: 27.95, balance_subject_to_apr: 0, interest_charge_amount: 0 },
      { apr_type: APRAprTypeEnum.CashApr, apr_percentage: 28.45, balance_subject_to_apr: null, interest_charge_amount: null },
    ],
    is_overdue: false,
    last_payment_amount: 168.25,
    last_payment_date: isoDay(today - 20),
    last_statement_issue_date: isoDay(today - 25),
    last_statement_balance: credit.current,
    minimum_payment_amount: 20,
    next_payment_due_date: isoDay(today + 10),
  };
  const loan: StudentLoan = {
    account_id: student.accountId,
    account_number: '4277075694',
    disbursement_dates: ['2012-12-31'],
    expected_payoff_date: '2032-07-28',
    guarantor: 'DEPT OF ED',
    interest_rate_percentage: 5.25,
    is_overdue: false,
    last_payment_amount: 138.05,
    last_payment_date: isoDay(today - 28),
    last_statement_balance: student.current,
    last_statement_issue_date: isoDay(today - 30),
    loan_name: 'Consolidation',
    loan_status: { end_date: '2032-07-28', type: 'repayment' as never },
    minimum_payment_amount: 25,
    next_payment_due_date: isoDay(today + 2),
    origination_date: '2012-12-31',
    origination_principal_amount: 25000,
    outstanding_interest_amount: 6227.36,
    payment_reference_number: '4277075694',
    pslf_status: { estimated_eligibility_date: null, payments_made: null, payments_remaining: null },
    repayment_plan: { description: 'Standard Repayment', type: 'standard' as never },
    sequence_number: '1',
    servicer_address: { city: 'San Matias', country: 'US', postal_code: '99415', region: 'CA', street: '123 Relaxation Road' },
    ytd_interest_paid: 280.55,
    ytd_principal_paid: 271.65,
  };
  const home = (accountId: string): MortgageLiability => ({
    account_id: accountId,
    account_number: '3120194154',
    current_late_fee: 25,
    escrow_balance: 3141.54,
    has_pmi: true,
    has_prepayment_penalty: true,
    interest_rate: { percentage: 3.99, type: 'fixed' },
    last_payment_amount: 3141.54,
    last_payment_date: isoDay(today - 15),
    loan_type_description: 'conventional',
    loan_term: '30 year',
    maturity_date: '2045-07-31',
    next_monthly_payment: 3141.54,
    next_payment_due_date: isoDay(today + 15),
    origination_date: '2015-08-01',
    origination_principal_amount: 425000,
    past_due_amount: 2304,
    property_address: { city: 'Malakoff', country: 'US', postal_code: '14236', region: 'NY', street: '2992 Cameron Road' },
    ytd_interest_paid: 12300.4,
    ytd_principal_paid: 12340.5,
  });
  return {
    credit: [patched(credit.accountId, card)],
    mortgage: mortgage ? [patched(mortgage.accountId, home(mortgage.accountId))] : null,
    student: [patched(student.accountId, loan)],
  };
}
