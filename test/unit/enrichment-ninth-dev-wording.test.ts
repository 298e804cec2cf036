import { describe, expect, it } from 'vitest';
import { detailedOfLine as detailedOf, enrichLine, nameOfLine as nameOf } from '../support/enrichment.ts';

/** Patterns of outside-dev-9's misses (ENRICHMENT_VERSION 12), each on a line written here. */
describe("banks' wordings the earlier sets had not drawn on", () => {
  it("Italian transfers and Fineco's card lines, a Belgian debit card in French, DNB's rate, Vipps's star, an Estonian card", () => {
    expect(nameOf('Bonifico SEPA Italia da CARPENTERIA LOMBARDI SRL per STIPENDIO APRILE 2026', '1800.00')).toBe('Carpenteria Lombardi');
    expect(nameOf('Bonifico SEPA Italia a favore di FERRARI PAOLA per AFFITTO MAGGIO 2026', '-650.00')).toBe('Paola Ferrari');
    expect(nameOf('Pagamento Visa Debit OSTERIA DEL PONTE     VERONA        ITCarta N. *****311Data operazione 02/11/2026', '-41.00')).toBe('Osteria del Ponte');
    expect(nameOf('Paiement par carte de débit le 02/11/2026 à 09:14 BOULANGERIE DUMONT NAMUR Carte 6703 XXXX XXXX 5521', '-6.20')).toBe('Boulangerie Dumont');
    expect(nameOf('*5521 02.11 NOK 380.00 VIPPS*BAKERI SOLVANG Kurs: 1.0000', '-380.00', 'NOK')).toBe('Bakeri Solvang');
    expect(nameOf('Kaart ...5521 KOHVIK MUST KASS TALLINN 02.11.2026', '-4.50')).toBe('Kohvik Must Kass');
  });

  it("comdirect's recipient field, PayPal's purchase at a shop, Swish's surname first", () => {
    expect(nameOf('Empfänger: Jonas Keller Kto/IBAN: DE44500105175407324931 BLZ/BIC: INGDDEFFXXX Buchungstext: Miete November Ref. 8K2Q', '-720.00')).toBe('Jonas Keller');
    expect(nameOf('Auftraggeber: PayPal Europe S.a.r.l. et Cie S.C.A Buchungstext: 1039284756102 PP.4471.PP . TEEHAUS BERGMANN, Ihr Einkauf bei TEEHAUS BERGMANN Ref. 7Q2C', '-19.90')).toBe('Teehaus Bergmann');
    expect(nameOf('Swish betalning NYSTRÖM, KARIN', '-150.00', 'SEK')).toBe('Karin Nyström');
  });

  it("Navy Federal's ACH words, OFX's payroll cut short, a tax refund's code", () => {
    const pay = enrichLine('Deposit - ACH Paid From Tidewater Logistics Payroll 02Bd44', '1650.00', 'USD');
    expect([pay.merchant?.name, pay.category?.detailed]).toEqual(['Tidewater Logistics', 'INCOME_WAGES']);
    expect(nameOf('Paid To - Harbor View Apartments Rent', '-1400.00', 'USD')).toBe('Harbor View Apartments');
    const ofx = enrichLine('ACH DEP PECOS CONCRETE PAYROL', '1320.00', 'USD');
    expect([ofx.merchant?.name, ofx.category?.detailed]).toEqual(['Pecos Concrete', 'INCOME_WAGES']);
    expect(nameOf('ACH Credit MN DEPT REVENUE TAXRFD 110526', '210.00', 'USD')).toBe('Minnesota Department of Revenue');
  });

  it('savings and fees in Estonian and Lithuanian words', () => {
    expect(detailedOf('Ülekanne säästukontole', '-100.00')).toBe('TRANSFER_OUT_SAVINGS');
    const fee = enrichLine('Mėnesinis paslaugų plano mokestis', '-2.50');
    expect([fee.merchant, fee.category?.detailed]).toEqual([null, 'BANK_FEES_OTHER_BANK_FEES']);
  });
});
