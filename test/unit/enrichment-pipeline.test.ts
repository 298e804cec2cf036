import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EnrichmentInput, ProviderHints } from '../../src/enrichment/enrichment.ts';
import { enrich } from '../../src/enrichment/pipeline.ts';
import { isCategory } from '../../src/enrichment/taxonomy.ts';
import { bankLine } from '../../src/providers/sandbox/descriptions.ts';
import { Household, type AccountRole } from '../../src/providers/sandbox/household.ts';
import { NO_HINTS } from '../support/enrichment.ts';

type Overrides = Partial<Omit<EnrichmentInput, 'hints'>> & { hints?: Partial<ProviderHints> };

function input(description: string, amount: string, overrides: Overrides = {}): EnrichmentInput {
  return { description, amount, currencyCode: 'USD', accountKind: 'DEPOSITORY', ...overrides, hints: { ...NO_HINTS, ...overrides.hints } };
}

const categoryOf = (description: string, amount: string, overrides?: Overrides) => enrich(input(description, amount, overrides)).category;

describe('keyword rules', () => {
  it('tells wages, interest and deposits from money out by the amount’s sign', () => {
    expect(categoryOf('ACME CORP PAYROLL PPD ID: 1234567890', '2500.00')).toMatchObject({ detailed: 'INCOME_WAGES', source: 'RULES' });
    expect(categoryOf('Gutschrift Gehalt Maerz', '3100.00')?.detailed).toBe('INCOME_WAGES');
    expect(categoryOf('LÖN ACME AB', '31000.00')?.detailed).toBe('INCOME_WAGES');
    expect(categoryOf('ACME CORP PAYROLL', '-2500.00')?.detailed).not.toBe('INCOME_WAGES');
    expect(categoryOf('INTEREST PAYMENT', '1.37')?.detailed).toBe('INCOME_INTEREST_EARNED');
    expect(categoryOf('INTEREST CHARGE ON PURCHASES', '-18.42')?.detailed).toBe('BANK_FEES_INTEREST_CHARGE');
    expect(categoryOf('MOBILE DEPOSIT REF 419070163472', '350.00')?.detailed).toBe('TRANSFER_IN_DEPOSIT');
  });

  it('knows cash, fees, rent, loans and card payments, a fee before the cash it was charged on', () => {
    expect(categoryOf('ATM WITHDRAWAL 004521 MAIN ST', '-100.00')?.detailed).toBe('TRANSFER_OUT_WITHDRAWAL');
    expect(categoryOf('Bargeldauszahlung Geldautomat', '-50.00')?.detailed).toBe('TRANSFER_OUT_WITHDRAWAL');
    expect(categoryOf('NON-CHASE ATM FEE-WITH', '-2.50')?.detailed).toBe('BANK_FEES_ATM_FEES');
    expect(categoryOf('MONTHLY SERVICE FEE', '-12.00')?.detailed).toBe('BANK_FEES_OTHER_BANK_FEES');
    expect(categoryOf('Dauerauftrag Miete April', '-980.00')?.detailed).toBe('RENT_AND_UTILITIES_RENT');
    expect(categoryOf('ENTERPRISE RENT-A-CAR', '-201.12')?.detailed).toBe('TRAVEL_RENTAL_CARS');
    expect(categoryOf('CHASE CREDIT CRD AUTOPAY PPD ID: 4760039224', '-1536.21')?.detailed).toBe('LOAN_PAYMENTS_CREDIT_CARD_PAYMENT');
  });

  it('reads a payment into a card or a loan account as that debt’s payment', () => {
    expect(categoryOf('AUTOMATIC PAYMENT - THANK', '2078.50', { accountKind: 'CREDIT' })?.detailed).toBe('LOAN_PAYMENTS_CREDIT_CARD_PAYMENT');
    expect(categoryOf('PAYMENT RECEIVED - THANK YOU', '412.00', { accountKind: 'LOAN' })?.detailed).toBe('LOAN_PAYMENTS_OTHER_PAYMENT');
  });

  it('guesses a trade from a word in the name, after the directory and the code had nothing', () => {
    expect(categoryOf('SQ *HALAL KEBAB NEW YORK NY', '-11.50')).toMatchObject({ detailed: 'FOOD_AND_DRINK_FAST_FOOD', confidence: 0.6 });
    expect(categoryOf('Kartenzahlung Baeckerei Siebert', '-6.40')?.detailed).toBe('FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK');
    expect(categoryOf('Zelle payment to Jordan Smith', '-60.00')?.detailed).toBe('TRANSFER_OUT_ACCOUNT_TRANSFER');
    expect(categoryOf('Swish inbetalning ERIK JOHANSSON', '150.00')?.detailed).toBe('TRANSFER_IN_ACCOUNT_TRANSFER');
    expect(categoryOf('SPARKFUN ELECTRONICS', '-89.40')?.detailed).toBe('GENERAL_MERCHANDISE_ELECTRONICS');
    expect(categoryOf('TECTRA INC', '-500.00')).toBeNull();
  });
});

describe('the pipeline', () => {
  it('names the directory’s merchant and its category, never a website or logo of its own', () => {
    expect(enrich(input('DEBIT CARD PURCHASE XXXXX4821 WHOLEFDS MKT 10155 AUSTIN TX', '-87.32'))).toEqual({
      cleanDescription: 'WHOLEFDS MKT',
      merchant: { name: 'Whole Foods Market', website: null, logoUrl: null, source: 'DIRECTORY', confidence: 0.9 },
      category: { primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_GROCERIES', source: 'RULES', confidence: 0.9 },
      paymentChannel: 'IN_STORE',
    });
  });

  it('keeps the provider’s category, merchant name, website and logo, and finds the category of a provider’s merchant name', () => {
    const hints = { merchantName: 'Starbucks', website: 'starbucks.com', logoUrl: 'https://logos.example/starbucks.png', category: { primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_COFFEE' }, mcc: null, paymentChannel: 'IN_STORE' as const };
    expect(enrich(input('STARBUCKS STORE 06672', '-4.33', { hints }))).toMatchObject({
      merchant: { name: 'Starbucks', website: 'starbucks.com', logoUrl: 'https://logos.example/starbucks.png', source: 'PROVIDER' },
      category: { detailed: 'FOOD_AND_DRINK_COFFEE', source: 'PROVIDER', confidence: 0.9 },
      paymentChannel: 'IN_STORE',
    });
    expect(enrich(input('CHECKCARD 0312 4471 XYZ', '-4.33', { hints: { merchantName: 'Starbucks' } }))).toMatchObject({ merchant: { name: 'Starbucks', website: null }, category: { detailed: 'FOOD_AND_DRINK_COFFEE', source: 'RULES' } });
  });

  it('ignores a provider category outside the taxonomy', () => {
    expect(categoryOf('STARBUCKS', '-4.33', { hints: { ...NO_HINTS, category: { primary: 'Food and Drink', detailed: 'Coffee Shop' } } })).toMatchObject({ detailed: 'FOOD_AND_DRINK_COFFEE', source: 'RULES' });
    expect(categoryOf('STARBUCKS', '-4.33', { hints: { ...NO_HINTS, category: { primary: 'TRAVEL', detailed: 'FOOD_AND_DRINK_COFFEE' } } })?.source).toBe('RULES');
  });

  it('uses the merchant category code when the text names no merchant', () => {
    expect(categoryOf('GREEN APPLE BOOKS SAN FRANCISCO CA', '-31.20', { hints: { ...NO_HINTS, mcc: '5942' } })).toMatchObject({ detailed: 'GENERAL_MERCHANDISE_BOOKSTORES_AND_NEWSSTANDS', confidence: 0.75 });
    expect(categoryOf('STARBUCKS', '-4.33', { hints: { ...NO_HINTS, mcc: '5411' } })?.detailed).toBe('FOOD_AND_DRINK_COFFEE');
  });

  it('turns a transfer merchant’s category the way the money went', () => {
    expect(categoryOf('VENMO PAYMENT 1023456789', '-45.00')?.detailed).toBe('TRANSFER_OUT_ACCOUNT_TRANSFER');
    expect(categoryOf('VENMO CASHOUT', '120.00')?.detailed).toBe('TRANSFER_IN_ACCOUNT_TRANSFER');
    expect(categoryOf('ROBINHOOD CREDITS', '250.00')?.detailed).toBe('TRANSFER_IN_INVESTMENT_AND_RETIREMENT_FUNDS');
  });

  it('lets a surer rule win over a merchant, and drops a merchant its category contradicts', () => {
    expect(enrich(input('Withdrawal from ATM 7-ELEVEN 2211 PORTLAND OR', '-40.00'))).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_OUT_WITHDRAWAL' } });
    expect(enrich(input('NOMINA ACME IBERIA SL MARZO', '1980.00', { currencyCode: 'EUR' }))).toMatchObject({ merchant: { name: 'Acme Iberia', source: 'DESCRIPTION' }, category: { detailed: 'INCOME_WAGES' } });
    expect(enrich(input('NAVIENT ED LOAN PAYMENTS 0123456789', '-312.00'))).toMatchObject({ merchant: { name: 'Navient' }, category: { detailed: 'LOAN_PAYMENTS_STUDENT_LOAN_PAYMENT' } });
  });

  it('takes the payment channel from the provider, else from the text, else OTHER', () => {
    const channel = (description: string, paymentChannel: ProviderHints['paymentChannel'] = null) => enrich(input(description, '-1.00', { hints: { ...NO_HINTS, paymentChannel } })).paymentChannel;
    expect(channel('AMZN Mktp US*2K4LD7')).toBe('ONLINE');
    expect(channel('NETFLIX.COM')).toBe('ONLINE');
    expect(channel('WWW.ETSY.COM')).toBe('ONLINE');
    expect(channel('POS WHOLEFDS SFO 10234')).toBe('IN_STORE');
    expect(channel('Kartenzahlung REWE Markt GmbH')).toBe('IN_STORE');
    expect(channel('SQ *TARTINE BAKERY')).toBe('IN_STORE');
    expect(channel('SHELL OIL 57444417 SAN FRANCISCO CA')).toBe('IN_STORE');
    expect(channel('ACME CORP PAYROLL PPD ID: 1234567890')).toBe('OTHER');
    expect(channel('SEPA-Lastschrift Vodafone GmbH')).toBe('OTHER');
    expect(channel('NETFLIX.COM', 'OTHER')).toBe('OTHER');
  });

  it('gives the same output for the same input, a category of the taxonomy and a confidence in (0, 1], whatever the text', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 120 }),
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.constantFrom<EnrichmentInput['accountKind']>('DEPOSITORY', 'CREDIT', 'LOAN', 'INVESTMENT'),
        (description, cents, accountKind) => {
          const given = input(description, (cents / 100).toFixed(2), { accountKind });
          const first = enrich(given);
          expect(enrich(structuredClone(given))).toEqual(first);
          if (first.category) {
            expect(isCategory(first.category.primary, first.category.detailed)).toBe(true);
            expect(first.category.confidence > 0 && first.category.confidence <= 1).toBe(true);
          }
          expect(first.cleanDescription.length).toBeLessThanOrEqual(description.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds the primary category the sandbox household means in every raw bank line it prints', () => {
    const accounts: AccountRole[] = ['checking', 'savings', 'card', 'loan', 'student', 'brokerage', 'retirement'];
    const kinds: Record<AccountRole, EnrichmentInput['accountKind']> = { checking: 'DEPOSITORY', savings: 'DEPOSITORY', card: 'CREDIT', loan: 'LOAN', student: 'LOAN', brokerage: 'INVESTMENT', retirement: 'INVESTMENT' };
    const household = new Household('enrichment-seed', { accounts, firstDay: 20_000 });
    const missed: string[] = [];
    let seen = 0;
    for (let day = 20_000; day < 20_120; day++) {
      for (const movement of household.on(day)) {
        const line = bankLine(movement, `account-${movement.account}`);
        const result = enrich(input(line, (movement.cents / 100).toFixed(2), { accountKind: kinds[movement.account] }));
        seen += 1;
        if (result.category?.primary !== movement.counterparty.pfc[0]) missed.push(`${line}: ${result.category?.detailed ?? 'none'}, want ${movement.counterparty.pfc[1]}`);
      }
    }
    expect(seen).toBeGreaterThan(150);
    expect(missed).toEqual([]);
  });
});
