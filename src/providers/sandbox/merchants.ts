/** How a movement reached the account: at a till, online, or neither (ACH, transfers, interest). */
export type Channel = 'in store' | 'online' | 'other';

/** Who is on the other side, in the words of Plaid's counterparty types (the richest of the formats rendered). */
export type CounterpartyKind = 'merchant' | 'marketplace' | 'income_source' | 'financial_institution';

export interface Store {
  address: string;
  city: string;
  region: string;
  postalCode: string;
  lat: number;
  lon: number;
  number: string;
}

/**
 * The other side of a movement, with what every rendering needs: the clean name (Plaid's merchant
 * name, SimpleFIN's payee), the card network's or the ACH raw descriptor (every format's bank line,
 * the sandbox's too: descriptions.ts), Plaid's personal finance category and SimpleFIN's MCC.
 */
export interface Counterparty {
  name: string;
  descriptor: string;
  kind: CounterpartyKind;
  website: string | null;
  pfc: readonly [primary: string, detailed: string];
  mcc: string | null;
  channel: Channel;
  store: Store | null;
}

/** What a household buys, each with how often it happens and which account pays (see household.ts). */
export type SpendingGroup = 'groceries' | 'coffee' | 'restaurants' | 'shopping' | 'transport' | 'health' | 'travel';

/** A merchant purchases are drawn from: its amount range in cents, and whether a tip is added when it settles. */
export interface Merchant extends Counterparty {
  group: SpendingGroup | 'subscription' | 'utility' | 'abroad';
  /** In the merchant's own currency: EUR for those abroad, USD for the others. */
  cents: readonly [min: number, max: number];
  tipped: boolean;
}

const store = (address: string, city: string, region: string, postalCode: string, lat: number, lon: number, number: string): Store => ({ address, city, region, postalCode, lat, lon, number });

interface MerchantFields {
  group: Merchant['group'];
  descriptor: string;
  website: string;
  pfc: readonly [string, string];
  mcc: string;
  cents: readonly [number, number];
  store?: Store;
  tipped?: boolean;
  marketplace?: boolean;
}

const merchant = (name: string, fields: MerchantFields): Merchant => ({
  name,
  descriptor: fields.descriptor,
  kind: fields.marketplace ? 'marketplace' : 'merchant',
  website: fields.website,
  pfc: fields.pfc,
  mcc: fields.mcc,
  channel: fields.store ? 'in store' : 'online',
  store: fields.store ?? null,
  group: fields.group,
  cents: fields.cents,
  tipped: fields.tipped ?? false,
});

const SF = (address: string, postalCode: string, lat: number, lon: number, number: string) => store(address, 'San Francisco', 'CA', postalCode, lat, lon, number);

/** Every merchant of the synthetic household, the sandbox's and the fakes' alike. */
export const MERCHANTS: readonly Merchant[] = [
  merchant('Whole Foods Market', { group: 'groceries', descriptor: 'WHOLEFDS SFO 10234', website: 'wholefoodsmarket.com', pfc: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_GROCERIES'], mcc: '5411', cents: [18_00, 210_00], store: SF('399 4th St', '94107', 37.781248, -122.399588, '10234') }),
  merchant("Trader Joe's", { group: 'groceries', descriptor: 'TRADER JOE S #552', website: 'traderjoes.com', pfc: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_GROCERIES'], mcc: '5411', cents: [22_00, 120_00], store: SF('555 9th St', '94103', 37.770286, -122.408421, '552') }),
  merchant('Safeway', { group: 'groceries', descriptor: 'SAFEWAY STORE 1711', website: 'safeway.com', pfc: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_GROCERIES'], mcc: '5411', cents: [12_00, 140_00], store: SF('2020 Market St', '94114', 37.768812, -122.427245, '1711') }),
  merchant('Starbucks', { group: 'coffee', descriptor: 'STARBUCKS STORE 06672', website: 'starbucks.com', pfc: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_COFFEE'], mcc: '5814', cents: [3_45, 12_80], store: store('1912 Pike Pl', 'Seattle', 'WA', '98101', 47.610152, -122.342554, '06672') }),
  merchant('Blue Bottle Coffee', { group: 'coffee', descriptor: 'BLUE BOTTLE #12', website: 'bluebottlecoffee.com', pfc: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_COFFEE'], mcc: '5814', cents: [4_50, 14_00], store: SF('66 Mint St', '94103', 37.782332, -122.407434, '12') }),
  merchant('Chipotle', { group: 'restaurants', descriptor: 'CHIPOTLE 1249', website: 'chipotle.com', pfc: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_FAST_FOOD'], mcc: '5814', cents: [9_25, 32_00], store: SF('2 Embarcadero Ctr', '94111', 37.794985, -122.398552, '1249') }),
  merchant('The Cheesecake Factory', { group: 'restaurants', descriptor: 'CHEESECAKE FACTORY #0048', website: 'thecheesecakefactory.com', pfc: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_RESTAURANT'], mcc: '5812', cents: [38_00, 140_00], tipped: true, store: SF('251 Geary St', '94102', 37.787637, -122.407436, '0048') }),
  merchant('Tartine Bakery', { group: 'restaurants', descriptor: 'SQ *TARTINE BAKERY', website: 'tartinebakery.com', pfc: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_RESTAURANT'], mcc: '5812', cents: [14_00, 68_00], tipped: true, store: SF('600 Guerrero St', '94110', 37.761408, -122.424104, '1') }),
  merchant('Zuni Cafe', { group: 'restaurants', descriptor: 'ZUNI CAFE', website: 'zunicafe.com', pfc: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_RESTAURANT'], mcc: '5812', cents: [42_00, 180_00], tipped: true, store: SF('1658 Market St', '94102', 37.773644, -122.421574, '1') }),
  merchant('DoorDash', { group: 'restaurants', descriptor: 'DD DOORDASH BURGERKIN', website: 'doordash.com', pfc: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_FAST_FOOD'], mcc: '5814', cents: [14_00, 48_00], tipped: true, marketplace: true }),
  merchant('Walmart', { group: 'shopping', descriptor: 'PURCHASE WM SUPERCENTER #1700', website: 'walmart.com', pfc: ['GENERAL_MERCHANDISE', 'GENERAL_MERCHANDISE_SUPERSTORES'], mcc: '5411', cents: [12_00, 160_00], store: store('13425 Community Rd', 'Poway', 'CA', '92064', 32.959068, -117.037666, '1700') }),
  merchant('Target', { group: 'shopping', descriptor: 'TARGET T-2768', website: 'target.com', pfc: ['GENERAL_MERCHANDISE', 'GENERAL_MERCHANDISE_SUPERSTORES'], mcc: '5310', cents: [9_00, 180_00], store: SF('789 Mission St', '94103', 37.784357, -122.403827, '2768') }),
  merchant('Amazon', { group: 'shopping', descriptor: 'AMZN Mktp US*2K4L81QT2', website: 'amazon.com', pfc: ['GENERAL_MERCHANDISE', 'GENERAL_MERCHANDISE_ONLINE_MARKETPLACES'], mcc: '5942', cents: [8_99, 240_00], marketplace: true }),
  merchant('REI', { group: 'shopping', descriptor: 'REI #0119 SAN FRANCISCO', website: 'rei.com', pfc: ['GENERAL_MERCHANDISE', 'GENERAL_MERCHANDISE_SPORTING_GOODS'], mcc: '5941', cents: [25_00, 240_00], store: SF('840 Brannan St', '94103', 37.771276, -122.404172, '0119') }),
  merchant('Apple', { group: 'shopping', descriptor: 'APPLE.COM/BILL', website: 'apple.com', pfc: ['GENERAL_SERVICES', 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES'], mcc: '5734', cents: [99, 29_99] }),
  merchant('Uber', { group: 'transport', descriptor: 'UBER *TRIP HELP.UBER.COM', website: 'uber.com', pfc: ['TRANSPORTATION', 'TRANSPORTATION_TAXIS_AND_RIDE_SHARES'], mcc: '4121', cents: [9_50, 64_00] }),
  merchant('Shell', { group: 'transport', descriptor: 'SHELL OIL 57444417', website: 'shell.com', pfc: ['TRANSPORTATION', 'TRANSPORTATION_GAS'], mcc: '5541', cents: [25_00, 85_00], store: SF('2101 Market St', '94114', 37.767714, -122.429244, '57444417') }),
  merchant('BART', { group: 'transport', descriptor: 'BART CLIPPER SFO', website: 'bart.gov', pfc: ['TRANSPORTATION', 'TRANSPORTATION_PUBLIC_TRANSIT'], mcc: '4111', cents: [20_00, 20_00], store: SF('SFO International Terminal', '94128', 37.616407, -122.392407, 'SFO') }),
  merchant('CVS Pharmacy', { group: 'health', descriptor: 'CVS/PHARMACY #09862', website: 'cvs.com', pfc: ['MEDICAL', 'MEDICAL_PHARMACIES_AND_SUPPLEMENTS'], mcc: '5912', cents: [6_50, 75_00], store: SF('731 Market St', '94103', 37.786914, -122.404113, '09862') }),
  merchant('Delta Air Lines', { group: 'travel', descriptor: 'DELTA AIR LINES ATLANTA', website: 'delta.com', pfc: ['TRAVEL', 'TRAVEL_FLIGHTS'], mcc: '3058', cents: [180_00, 720_00] }),
  merchant('Netflix', { group: 'subscription', descriptor: 'NETFLIX.COM', website: 'netflix.com', pfc: ['ENTERTAINMENT', 'ENTERTAINMENT_TV_AND_MOVIES'], mcc: '4899', cents: [15_49, 15_49] }),
  merchant('Spotify', { group: 'subscription', descriptor: 'SPOTIFY USA', website: 'spotify.com', pfc: ['ENTERTAINMENT', 'ENTERTAINMENT_MUSIC_AND_AUDIO'], mcc: '5815', cents: [11_99, 11_99] }),
  merchant('PG&E', { group: 'utility', descriptor: 'PGANDE WEB ONLINE', website: 'pge.com', pfc: ['RENT_AND_UTILITIES', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY'], mcc: '4900', cents: [60_00, 170_00] }),
  // Abroad: card purchases made in EUR, settled in the card's USD.
  merchant('Café de Flore', { group: 'abroad', descriptor: 'CAFE DE FLORE PARIS FR', website: 'cafedeflore.fr', pfc: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_COFFEE'], mcc: '5814', cents: [8_00, 35_00] }),
  merchant('Rijksmuseum', { group: 'abroad', descriptor: 'RIJKSMUSEUM AMSTERDAM NL', website: 'rijksmuseum.nl', pfc: ['ENTERTAINMENT', 'ENTERTAINMENT_MUSEUMS_AND_GALLERIES'], mcc: '7991', cents: [22_50, 45_00] }),
  merchant('Deutsche Bahn', { group: 'abroad', descriptor: 'DB VERTRIEB GMBH BERLIN DE', website: 'bahn.de', pfc: ['TRAVEL', 'TRAVEL_PUBLIC_TRANSIT'], mcc: '4112', cents: [29_90, 149_90] }),
];

/** The merchants of one group. */
export function merchantsOf(group: Merchant['group']): readonly Merchant[] {
  return MERCHANTS.filter((candidate) => candidate.group === group);
}

const flow = (name: string, descriptor: string, kind: CounterpartyKind, pfc: readonly [string, string]): Counterparty => ({
  name,
  descriptor,
  kind,
  website: null,
  pfc,
  mcc: null,
  channel: 'other',
  store: null,
});

/** The other side of scheduled movements: payroll, rent, transfers, loan and card payments, interest, dividends. */
export const FLOWS = {
  payroll: flow('Acme Corp', 'ACME CORP PAYROLL PPD ID: 1234567890', 'income_source', ['INCOME', 'INCOME_WAGES']),
  retirement: flow('Acme Corp 401k', 'ACME CORP 401K CONTRIBUTION', 'income_source', ['TRANSFER_IN', 'TRANSFER_IN_INVESTMENT_AND_RETIREMENT_FUNDS']),
  rent: flow('Parkline Properties', 'PARKLINE PROPERTIES RENT WEB ID: 9000123456', 'merchant', ['RENT_AND_UTILITIES', 'RENT_AND_UTILITIES_RENT']),
  toSavings: flow('Transfer to Savings', 'ONLINE TRANSFER TO SAV XXXXX1111', 'financial_institution', ['TRANSFER_OUT', 'TRANSFER_OUT_SAVINGS']),
  fromChecking: flow('Transfer from Checking', 'ONLINE TRANSFER FROM CHK XXXXX0000', 'financial_institution', ['TRANSFER_IN', 'TRANSFER_IN_SAVINGS']),
  contribution: flow('Recurring Contribution', 'RECURRING CONTRIBUTION FROM CHK', 'financial_institution', ['TRANSFER_IN', 'TRANSFER_IN_INVESTMENT_AND_RETIREMENT_FUNDS']),
  dividend: flow('Dividend', 'DIVIDEND REINVESTED VTSAX', 'financial_institution', ['INCOME', 'INCOME_DIVIDENDS']),
  savingsInterest: flow('Interest Paid', 'DIVIDEND/INTEREST', 'financial_institution', ['INCOME', 'INCOME_INTEREST_EARNED']),
  loanPayment: flow('Loan Payment', 'LOAN SERVICING PAYMENT PPD ID: 3570000001', 'financial_institution', ['LOAN_PAYMENTS', 'LOAN_PAYMENTS_OTHER_PAYMENT']),
  loanPaymentReceived: flow('Payment Received', 'PAYMENT RECEIVED - THANK YOU', 'financial_institution', ['LOAN_PAYMENTS', 'LOAN_PAYMENTS_OTHER_PAYMENT']),
  loanInterest: flow('Interest Charged', 'INTEREST CHARGED', 'financial_institution', ['BANK_FEES', 'BANK_FEES_INTEREST_CHARGE']),
  cardPayment: flow('Credit Card Autopay', 'CREDIT CRD AUTOPAY PPD ID: 9000001111', 'financial_institution', ['LOAN_PAYMENTS', 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT']),
  cardPaymentReceived: flow('Payment Thank You', 'AUTOMATIC PAYMENT - THANK YOU', 'financial_institution', ['LOAN_PAYMENTS', 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT']),
} satisfies Record<string, Counterparty>;
