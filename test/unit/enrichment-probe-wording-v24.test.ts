import { describe, expect, it } from 'vitest';
import { nameAndDetailed as both, detailedOfLine as detailedOf, enrichLine, nameOfLine as nameOf } from '../support/enrichment.ts';

/**
 * What version 24 reads that three probes written after version 23 (US online banks and the South's and Midwest's banks;
 * British and Irish banks; German, Austrian, French, Spanish and Portuguese banks) showed missing, each on a line written
 * here, none taken from a probe or an evaluation file (docs/decisions/enrichment-evaluation.md).
 */
describe('payment apps', () => {
  it('names the person a Cash App or Venmo payment came from, not the app', () => {
    expect(nameOf('CASH APP PAYMENT FROM TAMIKA REYNOLDS', '40.00', 'USD')).toBe('Tamika Reynolds');
    expect(nameOf('VENMO PAYMENT FROM BRANDON LUTZ', '25.00', 'USD')).toBe('Brandon Lutz');
  });

  it('reads the shop or the person after MB WAY and Bizum, and passes over the app in the bank’s field', () => {
    expect(nameOf('MB WAY COMPRA PADARIA CENTRAL BRAGA', '-4.10', 'EUR', { counterpartyName: 'MB WAY' })).toBe('Padaria Central');
    expect(nameOf('TRF MB WAY DE JOAO PEDRO COSTA', '15.00', 'EUR', { counterpartyName: 'MB WAY' })).toBe('Joao Pedro Costa');
    expect(nameOf('BIZUM A FLORISTERIA LAS ROSAS CONCEPTO RAMO', '-25.00', 'EUR', { counterpartyName: 'BIZUM' })).toBe('Floristeria Las Rosas');
  });

  it('drops the prefixes of GoFan, Procare and USA Technologies’ vending machines', () => {
    expect(nameOf('GOFAN* WESTSIDE HIGH SCHOOL ATLANTA GA', '-8.00', 'USD')).toBe('Westside High School');
    expect(nameOf('PROCARE *SUNSHINE KIDS ACADEMY', '-190.00', 'USD')).toBe('Sunshine Kids Academy');
    expect(both(enrichLine('USA*PRAIRIE VENDING SERVICES DALLAS TX', '-2.25', 'USD'))).toEqual(['Prairie Vending Services', 'FOOD_AND_DRINK_VENDING_MACHINES']);
  });

  it('reads Instacart’s legal name on a shopper’s pay as Instacart, and the pay as wages', () => {
    expect(both(enrichLine('ACH CREDIT MAPLEBEAR INC SHOPPER PAY', '120.00', 'USD'))).toEqual(['Instacart', 'INCOME_WAGES']);
  });
});

describe('card wordings', () => {
  it('reads a US bank’s DDA POINT OF SALE DEBIT before the shop', () => {
    expect(nameOf('DDA POINT OF SALE DEBIT BAYOU AUTO GLASS HOUMA LA', '-90.00', 'USD')).toBe('Bayou Auto Glass');
  });

  it('reads German card lines’ Mastercard Zahlung and Visa-Umsatz before the shop, and the sequence number, card and Umsatz after it', () => {
    expect(nameOf('Mastercard Zahlung Buchladen Seitenwind Jena DE', '-19.00', 'EUR')).toBe('Buchladen Seitenwind');
    expect(nameOf('Visa-Umsatz Blumen Sommer Ulm 2025-04-02', '-22.00', 'EUR')).toBe('Blumen Sommer');
    expect(enrichLine('Kartenzahlung girocard Baeckerei Fuchs Passau 02.04. 08:12 Folgenr. 004 Verfalld. 2812', '-3.40', 'EUR').cleanDescription).toBe('Baeckerei Fuchs');
    expect(enrichLine('Kartenzahlung Weinkontor Lenz 2025-04-02 Trier Karte 2', '-31.00', 'EUR').cleanDescription).toBe('Weinkontor Lenz');
  });

  it('drops a Spanish 4B card’s number after the country', () => {
    expect(nameOf('HELADERIA LA ALPUJARRA GRANADA ES 4B*5521', '-4.50', 'EUR')).toBe('Heladeria la Alpujarra');
  });
});

describe('categories', () => {
  it('reads British MOT tests and Lloyds’s cash machines on pound lines only', () => {
    expect(detailedOf('PARKSIDE GARAGE MOT', '-54.85', 'GBP')).toBe('GENERAL_SERVICES_AUTOMOTIVE');
    expect(both(enrichLine('CPT HALIFAX 02APR25 YORK PICCADILLY', '-20.00', 'GBP'))).toEqual([null, 'TRANSFER_OUT_WITHDRAWAL']);
    expect(detailedOf('LE MOT JUSTE LIBRAIRIE', '-15.00', 'EUR')).not.toBe('GENERAL_SERVICES_AUTOMOTIVE');
  });

  it('reads the trades and payments the probes named', () => {
    const cases: [string, string, string, string][] = [
      ['WAYNE COUNTY FAIR', '-12.00', 'USD', 'ENTERTAINMENT_SPORTING_EVENTS_AMUSEMENT_PARKS_AND_MUSEUMS'],
      ['PELICAN SNOBALLS', '-4.00', 'USD', 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK'],
      ['HARBOR MAIL CENTER', '-12.00', 'USD', 'GENERAL_SERVICES_POSTAGE_AND_SHIPPING'],
      ['LONE STAR WESTERN WEAR', '-89.00', 'USD', 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES'],
      ['LLANTERA EL GUERO', '-40.00', 'USD', 'GENERAL_SERVICES_AUTOMOTIVE'],
      ['BAYOU CAJUN KITCHEN', '-21.00', 'USD', 'FOOD_AND_DRINK_RESTAURANT'],
      ['RIVERSIDE BOXING CLUB', '-30.00', 'GBP', 'PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS'],
      ['SPARKLE WINDOW CLEANING', '-20.00', 'GBP', 'HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE'],
      ['FONTANERIA LOPEZ', '-90.00', 'EUR', 'HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE'],
      ['ACADEMIA DE IDIOMAS OXFORD HOUSE', '-70.00', 'EUR', 'GENERAL_SERVICES_EDUCATION'],
      ['UNPAID DD FEE', '-12.00', 'GBP', 'BANK_FEES_INSUFFICIENT_FUNDS'],
      ['DAVE INC EXTRACASH', '50.00', 'USD', 'TRANSFER_IN_CASH_ADVANCES_AND_LOANS'],
      ['DEPT SOCIAL PROTECTION JB', '220.00', 'EUR', 'INCOME_UNEMPLOYMENT'],
    ];
    for (const [line, amount, currency, detailed] of cases) expect([line, detailedOf(line, amount, currency)]).toEqual([line, detailed]);
  });
});
