import { AccountSubtype, AccountType, Products } from 'plaid';

/** An institution the fake knows, as `/sandbox/public_token/create` accepts it. */
export interface FakeInstitution {
  id: string;
  name: string;
  /**
   * Like Chase and other institutions using tokenized account numbers: every new Item gets new ACH
   * numbers (`is_tokenized_account_number: true`), so a re-link changes them.
   */
  tokenizedAccountNumbers: boolean;
  routing: string;
  wireRouting: string;
}

/** Plaid's own Sandbox institution ids and names. */
export const INSTITUTIONS: readonly FakeInstitution[] = [
  { id: 'ins_109508', name: 'First Platypus Bank', tokenizedAccountNumbers: false, routing: '011401533', wireRouting: '021000021' },
  { id: 'ins_109511', name: 'Tartan Bank', tokenizedAccountNumbers: false, routing: '021000021', wireRouting: '021000021' },
  { id: 'ins_56', name: 'Chase', tokenizedAccountNumbers: true, routing: '322271627', wireRouting: '021000021' },
];

export type AccountKey = 'checking' | 'savings' | 'credit' | 'student' | 'other' | 'brokerage' | 'mortgage';

/** One account every fake Item holds, with its balance on the day the Item is linked. */
export interface AccountTemplate {
  key: AccountKey;
  name: string;
  officialName: string;
  type: AccountType;
  subtype: AccountSubtype;
  mask: string;
  /** `current` on the link day in cents, in Plaid's convention (owed amount for credit and loans). */
  currentAtLink: number;
  limit: number | null;
}

export const ACCOUNTS: readonly AccountTemplate[] = [
  { key: 'checking', name: 'Plaid Checking', officialName: 'Plaid Gold Standard 0% Interest Checking', type: AccountType.Depository, subtype: AccountSubtype.Checking, mask: '0000', currentAtLink: 2_410_35, limit: null },
  { key: 'savings', name: 'Plaid Saving', officialName: 'Plaid Silver Standard 0.1% Interest Saving', type: AccountType.Depository, subtype: AccountSubtype.Savings, mask: '1111', currentAtLink: 21_035_50, limit: null },
  { key: 'credit', name: 'Plaid Credit Card', officialName: 'Plaid Diamond 12.5% APR Interest Credit Card', type: AccountType.Credit, subtype: AccountSubtype.CreditCard, mask: '3333', currentAtLink: 1_240_18, limit: 10_000_00 },
  { key: 'student', name: 'Plaid Student Loan', officialName: 'Plaid Student Loan', type: AccountType.Loan, subtype: AccountSubtype.Student, mask: '7777', currentAtLink: 18_520_00, limit: null },
];

/**
 * Accounts an Item holds only once a test opens them (`openAccount`). `other` is an asset account
 * of Plaid's type `other`: /auth/get leaves it out, as it does every account that is not checking,
 * savings or cash management.
 */
export const OPENABLE_ACCOUNTS: readonly AccountTemplate[] = [
  { key: 'other', name: 'Plaid Other', officialName: 'Plaid Prepaid Cash Account', type: AccountType.Other, subtype: AccountSubtype.Other, mask: '5555', currentAtLink: 320_00, limit: null },
];

/**
 * Accounts an Item holds when it was created with a product, as Plaid shares only the accounts the
 * products asked for cover: a brokerage with Investments, a mortgage with Liabilities. An Item
 * linked for transactions alone has neither, so its account list stays the four above.
 */
export const PRODUCT_ACCOUNTS: readonly (AccountTemplate & { product: Products })[] = [
  { key: 'brokerage', product: Products.Investments, name: 'Plaid Brokerage', officialName: 'Plaid Self-Directed Brokerage', type: AccountType.Investment, subtype: AccountSubtype.Brokerage, mask: '8888', currentAtLink: 0, limit: null },
  { key: 'mortgage', product: Products.Liabilities, name: 'Plaid Mortgage', officialName: 'Plaid 30 Year Fixed Mortgage', type: AccountType.Loan, subtype: AccountSubtype.Mortgage, mask: '8181', currentAtLink: 56_302_06, limit: null },
];
