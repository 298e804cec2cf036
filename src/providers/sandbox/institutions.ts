import type { AccountKind, Institution } from '../provider.ts';

/** An account template: every connection to the institution has one account per template. */
export interface AccountTemplate {
  key: 'checking' | 'savings' | 'card' | 'loan' | 'brokerage' | 'retirement';
  name: string;
  kind: AccountKind;
  subtype: string;
}

export interface SandboxInstitution extends Institution {
  routing: string;
  /** Issues tokenized ACH numbers: the verified number's last four digits differ from the mask. */
  tokenizedNumbers: boolean;
  accounts: AccountTemplate[];
}

const CHECKING: AccountTemplate = { key: 'checking', name: 'Everyday Checking', kind: 'DEPOSITORY', subtype: 'checking' };
const SAVINGS: AccountTemplate = { key: 'savings', name: 'High Yield Savings', kind: 'DEPOSITORY', subtype: 'savings' };
const CARD: AccountTemplate = { key: 'card', name: 'Rewards Visa', kind: 'CREDIT', subtype: 'credit card' };

export const SANDBOX_INSTITUTIONS: SandboxInstitution[] = [
  {
    id: 'ins_first_platypus',
    name: 'First Platypus Bank',
    products: ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_NUMBERS'],
    description: 'Checking, savings, credit card, mortgage and brokerage accounts; tokenized ACH numbers.',
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
    products: ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_NUMBERS'],
    description: 'Checking, savings, credit card and auto loan accounts; plain ACH numbers.',
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
    products: ['TRANSACTIONS', 'BALANCES'],
    description: 'Checking and credit card accounts; no ACH numbers (ACCOUNT_NUMBERS is not offered).',
    routing: '031101279',
    tokenizedNumbers: false,
    accounts: [CHECKING, { ...CARD, name: 'Cash Back Card' }],
  },
  {
    id: 'ins_quokka_invest',
    name: 'Quokka Investments',
    products: ['TRANSACTIONS', 'BALANCES'],
    description: 'Brokerage and 401k retirement accounts.',
    routing: '041215663',
    tokenizedNumbers: false,
    accounts: [
      { key: 'brokerage', name: 'Individual Brokerage', kind: 'INVESTMENT', subtype: 'brokerage' },
      { key: 'retirement', name: 'Quokka 401k', kind: 'INVESTMENT', subtype: '401k' },
    ],
  },
];

export function findInstitution(id: string): SandboxInstitution | undefined {
  return SANDBOX_INSTITUTIONS.find((institution) => institution.id === id);
}

/** A merchant the generator buys from: how it appears raw on a statement and after enrichment. */
export interface Merchant {
  name: string;
  raw: string;
  categories: string[];
  website: string;
  /** Typical purchase in cents, and the spread around it. */
  cents: number;
  spread: number;
  /** Restaurants: the posted amount adds a tip to the pending authorisation. */
  tipped?: boolean;
}

const merchant = (name: string, raw: string, categories: string[], website: string, cents: number, spread: number, tipped = false): Merchant => ({
  name,
  raw,
  categories,
  website,
  cents,
  spread,
  tipped,
});

export const MERCHANTS = {
  groceries: [
    merchant('Whole Foods Market', 'WHOLEFDS MKT #10234', ['Shops', 'Groceries'], 'wholefoodsmarket.com', 8_500, 6_000),
    merchant("Trader Joe's", 'TRADER JOE S #552', ['Shops', 'Groceries'], 'traderjoes.com', 6_200, 4_000),
    merchant('Safeway', 'SAFEWAY STORE 1711', ['Shops', 'Groceries'], 'safeway.com', 5_400, 4_500),
  ],
  coffee: [
    merchant('Blue Bottle Coffee', 'BLUE BOTTLE #12', ['Food and Drink', 'Coffee'], 'bluebottlecoffee.com', 650, 300),
    merchant('Starbucks', 'STARBUCKS STORE 08821', ['Food and Drink', 'Coffee'], 'starbucks.com', 580, 250),
  ],
  restaurants: [
    merchant('Tartine Bakery', 'TARTINE BAKERY SF', ['Food and Drink', 'Restaurants'], 'tartinebakery.com', 2_800, 1_500, true),
    merchant('Sweetgreen', 'SWEETGREEN MARINA', ['Food and Drink', 'Restaurants'], 'sweetgreen.com', 1_650, 500),
    merchant('Nopa', 'NOPA RESTAURANT', ['Food and Drink', 'Restaurants'], 'nopasf.com', 7_800, 4_000, true),
  ],
  shopping: [
    merchant('Amazon', 'AMZN Mktp US*2K4', ['Shops', 'Online Marketplaces'], 'amazon.com', 3_900, 3_500),
    merchant('Target', 'TARGET 00027821', ['Shops', 'Department Stores'], 'target.com', 4_700, 3_000),
    merchant('REI', 'REI #0119 SAN FRANCISCO', ['Shops', 'Sporting Goods'], 'rei.com', 9_500, 7_000),
  ],
  transport: [
    merchant('Uber', 'UBER *TRIP HELP.UBER.COM', ['Travel', 'Ride Share'], 'uber.com', 1_900, 1_200),
    merchant('Chevron', 'CHEVRON 0092311', ['Travel', 'Gas Stations'], 'chevron.com', 5_200, 1_800),
    merchant('BART', 'BART CLIPPER SFO', ['Travel', 'Public Transit'], 'bart.gov', 2_000, 0),
  ],
  subscriptions: [
    merchant('Netflix', 'NETFLIX.COM', ['Service', 'Subscription'], 'netflix.com', 1_549, 0),
    merchant('Spotify', 'SPOTIFY USA', ['Service', 'Subscription'], 'spotify.com', 1_199, 0),
  ],
  utilities: [merchant('PG&E', 'PGANDE WEB ONLINE', ['Service', 'Utilities'], 'pge.com', 11_500, 5_000)],
} as const;

/** Enrichment logos are served from one predictable place per website. */
export function logoUrl(website: string): string {
  return `https://logos.sandbox.tributary.dev/${website}.png`;
}
