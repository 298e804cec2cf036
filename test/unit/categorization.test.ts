import { describe, expect, it } from 'vitest';
import { classify, LEARNED, train, wordsOf } from '../../src/modules/categorization/classifier.ts';
import { matchingRule, type OperatorRule } from '../../src/modules/categorization/operator-rules.ts';
import { providerHints } from '../../src/modules/transaction/provider-hints.ts';

const coffee = (words: string[]) => ({ words, primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_COFFEE' });
const gas = (words: string[]) => ({ words, primary: 'TRANSPORTATION', detailed: 'TRANSPORTATION_GAS' });

describe('learned classifier', () => {
  it('reads words without digits, once each, and the direction of the amount', () => {
    expect(wordsOf('STARBUCKS STORE 06672 Café', 'Starbucks', '-4.50')).toEqual(['starbucks', 'store', 'cafe', '↓out']);
    expect(wordsOf('Payroll', null, '1500.00')).toEqual(['payroll', '↑in']);
  });

  it('answers once enough corrections agree, with the posterior, and the same answer every time', () => {
    const counts = train([coffee(wordsOf('Blue Bottle', null, '-4')), coffee(wordsOf('Blue Bottle #12', null, '-5')), gas(wordsOf('Shell Oil', null, '-40'))]);
    const answer = classify(counts, wordsOf('BLUE BOTTLE COFFEE', null, '-6'));
    expect(answer).toMatchObject({ primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_COFFEE' });
    expect(answer!.posterior).toBeGreaterThanOrEqual(LEARNED.minPosterior);
    expect(classify(counts, wordsOf('BLUE BOTTLE COFFEE', null, '-6'))).toEqual(answer);
  });

  it('stays silent with one correction, for words it never saw, and when categories disagree', () => {
    expect(classify(train([coffee(['blue', 'bottle', '↓out'])]), ['blue', 'bottle', '↓out'])).toBeNull();
    const counts = train([coffee(['blue', 'bottle', '↓out']), coffee(['blue', 'bottle', '↓out'])]);
    expect(classify(counts, ['shell', 'oil', '↓out'])).toBeNull();
    const split = train([coffee(['corner', 'shop', '↓out']), coffee(['corner', 'shop', '↓out']), gas(['corner', 'shop', '↓out']), gas(['corner', 'shop', '↓out'])]);
    expect(classify(split, ['corner', 'shop', '↓out'])).toBeNull();
    expect(classify({}, ['blue'])).toBeNull();
  });

  it('takes words that name Object.prototype members as words', () => {
    const counts = train([coffee(['constructor', '↓out']), coffee(['constructor', '↓out'])]);
    expect(classify(counts, ['constructor', '↓out'])).toMatchObject({ detailed: 'FOOD_AND_DRINK_COFFEE' });
    expect(classify(counts, ['tostring', '__proto__', '↓out'])).toBeNull();
  });
});

describe('operator rules', () => {
  const rule = (fields: Partial<OperatorRule>): OperatorRule => ({ merchantName: null, descriptionContains: null, amountSign: null, categoryPrimary: 'INCOME', categoryDetailed: 'INCOME_WAGES', ...fields });
  const subject = { description: 'ACME CORP PAYROLL 0415', cleanDescription: 'Acme Corp Payroll', merchantName: 'Acme', amount: '2100.00' };

  it('match a merchant name or a piece of description, ignoring case, in the direction named; the oldest first', () => {
    const first = rule({ descriptionContains: 'payroll', amountSign: 'IN' });
    expect(matchingRule([rule({ merchantName: 'other' }), first, rule({ merchantName: 'acme' })], subject)).toBe(first);
    expect(matchingRule([rule({ descriptionContains: 'payroll', amountSign: 'OUT' })], subject)).toBeUndefined();
    expect(matchingRule([rule({ merchantName: 'acme' })], { ...subject, merchantName: null })).toBeUndefined();
  });

  it('treat pattern characters as plain text', () => {
    expect(matchingRule([rule({ descriptionContains: '.*' })], subject)).toBeUndefined();
    expect(matchingRule([rule({ descriptionContains: '(a+)+$' })], { ...subject, description: 'x (a+)+$ y' })).toBeDefined();
  });
});

describe('provider hints', () => {
  it("carry Plaid's personal finance category over, and nothing that is not a category of the taxonomy", () => {
    const plaid = { categories: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_COFFEE'], counterpartyName: 'Starbucks', logo: 'https://logo', website: 'starbucks.com', timestamp: 'now' };
    expect(providerHints(plaid)).toEqual({ merchantName: 'Starbucks', counterpartyName: null, website: 'starbucks.com', logoUrl: 'https://logo', category: { primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_COFFEE' }, mcc: null, paymentChannel: null });
    expect(providerHints({ ...plaid, categories: ['Food and Drink', 'Coffee'] }).category).toBeNull();
    expect(providerHints({ categories: ['Groceries'], counterpartyName: '  ', paymentChannel: 'ONLINE', mcc: '5411' })).toMatchObject({ merchantName: null, category: null, paymentChannel: 'ONLINE', mcc: '5411' });
    expect(providerHints(null)).toEqual({ merchantName: null, counterpartyName: null, website: null, logoUrl: null, category: null, mcc: null, paymentChannel: null });
  });

  it("reads a category Plaid sends in its current taxonomy (version 2) as version 1", () => {
    expect(providerHints({ categories: ['INCOME', 'INCOME_SALARY'], counterpartyName: 'Acme Corp' }).category).toEqual({ primary: 'INCOME', detailed: 'INCOME_WAGES' });
    expect(providerHints({ categories: ['LOAN_DISBURSEMENTS', 'LOAN_DISBURSEMENTS_BNPL'] }).category).toEqual({ primary: 'TRANSFER_IN', detailed: 'TRANSFER_IN_CASH_ADVANCES_AND_LOANS' });
    expect(providerHints({ categories: ['OTHER', 'OTHER_OTHER'] }).category).toBeNull();
  });

  it("reads a bank's payer or payee apart from a provider's merchant name: a name to read, not to show", () => {
    const enableBanking = { categories: [], merchantName: null, counterpartyName: 'ACME SVERIGE AB', mcc: null, logo: null, website: null };
    expect(providerHints(enableBanking)).toMatchObject({ merchantName: null, counterpartyName: 'ACME SVERIGE AB' });
  });
});
