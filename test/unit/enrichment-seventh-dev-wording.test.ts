import { describe, expect, it } from 'vitest';
import { detailedOfLine as detailedOf, enrichLine, nameOfLine as nameOf } from '../support/enrichment.ts';

/** Patterns of outside-dev-7's misses (ENRICHMENT_VERSION 12), each on a line written here. */
describe('what a bank prints around the name', () => {
  it("DKB's card line: the masked card after the shop and the town before KAUFUMSATZ go, towns spelled without umlauts too", () => {
    expect(nameOf('VISA SUMUP *FEINKOST WAGNER NR XXXX 1188 DUESSELDORF KAUFUMSATZ 11.11 101522 ARN74512093000000000001', '-14.90')).toBe('Feinkost Wagner');
  });

  it("an exchange rate (1 EURO = 1,000000) and a reference with six digits in a row, whatever is glued to it, go", () => {
    expect(nameOf('071126 CB****4410 ZTL*LIBRAIRIE MOLLAT FR BORDEAUX 18,00EUR 1 EURO = 1,000000', '-18.00')).toBe('Librairie Mollat');
    expect(nameOf('VIR INST Chloé ROUSSEAU BIPT882211009988776_C Virement de Chloé ROUSSEAU', '40.00')).toMatch(/^Chloé ROUSSEAU$/i);
  });

  it("a French card line's department number and town after the shop go, glued to it or not, and a payroll's NET PAY", () => {
    expect(nameOf("121126 CB****4410 LE PETIT FOURNIL17ROCHEFORT", '-4.80')).toBe('Le Petit Fournil');
    expect(nameOf('121126 CB****4410 CAVE DU PORT    33ARCACHON', '-22.00')).toBe('Cave du Port');
    expect(nameOf('ORIG CO NAME:RIPPLING ORIG ID:9138864001 DESC DATE:111526 CO ENTRY DESCR:NET PAY SEC:PPD', '1500.00', 'USD')).toBe('Rippling');
  });

  it('quotation marks around a company\'s name go (SIA "…", UAB „…“)', () => {
    expect(nameOf('PIRKUMS 5169430000001234 2026.11.07 2.90 EUR (481120) SIA "MAIZES KLĒTS" VALMIERA', '-2.90')).toBe('Maizes Klēts');
    expect(nameOf('PIRKINYS 5169430000005678 2026.11.11 6.2 EUR (288622) UAB „Skanių kavos namai“ Vilnius', '-6.20')).toBe('Skanių kavos namai');
  });

  it("Plaid's ACH entry glued to its payer, Belgian deposits and mobile transfers, BancoPosta's Postamat, MB WAY written together", () => {
    expect(nameOf('ACH Electronic CreditACME STAFFING PAY 510203', '980.00', 'USD')).toBe('Acme Staffing');
    expect(nameOf('STORTING VAN BE12 3456 7890 1234 BOUWBEDRIJF CLAES BV LOON NOVEMBER', '2450.00')).toBe('Bouwbedrijf Claes');
    expect(nameOf('OVERSCHRIJVING VIA MOBILE BANKING NAAR BE43 0689 0123 4501 JOKE PEETERS MEDEDELING : cadeau', '-25.00')).toBe('Joke Peeters');
    expect(nameOf('PAGAMENTO POSTAMAT 09/11/2026 10.02 CARTA 5511 TABACCHERIA DEL CORSO TORINO', '-6.50')).toBe('Tabaccheria del Corso');
    expect(nameOf('MBWAY TRF P/ RITA SOUSA', '-15.00')).toBe('Rita Sousa');
    expect(nameOf('BETALING MET DEBETKAART NUMMER 4871 04XX XXXX 1234 BANCONTACT PAYCONIQ CO SLAGERIJ VERSTRAETE GENT 09/11/2026', '-21.00')).toBe('Slagerij Verstraete');
  });

  it("Austria's withheld capital gains tax (KESt) names no one", () => {
    const tax = enrichLine('Einbehaltene KESt BG/000000512', '-12.40');
    expect([tax.merchant, tax.category?.detailed]).toEqual([null, 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT']);
  });
});

describe('categories named on the line', () => {
  it('cash, wages, a tax refund, unemployment, a credit card bill and an ATM fee rebate in their banks\' words', () => {
    expect(detailedOf('CASH WDL 12NOV DAME ST', '-60.00')).toBe('TRANSFER_OUT_WITHDRAWAL');
    expect(detailedOf('OCONNOR ELECTRICAL SAL', '2100.00')).toBe('INCOME_WAGES');
    expect(detailedOf('ORIG CO NAME:IL DEPT OF REV ORIG ID:1366000000 CO ENTRY DESCR:Tax Refnd SEC:PPD', '312.00', 'USD')).toBe('INCOME_TAX_REFUND');
    expect(detailedOf('KELA TYÖTTÖMYYSETUUS 10/2026', '780.00')).toBe('INCOME_UNEMPLOYMENT');
    expect(detailedOf('Krediitkaardi leping 2021110207/põhiosa', '-150.00')).toBe('LOAN_PAYMENTS_CREDIT_CARD_PAYMENT');
    const rebate = enrichLine('ATM FEE REBATE', '3.50', 'USD');
    expect([rebate.merchant, rebate.category?.detailed]).toEqual([null, 'BANK_FEES_ATM_FEES']);
  });

  it("trades in their languages: an Italian tobacconist, Latvian and Lithuanian coffee, an American florist's FLORALS", () => {
    expect(detailedOf('PAGAMENTO POS 09/11 TABACCHERIA ROSSI MILANO', '-5.00')).toBe('GENERAL_MERCHANDISE_TOBACCO_AND_VAPE');
    expect(detailedOf('PIRKUMS 5169430000001234 2026.11.07 3.10 EUR (481120) SIA "KAFIJAS STUDIJA" RIGA', '-3.10')).toBe('FOOD_AND_DRINK_COFFEE');
    expect(detailedOf('SQ *WILD IRIS FLORALS Bend OR', '-45.00', 'USD')).toBe('GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES');
  });

  it('large landlords and the Apple Card under their statement spellings', () => {
    expect(detailedOf('BG 5432-1098 HEIMSTADEN AB OCR 99887766554', '-9800.00', 'SEK')).toBe('RENT_AND_UTILITIES_RENT');
    expect(enrichLine('APPLECARD GSBANK DES:PAYMENT ID:1122334 INDN:ALEX KIM CO ID:9999999999 WEB', '-250.00', 'USD').merchant?.name).toBe('Apple Card');
  });
});
