import { describe, expect, it } from 'vitest';
import { nameAndDetailed as both, detailedOfLine as detailedOf, enrichLine, nameOfLine as nameOf } from '../support/enrichment.ts';

/**
 * What version 25 reads that two probes written after version 24 (the US big banks' ACH and card wordings; Swedish,
 * Danish, Baltic and Polish lines) showed missing, each on a line written here, none taken from a probe or an evaluation
 * file (docs/decisions/enrichment-evaluation.md).
 */
describe('US wordings', () => {
  it('names the person of a Chase QuickPay payment, sent or received', () => {
    expect(nameOf('Payment Sent 04/02 Chase QuickPay Electronic Transfer 24157788123 To Dana Price', '-80.00', 'USD')).toBe('Dana Price');
    expect(nameOf('Payment Received 04/02 Chase QuickPay Electronic Transfer 24157788123 From Omar Haddad', '80.00', 'USD')).toBe('Omar Haddad');
  });

  it('reads TAX before a preparer’s SVC or a county’s OFFICE as the name’s, and the trade it names', () => {
    expect(both(enrichLine('SQ *MESA VERDE TAX SVC Pueblo CO', '-150.00', 'USD'))).toEqual(['Mesa Verde Tax Service', 'GENERAL_SERVICES_ACCOUNTING_AND_FINANCIAL_PLANNING']);
    expect(nameOf('JOHNSTON COUNTY TAX OFFICE SMITHFIELD NC', '-300.00', 'USD')).toBe('Johnston County Tax Office');
  });

  it('reads a foreign exchange adjustment fee and a tax payment written PAYMT', () => {
    expect(both(enrichLine('Foreign Exch Rt ADJ Fee 04/01', '-0.95', 'USD'))).toEqual([null, 'BANK_FEES_FOREIGN_TRANSACTION_FEES']);
    expect(detailedOf('ACH CORP DEBIT SC DEPT REVENUE TAX PAYMT 0000123', '-200.00', 'USD')).toBe('GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT');
  });
});

describe('Nordic, Baltic and Polish wordings', () => {
  it('drops Paysera’s and Przelewy24’s names before the shop, and passes over PayPro in the bank’s field', () => {
    expect(nameOf('Paysera *PILATES STUDIJA KODOLS abonementas', '-45.00', 'EUR', { counterpartyName: 'Paysera LT, UAB' })).toBe('Pilates Studija Kodols');
    expect(nameOf('Przelewy24 P24-Q77-R88-S99 Antykwariat Pod Lipami zam. 4471', '-60.00', 'PLN', { counterpartyName: 'PayPro S.A.' })).toBe('Antykwariat Pod Lipami');
  });

  it('reads Pekao’s card wording before the shop', () => {
    expect(nameOf('ZAKUP - FIZ. UŻYCIE KARTY 02.04 PRACOWNIA CERAMIKI GLINKA KRAKOW', '-85.00', 'PLN')).toBe('Pracownia Ceramiki Glinka');
  });

  it('reads the trades the probe named', () => {
    const cases: [string, string, string][] = [
      ['JOGOS STUDIJA SAULE', 'EUR', 'PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS'],
      ['MALMO SIMSALLSKAP', 'SEK', 'PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS'],
      ['Rideklubben Skovly', 'DKK', 'PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS'],
      ['LINDS JARN & FARG', 'SEK', 'HOME_IMPROVEMENT_HARDWARE'],
      ['RANNA SAUNAMAJA', 'EUR', 'PERSONAL_CARE_OTHER_PERSONAL_CARE'],
      ['UKININKO SURIAI', 'EUR', 'FOOD_AND_DRINK_GROCERIES'],
    ];
    for (const [line, currency, detailed] of cases) expect([line, detailedOf(line, '-30.00', currency)]).toEqual([line, detailed]);
  });
});
