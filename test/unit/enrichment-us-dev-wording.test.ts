import { describe, expect, it } from 'vitest';
import { detailedOfLine, enrichLine, nameOfLine as nameOf } from '../support/enrichment.ts';

const us = (description: string, amount = '-12.00') => enrichLine(description, amount, 'USD');
const detailedOf = (description: string, amount?: string) => detailedOfLine(description, amount, 'USD');

/** Patterns of outside-dev-8's misses (US lines; ENRICHMENT_VERSION 12), each on a line written here. */
describe('US card and ACH lines', () => {
  it("an ACH entry's description (DES:, CO ENTRY DESCR:) is what the payment was for, not part of the payer's name", () => {
    expect(nameOf('HOLLOWAY ROOFING DES:ACH ID: INDN:Dana Cole CO ID:XXXXX55120 PPD', '1400.00', 'USD')).toBe('Holloway Roofing');
    expect(nameOf('ORIG CO NAME:BRIGHTLINE DENTAL ORIG ID:1234 DESC DATE:260601 CO ENTRY DESCR:NET PAY SEC:PPD', '2200.00', 'USD')).toBe('Brightline Dental');
    expect(us('ORIG CO NAME:BRIGHTLINE DENTAL ORIG ID:1234 DESC DATE:260601 CO ENTRY DESCR:NET PAY SEC:PPD', '2200.00').cleanDescription).toBe('BRIGHTLINE DENTAL');
  });

  it('a date and PURCHASE after the shop, a town after a dash, a town glued in title case, and a CKE* prefix go', () => {
    expect(nameOf('MAPLE LANE BOOKS 06/02 PURCHASE', '-18.00', 'USD')).toBe('Maple Lane Books');
    expect(nameOf('RIVERBEND BAGELS - WEST FARGO ND         06/03', '-9.00', 'USD')).toBe('Riverbend Bagels');
    expect(nameOf('DEBIT PURCHASE -VISA SQ *COPPER KETTLE CAFEBozeman     MT', '-7.00', 'USD')).toBe('Copper Kettle Cafe');
    expect(nameOf('CKE*SILVER SPOON DINER  BOISE ID          06/12', '-22.00', 'USD')).toBe('Silver Spoon Diner');
    // A reference glued in mixed case after a name stays a reference.
    expect(nameOf('Zelle payment from ROSA LOPEZ BACq7w2e9', '40.00', 'USD')).toBe('Rosa Lopez');
  });

  it('a Zelle payment to a person whose name is also a chain\'s names the person', () => {
    const line = us('ZELLE TO JAMES TARGET ON 06/06 REF # PP8KZ');
    expect([line.merchant?.name, line.category?.detailed]).toEqual(['James Target', 'TRANSFER_OUT_ACCOUNT_TRANSFER']);
    expect(us('Zel To Ana Silva').merchant?.name).toBe('Ana Silva');
  });

  it("bills, fees and interest in US banks' words", () => {
    expect(detailedOf('AUTOMATIC WITHDRAWAL, ELECTRIC BILL WEB(S )', '-88.00')).toBe('RENT_AND_UTILITIES_GAS_AND_ELECTRICITY');
    expect(detailedOf('RETURNED CHECK FEE, CHECK # 1201 FOR $40.00', '-35.00')).toBe('BANK_FEES_INSUFFICIENT_FUNDS');
    expect(detailedOf('ATM TRANSACTION FEE - WITHDRAWAL', '-3.00')).toBe('BANK_FEES_ATM_FEES');
    expect(detailedOf('DIVIDEND EARNED FOR PERIOD OF 06/01/2026 THROUGH 06/30/2026 ANNUAL PERCENTAGE YIELD EARNED IS 0.25%', '1.12')).toBe('INCOME_INTEREST_EARNED');
    expect(detailedOf('MIDLAND COUNTY TAX DES:PROP TAX ID:0098', '-1200.00')).toBe('GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT');
    expect(detailedOf('NYS DTF PIT DES:Tax Paymnt ID:XXXXX INDN:RM CO ID:N3200 PPD', '-500.00')).toBe('GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT');
  });

  it("a merchant whose name is a common word elsewhere is found only on its countries' currencies (Orange, Sky, Target)", () => {
    expect(us('ORANGE CNTY TAX DES:PROP TAX ID:0041', '-900.00').merchant?.name).not.toBe('Orange');
    expect(nameOf('PRLV SEPA ORANGE SA FACTURE 2026-11', '-39.99', 'EUR')).toBe('Orange');
    expect(nameOf('SKY DIGITAL DD', '-45.00', 'GBP')).toBe('Sky');
    expect(nameOf('BIG SKY BREWING CO BOZEMAN MT', '-30.00', 'USD')).not.toBe('Sky');
    expect(nameOf('TARGET 00012345 MINNEAPOLIS MN', '-52.00', 'USD')).toBe('Target');
  });

  it("a word that begins a climbing gym's trade does not make a utility a gym", () => {
    expect(detailedOf('BOULDERUTILITIES EBILL PAY 260618 5520419 ALEX KIM', '-61.00')).not.toBe('PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS');
    expect(detailedOf('MESA RIM BOULDERING GYM', '-20.00')).toBe('PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS');
  });

  it('statement spellings of Fidelity, Progressive, Trader Joe\'s cut short, and the New York tax department', () => {
    expect(nameOf('FID BKG SVC LLC  MONEYLINE                  PPD ID: 1035118842', '-250.00', 'USD')).toBe('Fidelity');
    expect(nameOf('PROG NORTHERN    INS PREM                   PPD ID: 9409348044', '-96.00', 'USD')).toBe('Progressive');
    expect(nameOf('DEBIT CARD PURCHASE  TRADER JOE ', '-41.00', 'USD')).toBe("Trader Joe's");
    expect(nameOf('NYS DTF PIT DES:TAX REFUND ID:0001 INDN:LEE CO ID:1146013200 PPD', '310.00', 'USD')).toBe('New York State Department of Taxation and Finance');
  });

  it("a pho restaurant's number, a web address or a glued store number in a descriptor, an ACH line OFX cut after DES: (ENRICHMENT_VERSION 16)", () => {
    expect(us('TST* PHO 999 - SAN JOSE SAN JOSE CA')).toMatchObject({ merchant: { name: 'Pho 999' }, category: { detailed: 'FOOD_AND_DRINK_RESTAURANT' } });
    expect(nameOf('POS DEBIT PHO 168 GARDEN GROVE CA', '-14.00', 'USD')).toBe('Pho 168');
    // Any other number of three digits after a name is a store's.
    expect(nameOf('POS DEBIT TACO HUT 168 GARDEN GROVE CA', '-14.00', 'USD')).toBe('Taco Hut');
    expect(nameOf('SP * WILLOW LOOM WILLOWLOOM.CO OR', '-48.00', 'USD')).toBe('Willow Loom');
    expect(us('CHECKCARD 0412 MARATHON PETRO2210 TOLEDO OH')).toMatchObject({ merchant: { name: 'Marathon' }, category: { detailed: 'TRANSPORTATION_GAS' } });
    expect(nameOf('CHECKCARD 0412 FRESH THYME MARKET1042 TOLEDO OH', '-30.00', 'USD')).toBe('Fresh Thyme Market');
    expect(nameOf('GREENFIELD ENERGY CO DES:AUTOPAY', '-90.00', 'USD')).toBe('Greenfield Energy Co');
  });

  it('a farm stand sells groceries; Discover, Toyota and GoFundMe by the names their ACH entries and descriptors give', () => {
    expect(detailedOf('SQ *MAPLE HOLLOW FARMSTAND Viroqua WI')).toBe('FOOD_AND_DRINK_GROCERIES');
    expect(us('DISCOVER DES:E-PAYMENT ID:0412 INDN:SAM LEE CO ID:2510020270 WEB', '-250.00')).toMatchObject({ merchant: { name: 'Discover' }, category: { detailed: 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT' } });
    expect(us('ORIG CO NAME:TOYOTA ACH LEASE ORIG ID:9953602001 CO ENTRY DESCR:LEASE PMT SEC:PPD', '-389.00')).toMatchObject({ merchant: { name: 'Toyota Financial Services' }, category: { detailed: 'LOAN_PAYMENTS_CAR_PAYMENT' } });
    expect(detailedOf('GOFNDME* HELP THE HARRIS FAMILY', '-25.00')).toBe('GOVERNMENT_AND_NON_PROFIT_DONATIONS');
  });
});
