import { AccountSubtype, AccountType, CounterpartyType, TransactionPaymentChannelEnum } from 'plaid';

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

export type AccountKey = 'checking' | 'savings' | 'credit' | 'student' | 'other';

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

/** What a transaction says about who was paid or who paid: the enrichment Plaid adds. */
export interface Counterparty {
  name: string;
  /** The raw descriptor the institution reports (`name`, and `original_description` when asked). */
  descriptor: string;
  type: CounterpartyType;
  website: string | null;
  category: [primary: string, detailed: string];
  channel: TransactionPaymentChannelEnum;
  /** A physical store, for in-store purchases. */
  store: { address: string; city: string; region: string; postalCode: string; lat: number; lon: number; number: string } | null;
}

/** A merchant card purchases are drawn from: amount range in cents, and whether a tip follows. */
export interface Merchant extends Counterparty {
  cents: [min: number, max: number];
  tipped: boolean;
}

const store = (address: string, city: string, region: string, postalCode: string, lat: number, lon: number, number: string) => ({ address, city, region, postalCode, lat, lon, number });
const { Online, InStore, Other } = TransactionPaymentChannelEnum;
const merchant = (name: string, descriptor: string, website: string | null, category: [string, string], channel: TransactionPaymentChannelEnum, cents: [number, number], extra: Partial<Merchant> = {}): Merchant => ({
  name, descriptor, type: CounterpartyType.Merchant, website, category, channel, store: null, cents, tipped: false, ...extra,
});

export const MERCHANTS: readonly Merchant[] = [
  merchant('Walmart', 'PURCHASE WM SUPERCENTER #1700', 'walmart.com', ['GENERAL_MERCHANDISE', 'GENERAL_MERCHANDISE_SUPERSTORES'], InStore, [12_00, 160_00], { store: store('13425 Community Rd', 'Poway', 'CA', '92064', 32.959068, -117.037666, '1700') }),
  merchant('Starbucks', 'STARBUCKS STORE 06672', 'starbucks.com', ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_COFFEE'], InStore, [3_45, 12_80], { store: store('1912 Pike Pl', 'Seattle', 'WA', '98101', 47.610152, -122.342554, '06672') }),
  merchant('Whole Foods Market', 'WHOLEFDS SFO 10234', 'wholefoodsmarket.com', ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_GROCERIES'], InStore, [18_00, 210_00], { store: store('399 4th St', 'San Francisco', 'CA', '94107', 37.781248, -122.399588, '10234') }),
  merchant('Amazon', 'AMZN Mktp US*2K4L81QT2', 'amazon.com', ['GENERAL_MERCHANDISE', 'GENERAL_MERCHANDISE_ONLINE_MARKETPLACES'], Online, [8_99, 240_00], { type: CounterpartyType.Marketplace }),
  merchant('Uber', 'UBER *TRIP HELP.UBER.COM', 'uber.com', ['TRANSPORTATION', 'TRANSPORTATION_TAXIS_AND_RIDE_SHARES'], Online, [9_50, 64_00]),
  merchant('Shell', 'SHELL OIL 57444417', 'shell.com', ['TRANSPORTATION', 'TRANSPORTATION_GAS'], InStore, [25_00, 85_00], { store: store('2101 Market St', 'San Francisco', 'CA', '94114', 37.767714, -122.429244, '57444417') }),
  merchant('Chipotle', 'CHIPOTLE 1249', 'chipotle.com', ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_FAST_FOOD'], InStore, [9_25, 32_00], { store: store('2 Embarcadero Ctr', 'San Francisco', 'CA', '94111', 37.794985, -122.398552, '1249') }),
  merchant('The Cheesecake Factory', 'CHEESECAKE FACTORY #0048', 'thecheesecakefactory.com', ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_RESTAURANT'], InStore, [38_00, 140_00], { tipped: true, store: store('251 Geary St', 'San Francisco', 'CA', '94102', 37.787637, -122.407436, '0048') }),
  merchant('Tartine', 'SQ *TARTINE BAKERY', 'tartinebakery.com', ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_RESTAURANT'], InStore, [14_00, 68_00], { tipped: true, store: store('600 Guerrero St', 'San Francisco', 'CA', '94110', 37.761408, -122.424104, '1') }),
  merchant('Netflix', 'NETFLIX.COM', 'netflix.com', ['ENTERTAINMENT', 'ENTERTAINMENT_TV_AND_MOVIES'], Online, [15_49, 22_99]),
  merchant('Spotify', 'Spotify USA', 'spotify.com', ['ENTERTAINMENT', 'ENTERTAINMENT_MUSIC_AND_AUDIO'], Online, [10_99, 16_99]),
  merchant('Target', 'TARGET T-2768', 'target.com', ['GENERAL_MERCHANDISE', 'GENERAL_MERCHANDISE_SUPERSTORES'], InStore, [9_00, 180_00], { store: store('789 Mission St', 'San Francisco', 'CA', '94103', 37.784357, -122.403827, '2768') }),
  merchant('CVS', 'CVS/PHARMACY #09862', 'cvs.com', ['MEDICAL', 'MEDICAL_PHARMACIES_AND_SUPPLEMENTS'], InStore, [6_50, 75_00], { store: store('731 Market St', 'San Francisco', 'CA', '94103', 37.786914, -122.404113, '09862') }),
  merchant('Delta', 'DELTA AIR LINES ATLANTA', 'delta.com', ['TRAVEL', 'TRAVEL_FLIGHTS'], Online, [180_00, 720_00]),
  merchant('DoorDash', 'DD DOORDASH BURGERKIN', 'doordash.com', ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_FAST_FOOD'], Online, [14_00, 48_00], { type: CounterpartyType.Marketplace, tipped: true }),
  merchant('Apple', 'APPLE.COM/BILL', 'apple.com', ['GENERAL_SERVICES', 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES'], Online, [99, 29_99]),
];

const flow = (name: string, descriptor: string, type: CounterpartyType, category: [string, string], website: string | null = null): Counterparty => ({
  name, descriptor, type, website, category, channel: Other, store: null,
});

/** The other side of scheduled money movements (payroll, rent, transfers, loan and card payments). */
export const FLOWS = {
  payroll: flow('Acme Corp', 'ACME CORP PAYROLL PPD ID: 1234567890', CounterpartyType.IncomeSource, ['INCOME', 'INCOME_WAGES']),
  rent: flow('Parkline Properties', 'PARKLINE PROPERTIES RENT WEB ID: 9000123456', CounterpartyType.Merchant, ['RENT_AND_UTILITIES', 'RENT_AND_UTILITIES_RENT']),
  utilities: flow('PG&E', 'PGANDE WEB ONLINE', CounterpartyType.Merchant, ['RENT_AND_UTILITIES', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY'], 'pge.com'),
  toSavings: flow('Plaid Saving', 'ONLINE TRANSFER TO SAV XXXXX1111', CounterpartyType.FinancialInstitution, ['TRANSFER_OUT', 'TRANSFER_OUT_SAVINGS']),
  fromChecking: flow('Plaid Checking', 'ONLINE TRANSFER FROM CHK XXXXX0000', CounterpartyType.FinancialInstitution, ['TRANSFER_IN', 'TRANSFER_IN_SAVINGS']),
  interest: flow('Plaid Saving', 'INTEREST PAYMENT', CounterpartyType.FinancialInstitution, ['INCOME', 'INCOME_INTEREST_EARNED']),
  cardPayment: flow('Plaid Credit Card', 'PLAID CREDIT CRD AUTOPAY PPD ID: 9000001111', CounterpartyType.FinancialInstitution, ['LOAN_PAYMENTS', 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT']),
  cardPaymentReceived: flow('Plaid Credit Card', 'AUTOMATIC PAYMENT - THANK YOU', CounterpartyType.FinancialInstitution, ['LOAN_PAYMENTS', 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT']),
  loanPayment: flow('Navient', 'NAVIENT PAYMENT PPD ID: 3570000001', CounterpartyType.FinancialInstitution, ['LOAN_PAYMENTS', 'LOAN_PAYMENTS_STUDENT_LOAN_PAYMENT'], 'navient.com'),
  loanPaymentReceived: flow('Navient', 'PAYMENT RECEIVED - THANK YOU', CounterpartyType.FinancialInstitution, ['LOAN_PAYMENTS', 'LOAN_PAYMENTS_STUDENT_LOAN_PAYMENT'], 'navient.com'),
} satisfies Record<string, Counterparty>;
