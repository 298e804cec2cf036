import type { Institution } from '../link-flow.ts';
import type { AccountKind } from '../provider-records.ts';
import type { AccountRole } from './household.ts';

/** An account template: every connection to the institution has one account per template. */
export interface AccountTemplate {
  key: AccountRole;
  name: string;
  kind: AccountKind;
  subtype: string;
}

export interface SandboxInstitution extends Institution {
  countries: string[];
  /**
   * How the end-user signs in: the sandbox's credential form, or (REDIRECT) a PSD2-style bank's own
   * page, which the sandbox serves itself (src/pages/sandbox-bank/) and which sends them back with a code.
   */
  link: 'CREDENTIALS' | 'REDIRECT';
  /** The accounts' currency (ISO 4217). */
  currencyCode: string;
  routing: string;
  /** Issues tokenized ACH numbers: the verified number's last four digits differ from the mask. */
  tokenizedNumbers: boolean;
  accounts: AccountTemplate[];
  /** Like a PSD2 bank: the end-user's consent lasts this many days from each sign-in. */
  consentDays?: number;
  /** Like a PSD2 bank on re-consent: every sign-in gives the accounts new remote ids (their IBANs stay). */
  reissuesAccountIds?: boolean;
  /** The card pays for a few purchases abroad, in EUR. */
  spendsAbroad?: boolean;
}

const CHECKING: AccountTemplate = { key: 'checking', name: 'Everyday Checking', kind: 'DEPOSITORY', subtype: 'checking' };
const SAVINGS: AccountTemplate = { key: 'savings', name: 'High Yield Savings', kind: 'DEPOSITORY', subtype: 'savings' };
const CARD: AccountTemplate = { key: 'card', name: 'Rewards Visa', kind: 'CREDIT', subtype: 'credit card' };

export const SANDBOX_INSTITUTIONS: SandboxInstitution[] = [
  {
    id: 'ins_first_platypus',
    name: 'First Platypus Bank',
    products: ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_NUMBERS', 'INVESTMENTS', 'LIABILITIES', 'ACCOUNT_OWNERS', 'STATEMENTS'],
    description: 'Checking, savings, credit card, mortgage and brokerage accounts; tokenized ACH numbers.',
    countries: ['US'],
    link: 'CREDENTIALS',
    currencyCode: 'USD',
    routing: '011401533',
    tokenizedNumbers: true,
    accounts: [
      CHECKING,
      SAVINGS,
      CARD,
      { key: 'loan', name: 'Home Mortgage', kind: 'LOAN', subtype: 'mortgage' },
      { key: 'brokerage', name: 'Self-Directed Brokerage', kind: 'INVESTMENT', subtype: 'brokerage' },
    ],
  },
  {
    id: 'ins_tattersall_fcu',
    name: 'Tattersall Federal Credit Union',
    products: ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_NUMBERS', 'LIABILITIES', 'ACCOUNT_OWNERS', 'STATEMENTS'],
    description: 'Checking, savings, credit card and auto loan accounts; plain ACH numbers.',
    countries: ['US'],
    link: 'CREDENTIALS',
    currencyCode: 'USD',
    routing: '021000021',
    tokenizedNumbers: false,
    accounts: [
      { ...CHECKING, name: 'Share Draft Checking' },
      { ...SAVINGS, name: 'Share Savings' },
      { ...CARD, name: 'Platinum Mastercard' },
      { key: 'loan', name: 'Auto Loan', kind: 'LOAN', subtype: 'auto' },
    ],
  },
  {
    id: 'ins_houndstooth',
    name: 'Houndstooth Bank',
    products: ['TRANSACTIONS', 'BALANCES', 'LIABILITIES', 'ACCOUNT_OWNERS', 'STATEMENTS'],
    description: 'Checking and credit card accounts; no ACH numbers (ACCOUNT_NUMBERS is not offered).',
    countries: ['US'],
    link: 'CREDENTIALS',
    currencyCode: 'USD',
    routing: '031101279',
    tokenizedNumbers: false,
    accounts: [CHECKING, { ...CARD, name: 'Cash Back Card' }],
  },
  {
    id: 'ins_quokka_invest',
    name: 'Quokka Investments',
    products: ['TRANSACTIONS', 'BALANCES', 'INVESTMENTS', 'ACCOUNT_OWNERS'],
    description: 'Brokerage and 401k retirement accounts.',
    countries: ['US'],
    link: 'CREDENTIALS',
    currencyCode: 'USD',
    routing: '041215663',
    tokenizedNumbers: false,
    accounts: [
      { key: 'brokerage', name: 'Individual Brokerage', kind: 'INVESTMENT', subtype: 'brokerage' },
      { key: 'retirement', name: 'Quokka 401k', kind: 'INVESTMENT', subtype: '401k' },
    ],
  },
  {
    id: 'ins_wombat_lending',
    name: 'Wombat Student Lending',
    products: ['TRANSACTIONS', 'BALANCES', 'LIABILITIES', 'ACCOUNT_OWNERS', 'STATEMENTS'],
    description: 'A student loan account.',
    countries: ['US'],
    link: 'CREDENTIALS',
    currencyCode: 'USD',
    routing: '051000017',
    tokenizedNumbers: false,
    accounts: [{ key: 'student', name: 'Direct Student Loan', kind: 'LOAN', subtype: 'student' }],
  },
  {
    id: 'ins_sandbox_bank_de',
    name: 'Sandbox Bank Deutschland',
    products: ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_OWNERS', 'STATEMENTS'],
    description: 'A PSD2 bank: you sign in at its own page (Approve, Cancel or Bank error), then come back. Giro and savings accounts in EUR.',
    countries: ['DE'],
    link: 'REDIRECT',
    currencyCode: 'EUR',
    routing: '',
    tokenizedNumbers: false,
    accounts: [
      { ...CHECKING, name: 'Girokonto' },
      { ...SAVINGS, name: 'Tagesgeld' },
    ],
  },
  {
    id: 'ins_sandbox_bank_se',
    name: 'Sandbox Bank Sverige',
    products: ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_OWNERS', 'STATEMENTS'],
    description: 'A PSD2 bank: you sign in at its own page (Approve, Cancel or Bank error), then come back. A current account in SEK.',
    countries: ['SE'],
    link: 'REDIRECT',
    currencyCode: 'SEK',
    routing: '',
    tokenizedNumbers: false,
    accounts: [{ ...CHECKING, name: 'Lönekonto' }],
  },
  {
    id: 'ins_kea_bank',
    name: 'Kea Bank',
    products: ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_OWNERS', 'STATEMENTS'],
    description: 'Like a PSD2 bank: consent lasts 90 days, a reconnect reissues account ids (IBANs stay); the card has purchases in EUR.',
    link: 'CREDENTIALS',
    routing: '061000104',
    tokenizedNumbers: false,
    accounts: [{ ...CHECKING, name: 'Current Account' }, { ...CARD, name: 'Travel Card' }],
    countries: ['US'],
    currencyCode: 'USD',
    consentDays: 90,
    reissuesAccountIds: true,
    spendsAbroad: true,
  },
];

export function findInstitution(id: string): SandboxInstitution | undefined {
  return SANDBOX_INSTITUTIONS.find((institution) => institution.id === id);
}
