import { describe, expect, it } from 'vitest';
import { nameAndDetailed as both, detailedOfLine as detailedOf, enrichLine, nameOfLine as nameOf } from '../support/enrichment.ts';

/**
 * Wordings version 16 reads that a probe written from knowledge of the banks found missing (not from any
 * evaluation file: docs/decisions/enrichment-evaluation.md), each on a line written here.
 */
describe("banks' own wordings of interest, fees, loans and tax", () => {
  it('reads interest written as one word in the Nordic languages, and Lithuanian interest', () => {
    expect(both(enrichLine('Sparränta 2025', '41.10', 'SEK'))).toEqual([null, 'INCOME_INTEREST_EARNED']);
    expect(both(enrichLine('Indlånsrente 4. kvartal', '12.75', 'DKK'))).toEqual([null, 'INCOME_INTEREST_EARNED']);
    expect(both(enrichLine('Innskuddsrente 2025', '88.00', 'NOK'))).toEqual([null, 'INCOME_INTEREST_EARNED']);
    expect(both(enrichLine('TALLETUSKORKO 31.12.2025', '6.40'))).toEqual([null, 'INCOME_INTEREST_EARNED']);
    expect(both(enrichLine('Palūkanos už indėlį', '2.15'))).toEqual([null, 'INCOME_INTEREST_EARNED']);
  });

  it("reads a card's fee, a Lithuanian plan's fee, a Polish mortgage instalment and tax paid to the micro-account", () => {
    expect(both(enrichLine('AVGIFT BANKKORT JANUARI', '-25.00', 'SEK'))).toEqual([null, 'BANK_FEES_OTHER_BANK_FEES']);
    expect(both(enrichLine('Mokestis už paslaugų planą 2026-03', '-3.50'))).toEqual([null, 'BANK_FEES_OTHER_BANK_FEES']);
    expect(both(enrichLine('SPŁATA RATY KREDYTU HIPOTECZNEGO NR 12/2026', '-2350.00', 'PLN'))).toEqual([null, 'LOAN_PAYMENTS_MORTGAGE_PAYMENT']);
    expect(both(enrichLine('PRZELEW PODATKOWY MIKRORACHUNEK PIT-28 2025', '-640.00', 'PLN'))).toEqual([null, 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT']);
  });
});

describe('payers, payees and shops the probe found', () => {
  it("reads Irish standing orders, credits and a cash machine's glued day", () => {
    expect(nameOf('S/O NIAMH BRENNAN RENT APRIL', '-850.00')).toBe('Niamh Brennan');
    expect(both(enrichLine('SEPA CRT CIARA WALSH REF BILLS SHARE', '120.00'))).toEqual(['Ciara Walsh', 'TRANSFER_IN_ACCOUNT_TRANSFER']);
    expect(both(enrichLine('ATM03APR GRAFTON STREET', '-60.00'))).toEqual([null, 'TRANSFER_OUT_WITHDRAWAL']);
  });

  it('keeps an initial on an English-speaking line, reads Swish surname first, and a person paying in with no transfer word', () => {
    expect(nameOf('STANDING ORDER TO M OKONKWO REF RENT APRIL', '-700.00', 'GBP')).toBe('M Okonkwo');
    expect(nameOf('Swish LINDGREN, ANNA', '-150.00', 'SEK')).toBe('Anna Lindgren');
    expect(both(enrichLine('MAARJA KASK tagasimakse piletid', '30.00'))).toEqual(['Maarja Kask', 'TRANSFER_IN_ACCOUNT_TRANSFER']);
    expect(both(enrichLine('Mantas Kazlauskas skola', '40.00'))).toEqual(['Mantas Kazlauskas', 'TRANSFER_IN_ACCOUNT_TRANSFER']);
  });

  it("keeps a housing co-operative's district and an Estonian apartment association's number", () => {
    expect(nameOf('Czynsz za maj Spółdzielnia Mieszkaniowa Bemowo', '-640.00', 'PLN')).toBe('Spółdzielnia Mieszkaniowa Bemowo');
    expect(both(enrichLine('KÜ Tähe 7 kommunaalmaksed aprill', '-135.00'))).toEqual(['KÜ Tähe 7', 'RENT_AND_UTILITIES_OTHER_UTILITIES']);
  });

  it("names a Baltic company's brand after its leading legal form, a supermarket's fuel, Iki's operator and If's Finnish insurer", () => {
    expect(both(enrichLine('SIA TET rēķins nr 40412', '-22.00'))).toEqual(['Tet', 'RENT_AND_UTILITIES_INTERNET_AND_CABLE']);
    expect(both(enrichLine('CARD PAYMENT TO SAINSBURYS PFS 0412 ON 03 APR', '-58.00', 'GBP'))).toEqual(["Sainsbury's", 'TRANSPORTATION_GAS']);
    expect(both(enrichLine('Mokėjimas kortele 03.04 UAB PALINK IKI 412, VILNIUS', '-18.40'))).toEqual(['Iki', 'FOOD_AND_DRINK_GROCERIES']);
    expect(both(enrichLine('E-LASKU IF VAHINKOVAKUUTUS OYJ KOTIVAKUUTUS', '-38.00'))).toEqual(['If', 'GENERAL_SERVICES_INSURANCE']);
  });

  it("reads a British inn as a pub, a chain's inn as its hotel", () => {
    expect(detailedOf('THE RED LION INN KESWICK', '-32.00', 'GBP')).toBe('FOOD_AND_DRINK_RESTAURANT');
    expect(detailedOf('CARD PAYMENT TO PREMIER INN ON 03-04-2026', '-89.00', 'GBP')).toBe('TRAVEL_LODGING');
    expect(detailedOf('MOUNTAIN VIEW INN GATLINBURG TN', '-140.00', 'USD')).toBe('TRAVEL_LODGING');
  });
});
