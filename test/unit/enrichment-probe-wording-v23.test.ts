import { describe, expect, it } from 'vitest';
import { detailedOfLine as detailedOf, enrichLine, nameOfLine as nameOf } from '../support/enrichment.ts';

/**
 * What version 23 reads that two probes written after version 22 (US OFX and Plaid names; Dutch, Finnish, Italian and
 * Norwegian lines) showed missing, each on a line written here, none taken from a probe or an evaluation file
 * (docs/decisions/enrichment-evaluation.md).
 */
describe('towns in their short form', () => {
  it('reads FT, MT and ST for Fort, Mount and Saint in a US town, with its state or without it', () => {
    expect(nameOf('LUIGIS TRATTORIA ST CHARLES MO', '-40.00', 'USD')).toBe('Luigis Trattoria');
    expect(nameOf('RED RIVER SMOKEHOUSE FT WORTH', '-40.00', 'USD')).toBe('Red River Smokehouse');
    expect(nameOf('HARBOR VIEW BAGELS MT PLEASANT SC', '-12.00', 'USD')).toBe('Harbor View Bagels');
  });

  it('reads a French town’s Saint written ST, and keeps a saint in a name that ends no line with a town', () => {
    expect(nameOf('BOULANGERIE LEROY ST DENIS', '-6.00', 'EUR')).toBe('Boulangerie Leroy');
    expect(nameOf('PARISH OF ST JOSEPH', '-20.00', 'USD')).toBe('Parish of St Joseph');
  });
});

describe('European wordings', () => {
  it('drops a Finnish card’s word and number after the town', () => {
    expect(enrichLine('Korttiosto 02.04. Leipomo Vehnäpelto Oulu Kortti 5312 **** 8841', '-7.20', 'EUR').cleanDescription).toBe('Leipomo Vehnäpelto');
  });

  it('drops a Norwegian amount written with a space between its thousands before the shop', () => {
    expect(nameOf('Visa 220411 Nok 2 150,00 Fjordsyn Tannlegesenter Bodø Kurs: 1,0000', '-2150.00', 'NOK')).toBe('Fjordsyn Tannlegesenter');
  });

  it('drops Nexi’s prefix and an Italian card’s circuit word after its number', () => {
    expect(nameOf('Pag. del 02/04/25 ora 13:10 presso: NEXI*TRATTORIA DA MIMMO Bari ITA Carta N° *****2210 Nazionale', '-26.00', 'EUR')).toBe('Trattoria da Mimmo');
    expect(nameOf('MUSEO CIVICO NAZIONALE', '-10.00', 'EUR')).toBe('Museo Civico Nazionale');
  });

  it('keeps a word ending in a letter beyond ASCII whole before a number (kevät 2025 is no store T 2025)', () => {
    expect(enrichLine('E-LASKU Lukukausimaksu kevät 2025 viite 8800 1234', '-120.00', 'EUR').cleanDescription).toBe('Lukukausimaksu kevät viite');
  });

  it('reads Italy’s SSD A RL and APS as legal forms', () => {
    expect(nameOf('ADDEBITO SDD CORE Scad. 10/04/2025 Imp. 55,00 Creditor id. IT00ZZZ0000012345670011 PISCINA AZZURRA SSD A RL Id Mandato 0001', '-55.00', 'EUR')).toBe('Piscina Azzurra');
    expect(nameOf('ADDEBITO SDD CORE Scad. 10/04/2025 Imp. 30,00 Creditor id. IT00ZZZ0000076543210022 CORO POLIFONICO CITTADINO APS Id Mandato 0002', '-30.00', 'EUR')).toBe('Coro Polifonico Cittadino');
  });
});

describe('trades’ words', () => {
  it('reads the trades the probes named, in English, Dutch, Finnish, Italian and Norwegian', () => {
    const cases: [string, string, string][] = [
      ['HILLSIDE THRIFT', 'USD', 'GENERAL_MERCHANDISE_DISCOUNT_STORES'],
      ['LEE TAEKWONDO ACADEMY', 'USD', 'PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS'],
      ['BRIGHT BEGINNINGS EARLY LEARNING', 'USD', 'GENERAL_SERVICES_CHILDCARE'],
      ['VALLEY AUTO GLASS', 'USD', 'GENERAL_SERVICES_AUTOMOTIVE'],
      ['COMFORT PRO HEATING AND COOLING', 'USD', 'HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE'],
      ['LA ESQUINA TAMALES', 'USD', 'FOOD_AND_DRINK_RESTAURANT'],
      ['PRAIRIE FARM AND HOME', 'USD', 'HOME_IMPROVEMENT_HARDWARE'],
      ['Tweewielers De Vries', 'EUR', 'GENERAL_MERCHANDISE_SPORTING_GOODS'],
      ['Bloemsierkunst Het Boeket', 'EUR', 'GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES'],
      ['Klusbedrijf De Groot', 'EUR', 'HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE'],
      ['LAVASECCO ARCOBALENO', 'EUR', 'PERSONAL_CARE_LAUNDRY_AND_DRY_CLEANING'],
      ['STUDIO COMMERCIALE BIANCHI', 'EUR', 'GENERAL_SERVICES_ACCOUNTING_AND_FINANCIAL_PLANNING'],
      ['Musikkskolen Tonika', 'NOK', 'GENERAL_SERVICES_EDUCATION'],
      ['STRANDKIOSKEN', 'NOK', 'GENERAL_MERCHANDISE_CONVENIENCE_STORES'],
      ['Fjellbakeriet', 'NOK', 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK'],
      ['Hytteutleie Solstad', 'NOK', 'TRAVEL_LODGING'],
    ];
    for (const [line, currency, detailed] of cases) expect([line, detailedOf(line, '-45.00', currency)]).toEqual([line, detailed]);
  });

  it('keeps the federal Thrift Savings Plan no thrift shop', () => {
    expect(detailedOf('TSP THRIFT SAVINGS PLAN CONTRIB', '-200.00', 'USD')).not.toBe('GENERAL_MERCHANDISE_DISCOUNT_STORES');
  });

  it('reads a Norwegian credit’s interest and a Finnish card’s fee outside the EU', () => {
    expect(detailedOf('Renter kreditt periode 01.04-30.04', '-98.10', 'NOK')).toBe('BANK_FEES_INTEREST_CHARGE');
    expect(detailedOf('Palvelumaksu korttiosto EU-alueen ulkopuolella', '-1.10', 'EUR')).toBe('BANK_FEES_FOREIGN_TRANSACTION_FEES');
  });
});
