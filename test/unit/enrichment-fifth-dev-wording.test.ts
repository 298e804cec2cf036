import { describe, expect, it } from 'vitest';
import type { Enrichment, ProviderHints } from '../../src/enrichment/enrichment.ts';
import { enrich } from '../../src/enrichment/pipeline.ts';

const NO_HINTS: ProviderHints = { merchantName: null, counterpartyName: null, website: null, logoUrl: null, category: null, mcc: null, paymentChannel: null };
const of = (description: string, amount: string, currencyCode = 'EUR', counterpartyName: string | null = null): Enrichment =>
  enrich({ description, amount, currencyCode, accountKind: 'DEPOSITORY', hints: { ...NO_HINTS, counterpartyName } });
const nameOf = (description: string, amount: string, currencyCode = 'EUR', counterpartyName: string | null = null) => of(description, amount, currencyCode, counterpartyName).merchant?.name ?? null;

/** Bank wording seen in public importers' fixtures and parsers (eval/enrichment/outside-dev-5.jsonl), each pattern on a line written here. */
describe('names read through the wording of a fifth development set', () => {
  it("a US credit union's descriptor before its spaced-colon entry type, its terminal code and the year after the state", () => {
    expect(nameOf('D4410 SQ *MAPLE STREET BAGELS MODESTO CA 26 : Mobile Purchase Sign Based 04/02 07:41a #5521', '-8.20', 'USD')).toBe('Maple Street Bagels');
    expect(nameOf('OAK BARREL TAPHOUSE MODESTO CA 26092 : Debit Card Purchase 04/01 09:12p #5521', '-31.00', 'USD')).toBe('Oak Barrel Taphouse');
    expect(nameOf('PRIYA SHAH : Zelle Debit PAY ID:CTI00aa11bb ORG ID:BAC', '-20.00', 'USD')).toBe('Priya Shah');
    // The channel's word (Mobile Purchase) is no telephone bill.
    expect(of('D4410 HILLTOP HARDWARE TURLOCK CA 26 : Mobile Purchase Sign Based 04/03 02:10p #5521', '-12.40', 'USD').category?.detailed).toBe('HOME_IMPROVEMENT_HARDWARE');
  });

  it("a state glued to the country and a code (CAUS07162), and a trade's word before a short store number and the town", () => {
    expect(nameOf('GREEN LEAF MARKET FRESNO CAUS07171 : Debit PIN Purchase', '-22.00', 'USD')).toBe('Green Leaf Market');
    expect(nameOf('EL TORO TAQUERIA 4 MERCED CA', '-15.00', 'USD')).toBe('El Toro Taqueria');
  });

  it("a credit union's Withdrawal @ a shop is a purchase there; at an ATM it is cash", () => {
    expect(of('Withdrawal @ PRAIRIE SUN GROCERY 2210 AMES IA', '-40.00', 'USD')).toMatchObject({ merchant: { name: 'Prairie Sun Grocery' }, category: { detailed: 'FOOD_AND_DRINK_GROCERIES' } });
    expect(of('Withdrawal @ ATM 400 MAIN ST AMES IA', '-60.00', 'USD')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_OUT_WITHDRAWAL' } });
  });

  it('a short word and its number are one name; an ampersand between words stays', () => {
    expect(nameOf('SQ *PHO 68 STOCKTON CA', '-16.00', 'USD')).toBe('Pho 68');
    expect(nameOf('CARD PAYMENT TO THE FOX & HOUNDS ON 12-04-2026', '-22.50', 'GBP')).toBe('The Fox & Hounds');
  });

  it("BAWAG's barred fields: the counterparty in the last, after the terminal or the other bank's BIC and IBAN, before its town or purpose", () => {
    expect(nameOf('Bezahlung Karte MC/000007711|POS 4410  K001 02.04. 12:05|GASTHOF ZUM LAMM\\\\VILLACH\\9500', '-41.00')).toBe('Gasthof zum Lamm');
    expect(nameOf('Gutschrift Überweisung OG/000002211|RZOOAT2L AT483200000012345678 Tischlerei Gruber GmbH Gehalt 04/2026', '2300.00')).toBe('Tischlerei Gruber');
    expect(nameOf('Abbuchung Onlinebanking BG/000004412|BAWAATWWXXX AT301400002116059700 Mag. Lena Moser Miete Mai', '-700.00')).toBe('Lena Moser');
  });

  it("a person's surname that is also a town stays on a transfer between people", () => {
    expect(nameOf('MobilePay Freja Aalborg', '-120.00', 'DKK')).toBe('Freja Aalborg');
    expect(nameOf('Swish inbetalning JOHAN MALMO', '300.00', 'SEK')).toBe('Johan Malmo');
  });
});
