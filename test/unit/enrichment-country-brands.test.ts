import { describe, expect, it } from 'vitest';
import { nameAndDetailed as both, enrichLine } from '../support/enrichment.ts';

/** The directory's households' brands of each country a provider reaches (ENRICHMENT_VERSION 14), on lines written here. */
describe('the brands a household pays in each country', () => {
  it('names Belgian, Dutch and Italian chains, utilities and insurers', () => {
    expect(both(enrichLine('AANKOOP BANCONTACT 12/04 - 10.02 UUR - HUBO LOKEREN - LOKEREN - BEL', '-23.80'))).toEqual(['Hubo', 'HOME_IMPROVEMENT_HARDWARE']);
    expect(both(enrichLine('EUROPESE DOMICILIERING PIDPA FACTUUR 260412', '-41.20'))).toEqual(['Pidpa', 'RENT_AND_UTILITIES_WATER']);
    expect(both(enrichLine('BEA, Betaalpas FEBO Leidsestraat,PAS112 NR:AB1234, 12.04.26/23:12 AMSTERDAM', '-4.50'))).toEqual(['FEBO', 'FOOD_AND_DRINK_FAST_FOOD']);
    expect(both(enrichLine('Naam: Vandebron Energie BV Omschrijving: termijnbedrag april 2026', '-96.00'))).toEqual(['Vandebron', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY']);
    expect(both(enrichLine('PAGAMENTO POS 12/04/2026 18.40 CARTA 52***4410 CRAI MODENA', '-17.30'))).toEqual(['Crai', 'FOOD_AND_DRINK_GROCERIES']);
    expect(both(enrichLine('ADDEBITO DIRETTO SDD SORGENIA SPA CID IT12ZZZ0000012345678 BOLLETTA APRILE', '-74.10'))).toEqual(['Sorgenia', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY']);
  });

  it('names Baltic and Nordic chains, utilities and agencies', () => {
    expect(both(enrichLine('Kaardimakse BAUHOF TARTU', '-36.90', 'EUR', { counterpartyName: 'BAUHOF AS' }))).toEqual(['Bauhof', 'HOME_IMPROVEMENT_HARDWARE']);
    expect(both(enrichLine('Arve 2604 tasumine', '-48.20', 'EUR', { counterpartyName: 'Enefit AS' }))).toEqual(['Enefit', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY']);
    expect(both(enrichLine('Mokėjimas kortele TOPO CENTRAS VILNIUS', '-129.00'))).toEqual(['Topo Centras', 'GENERAL_MERCHANDISE_ELECTRONICS']);
    expect(both(enrichLine('PIRKUMS 4111********1111 12.04.2026 MEGO RIGA', '-14.60'))).toEqual(['Mego', 'FOOD_AND_DRINK_GROCERIES']);
    expect(both(enrichLine('Dankort-køb HARALD NYBORG Nota 4471', '-219.00', 'DKK'))).toEqual(['Harald Nyborg', 'HOME_IMPROVEMENT_HARDWARE']);
    // Child benefit comes from the Familienkasse, however much of the Federal Employment Agency's name is before it.
    expect(both(enrichLine('KG 512FK004411 Kindergeld 05/26', '255.00', 'EUR', { counterpartyName: 'Bundesagentur fuer Arbeit - Familienkasse' }))).toEqual(['Familienkasse', 'INCOME_OTHER_INCOME']);
    // The Danish tax agency as the line spells it.
    expect(both(enrichLine('Overførsel fra SKAT', '1420.00', 'DKK'))[0]).toBe('Skat');
    expect(both(enrichLine('Overskydende skat 2025', '1420.00', 'DKK', { counterpartyName: 'Skattestyrelsen' }))[1]).toBe('INCOME_TAX_REFUND');
  });

  it('names British and Irish utilities and shops, and a name that is a word only where the brand trades', () => {
    expect(both(enrichLine('YORKSHIRE WATER 88123456 DDR', '-38.00', 'GBP'))).toEqual(['Yorkshire Water', 'RENT_AND_UTILITIES_WATER']);
    expect(both(enrichLine('CARD PAYMENT TO HOME BARGAINS ON 12-04-2026', '-11.49', 'GBP'))).toEqual(['Home Bargains', 'GENERAL_MERCHANDISE_DISCOUNT_STORES']);
    expect(both(enrichLine('POS12APR HARVEY NORMAN', '-349.00'))).toEqual(['Harvey Norman', 'GENERAL_MERCHANDISE_ELECTRONICS']);
    // Sportland, a Baltic sports shop, is no possessive before Portland on a dollar account.
    expect(both(enrichLine('PURCHASE AUTHORIZED ON 04/12 JAKES S PORTLAND OR S584075591273301 CARD 8812', '-22.00', 'USD'))[0]).not.toBe('Sportland');
  });

  it('names US utilities, lenders and transit agencies the bank spells out', () => {
    expect(both(enrichLine('ACH DEBIT PUGET SOUND ENERGY WEB PMT 260412', '-112.40', 'USD'))).toEqual(['Puget Sound Energy', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY']);
    expect(both(enrichLine('CONED ONLINE PMT DES:BILL PAY ID:XXXXX1204 INDN:RIVERA ANA CO ID:XXXXX39281 WEB', '-88.15', 'USD'))).toEqual(['Con Edison', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY']);
    expect(both(enrichLine('PENNYMAC LOAN SERV DES:MTG PYMT ID:8841207 INDN:KIM JOON CO ID:XXXXX22014 PPD', '-1840.00', 'USD'))).toEqual(['PennyMac', 'LOAN_PAYMENTS_MORTGAGE_PAYMENT']);
    expect(both(enrichLine('CAPMETRO APP 512-389-7400 TX', '-2.50', 'USD'))).toEqual(['Capital Metro', 'TRANSPORTATION_PUBLIC_TRANSIT']);
  });

  it("names the tax office a form or a levy's name stands for, and an investment app after Norway's one-off mandate (ENRICHMENT_VERSION 16)", () => {
    expect(both(enrichLine('PAGAMENTO DELEGA F24 VIA INTERNET BANKING IRPEF SALDO 2025', '-412.00'))).toEqual(['Agenzia delle Entrate', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT']);
    expect(both(enrichLine('PAGAMENTO F24 DELEGA TELEMATICA TASI', '-96.00'))).toEqual(['Agenzia delle Entrate', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT']);
    expect(both(enrichLine('REVENUE LPT DIRECT DEBIT 2026', '-45.00'))).toEqual(['Revenue Commissioners', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT']);
    expect(both(enrichLine('Betaling med engangsfullmakt - Kjøp Kron', '-2000.00', 'NOK'))).toEqual(['Kron', 'TRANSFER_OUT_INVESTMENT_AND_RETIREMENT_FUNDS']);
    // MED is the Norwegian "with" there, no doctor's title: the shop after it is read.
    expect(enrichLine('Betaling med engangsfullmakt - Kjøp Fjellsport', '-900.00', 'NOK').merchant?.name).toBe('Fjellsport');
  });
});
