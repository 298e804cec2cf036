/** The accounts every fake bridge user holds. */
export type AccountKey = 'checking' | 'savings' | 'card';

/** A financial institution the bridge reaches (a v1 `org`, a v2 connection's `org_*`). */
export interface OrgTemplate {
  key: 'bank' | 'card';
  name: string;
  domain: string;
}

export const ORGS: Record<OrgTemplate['key'], OrgTemplate> = {
  bank: { key: 'bank', name: 'Riverbend Federal Credit Union', domain: 'riverbendfcu.example' },
  card: { key: 'card', name: 'Meridian Card Services', domain: 'meridiancard.example' },
};

/** One account, with its balance when the user is created, in cents and SimpleFIN's signs (owed is negative). */
export interface AccountTemplate {
  key: AccountKey;
  name: string;
  /** Where the account lives when the user has two orgs; with one org every account is at the bank. */
  org: OrgTemplate['key'];
  balanceAtStart: number;
  /** Credit limit of a card: its available balance is the credit left. */
  limit: number | null;
}

export const ACCOUNTS: readonly AccountTemplate[] = [
  { key: 'checking', name: 'Everyday Checking', org: 'bank', balanceAtStart: 2_410_35, limit: null },
  { key: 'savings', name: 'High Yield Savings', org: 'bank', balanceAtStart: 21_035_50, limit: null },
  { key: 'card', name: 'Rewards Visa Signature', org: 'card', balanceAtStart: -1_240_18, limit: 10_000_00 },
];

/** Who is on the other side of a movement, as the bridge describes it. */
export interface Counterparty {
  /** The clean name the bridge adds (`payee`, version 2). */
  payee: string;
  /** The institution's description. */
  descriptor: string;
  mcc: string | null;
  /** Appended to the description once a card-present purchase settles (the processor adds the place). */
  place: string | null;
}

/** A merchant card purchases are drawn from: amount range in cents, and whether a tip follows. */
export interface Merchant extends Counterparty {
  cents: [min: number, max: number];
  tipped: boolean;
}

const merchant = (payee: string, descriptor: string, mcc: string, cents: [number, number], place: string | null = null, tipped = false): Merchant => ({ payee, descriptor, mcc, place, cents, tipped });

export const MERCHANTS: readonly Merchant[] = [
  merchant('Walmart', 'WM SUPERCENTER #1700', '5411', [12_00, 160_00], 'POWAY CA'),
  merchant('Starbucks', 'STARBUCKS STORE 06672', '5814', [3_45, 12_80], 'SEATTLE WA'),
  merchant('Whole Foods Market', 'WHOLEFDS SFO 10234', '5411', [18_00, 210_00], 'SAN FRANCISCO CA'),
  merchant('Amazon', 'AMZN MKTP US*2K4L81QT2', '5942', [8_99, 240_00]),
  merchant('Uber', 'UBER *TRIP HELP.UBER.COM', '4121', [9_50, 64_00]),
  merchant('Shell', 'SHELL OIL 57444417', '5541', [25_00, 85_00], 'SAN FRANCISCO CA'),
  merchant('Chipotle', 'CHIPOTLE 1249', '5814', [9_25, 32_00], 'SAN FRANCISCO CA'),
  merchant('The Cheesecake Factory', 'CHEESECAKE FACTORY #0048', '5812', [38_00, 140_00], 'SAN FRANCISCO CA', true),
  merchant('Tartine Bakery', 'SQ *TARTINE BAKERY', '5812', [14_00, 68_00], 'SAN FRANCISCO CA', true),
  merchant('Netflix', 'NETFLIX.COM', '4899', [15_49, 22_99]),
  merchant('Spotify', 'SPOTIFY USA', '5815', [10_99, 16_99]),
  merchant('Target', 'TARGET T-2768', '5310', [9_00, 180_00], 'SAN FRANCISCO CA'),
  merchant('CVS Pharmacy', 'CVS/PHARMACY #09862', '5912', [6_50, 75_00], 'SAN FRANCISCO CA'),
  merchant('Delta Air Lines', 'DELTA AIR LINES ATLANTA', '3058', [180_00, 720_00]),
  merchant('Zuni Cafe', 'ZUNI CAFE', '5812', [42_00, 180_00], 'SAN FRANCISCO CA', true),
  merchant('Apple', 'APPLE.COM/BILL', '5734', [99, 29_99]),
];

const flow = (payee: string, descriptor: string): Counterparty => ({ payee, descriptor, mcc: null, place: null });

/** The other side of scheduled movements (payroll, rent, transfers, card payments). */
export const FLOWS = {
  payroll: flow('Acme Corp', 'ACME CORP PAYROLL PPD ID: 1234567890'),
  rent: flow('Parkline Properties', 'PARKLINE PROPERTIES RENT WEB ID: 9000123456'),
  utilities: flow('PG&E', 'PGANDE WEB ONLINE'),
  toSavings: flow('Transfer to Savings', 'ONLINE TRANSFER TO SAV XXXXX1111'),
  fromChecking: flow('Transfer from Checking', 'ONLINE TRANSFER FROM CHK XXXXX0000'),
  interest: flow('Interest', 'DIVIDEND/INTEREST'),
  cardPayment: flow('Meridian Card Services', 'MERIDIAN CARD AUTOPAY PPD ID: 9000001111'),
  cardPaymentReceived: flow('Payment Received', 'AUTOMATIC PAYMENT - THANK YOU'),
} satisfies Record<string, Counterparty>;
