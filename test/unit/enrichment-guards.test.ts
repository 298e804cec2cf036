import { describe, expect, it } from 'vitest';
import { withoutLegalForms } from '../../src/enrichment/legal-forms.ts';
import { enrich } from '../../src/enrichment/pipeline.ts';
import { normalize } from '../../src/enrichment/text.ts';
import { NO_HINTS } from '../support/enrichment.ts';

const enriched = (description: string, amount: string, currencyCode = 'USD') => enrich({ description, amount, currencyCode, accountKind: 'DEPOSITORY', hints: NO_HINTS });

describe('legal forms', () => {
  it('are suffixes of the account’s currency’s countries, never the name’s first word', () => {
    expect(withoutLegalForms(normalize('ADDEBITO SDD GIALLO SPA'), 'EUR')).toBe('ADDEBITO SDD GIALLO');
    expect(withoutLegalForms(normalize('LUX DENT SP. Z O.O.'), 'PLN')).toBe('LUX DENT');
    expect(withoutLegalForms(normalize('SERENITY DAY SPA'), 'USD')).toBe('SERENITY DAY SPA');
    expect(withoutLegalForms(normalize('SAS BOOKING'), 'EUR')).toBe('SAS BOOKING');
  });

  it('pull no category and are left out of a name', () => {
    expect(enriched('ADDEBITO SDD GIALLO SPA', '-40.00', 'EUR')).toMatchObject({ category: null, merchant: { name: 'Giallo' } });
    expect(enriched('SERENITY DAY SPA', '-95.00').category?.detailed).toBe('PERSONAL_CARE_HAIR_AND_BEAUTY');
    expect(enriched('COMPRA TARJ. 5540XXXXXXXX1234 NORTE VERDE SL', '-18.00', 'EUR').merchant?.name).toBe('Norte Verde');
    expect(enriched('COMPRA TARJ. 5540XXXXXXXX1234 NORTE VERDE SL', '-18.00', 'EUR').category?.detailed).not.toBe('TRANSPORTATION_PUBLIC_TRANSIT');
    expect(enriched('Kortköp 260602 SL ACCESS', '-43.00', 'SEK').merchant?.name).toBe('SL');
  });
});

describe('short words', () => {
  it('name a merchant only where a name starts', () => {
    expect(enriched('BP 4521 LEEDS', '-52.00', 'GBP').merchant?.name).toBe('BP');
    expect(enriched('Wypłata z bankomatu 100.00 PLN PKO BP GDANSK', '-100.00', 'PLN')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_OUT_WITHDRAWAL' } });
  });

  it('fire no kind rule when they are the whole name', () => {
    expect(enriched('POS BAR', '-9.00', 'EUR').category).toBeNull();
    expect(enriched('POS BAR LUNA', '-9.00', 'EUR').category?.detailed).toBe('FOOD_AND_DRINK_RESTAURANT');
  });
});

describe('names that are not evidence', () => {
  it('a surname after a title is no chain’s name', () => {
    expect(enriched('TRF P/ RENDA MAIO SR MANUEL PENNY', '-650.00', 'EUR')).toMatchObject({ merchant: { source: 'DESCRIPTION' }, category: { detailed: 'RENT_AND_UTILITIES_RENT' } });
    expect(enriched('CARD PAYMENT TO DR PENNY WALSH ON 02-06-2026', '-60.00', 'GBP').merchant?.name).not.toBe('Penny');
    expect(enriched('MR COOPER', '-1500.00')).toMatchObject({ merchant: { name: 'Mr. Cooper', source: 'DIRECTORY' } });
  });

  it('a practice’s word yields to the specialty named beside it', () => {
    expect(enriched('Kartenzahlung Steuerberaterpraxis Lang', '-120.00', 'EUR').category?.detailed).toBe('GENERAL_SERVICES_ACCOUNTING_AND_FINANCIAL_PLANNING');
    expect(enriched('Kartenzahlung Kanzlei Praxis Roth', '-300.00', 'EUR').category?.detailed).toBe('GENERAL_SERVICES_CONSULTING_AND_LEGAL');
    expect(enriched('Kartenzahlung Praxis Dr. med. Roth', '-25.00', 'EUR').category?.detailed).toBe('MEDICAL_PRIMARY_CARE');
  });

  it('a bookmaker’s name is no electricity supplier', () => {
    expect(enriched('CARD PAYMENT TO PADDYPOWER.COM ON 02-06-2026', '-15.00', 'GBP')).toMatchObject({ merchant: { name: 'Paddy Power' }, category: { detailed: 'ENTERTAINMENT_CASINOS_AND_GAMBLING' } });
    expect(enriched('SQ *SUNRISE POWER YOGA', '-20.00').category?.detailed).toBe('PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS');
  });

  it('a payment scheme’s name is no telephone bill', () => {
    expect(enriched('MOBILE PAY 02.06 JENS HANSEN', '-150.00', 'DKK').category?.primary).not.toBe('RENT_AND_UTILITIES');
    expect(enriched('PAGO MOVIL EN LA TIENDA DE ANA', '-12.00', 'EUR').category?.primary).not.toBe('RENT_AND_UTILITIES');
  });
});

describe('a French transfer’s M (Monsieur) before a name', () => {
  it('reads the surname after it as a person’s, not a chain’s (Boulanger)', () => {
    expect(enriched('VIR SEPA M PIERRE BOULANGER', '-50.00', 'EUR').category?.detailed).toBe('TRANSFER_OUT_ACCOUNT_TRANSFER');
  });
});
