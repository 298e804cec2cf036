import { describe, expect, it } from 'vitest';
import type { EnrichmentInput, ProviderHints } from '../../src/enrichment/enrichment.ts';
import { enrich } from '../../src/enrichment/pipeline.ts';
import { NO_HINTS } from '../support/enrichment.ts';

const enriched = (description: string, amount: string, currencyCode = 'USD', hints: Partial<ProviderHints> = {}, accountKind: EnrichmentInput['accountKind'] = 'DEPOSITORY') =>
  enrich({ description, amount, currencyCode, accountKind, hints: { ...NO_HINTS, ...hints } });
const merchantOf = (description: string, amount: string, currencyCode?: string, hints?: Partial<ProviderHints>) => enriched(description, amount, currencyCode, hints).merchant;

describe('merchants named from the line', () => {
  it('name a shop the directory does not know after its processor prefix, title-cased, less sure than the directory; never a line that names no one else', () => {
    expect(merchantOf('SQ *HARBOR LIGHT DONUTS', '-6.20')).toEqual({ name: 'Harbor Light Donuts', website: null, logoUrl: null, source: 'DESCRIPTION', confidence: 0.6 });
    expect(merchantOf('TST* GRANITE STATE TAVERN 0412 BOSTON MA', '-48.10')?.name).toBe('Granite State Tavern');
    expect(merchantOf('CARD PAYMENT TO ZETTLE_*THE GREEN MAN ON 02-05-2026', '-14.60', 'GBP')?.name).toBe('The Green Man');
    expect(merchantOf('SUMUP *KAFFEEKLATSCH HANNAH', '-3.90', 'EUR')?.name).toBe('Kaffeeklatsch Hannah');
    expect(merchantOf('D/D WESSEX VALLEY WATER', '-31.00', 'GBP')?.name).toBe('Wessex Valley Water');
    expect(merchantOf('VDP-MULLIGANS HARDWARE', '-19.99', 'EUR')?.name).toBe('Mulligans Hardware');
    expect(merchantOf('POS03JUN KEOGHS CHIPPER', '-11.50', 'EUR')?.name).toBe('Keoghs Chipper');
    expect(merchantOf('STARBUCKS STORE 11254 SEATTLE WA', '-6.45')).toMatchObject({ source: 'DIRECTORY', confidence: 0.9 });
    // …and never the holder's own transfers, fees, interest, cash without an operator, a card bill, or a line that names no one
    expect(merchantOf('ONLINE TRANSFER TO SAV XXXXXX4411', '-300.00')).toBeNull();
    expect(merchantOf('Przelew własny', '500.00', 'PLN')).toBeNull();
    expect(merchantOf('MONTHLY SERVICE FEE', '-12.00')).toBeNull();
    expect(merchantOf('COMMISSIONI TENUTA CONTO', '-4.00', 'EUR')).toBeNull();
    expect(merchantOf('INTEREST PAYMENT', '0.84')).toBeNull();
    expect(merchantOf('ATM WITHDRAWAL 4471 MAIN ST', '-60.00')).toBeNull();
    expect(merchantOf('PAYMENT THANK YOU', '350.00', 'USD', {})).toBeNull();
    expect(enriched('AUTOPAY PAYMENT RECEIVED', '350.00', 'USD', {}, 'CREDIT').merchant).toBeNull();
    expect(merchantOf('CHECK # 2210', '-400.00')).toBeNull();
    expect(merchantOf('VIR SEPA 000123 / 04.2026', '-25.00', 'EUR')).toBeNull();
  });

  it('keep short capital initialisms, apostrophes and mixed case as written; lower-case particles inside a name', () => {
    expect(merchantOf("SQ *DAVE'S BIKE BARN", '-45.00')?.name).toBe("Dave's Bike Barn");
    expect(merchantOf('SQ *JRS PLUMBING SUPPLY', '-80.00')?.name).toBe('JRS Plumbing Supply');
    expect(merchantOf("POS O'REILLYS BAKEHOUSE", '-7.00', 'EUR')?.name).toBe("O'Reillys Bakehouse");
    expect(merchantOf('COMPRA 4321 CASA DE LA PAELLA', '-36.00', 'EUR')?.name).toBe('Casa de la Paella');
    expect(merchantOf('Kartenzahlung Eiscafe Venezia', '-5.40', 'EUR')?.name).toBe('Eiscafe Venezia');
  });

  it('name the person a payment between people names, not the app', () => {
    expect(merchantOf('Zelle payment to HANNAH OKAFOR', '-40.00')).toMatchObject({ name: 'Hannah Okafor', source: 'DESCRIPTION' });
    expect(merchantOf('MobilePay fra Søren Holm', '120.00', 'DKK')?.name).toBe('Søren Holm');
    expect(merchantOf('VENMO CASHOUT', '120.00')?.name).toBe('Venmo');
  });

  it("keep a landlord's initial after a title, and read a Polish rent's landlord past its flat, street and month", () => {
    expect(merchantOf('MR K OWUSU RENT MAY 400012 10 01MAY25 08:15', '-700.00', 'GBP')?.name).toBe('K Owusu');
    expect(merchantOf('PRZELEW WYCHODZĄCY CZYNSZ MAJ M. 4 EWA KOWALCZYK', '-1800.00', 'PLN')?.name).toBe('Ewa Kowalczyk');
    expect(merchantOf('Zlecenie stałe CZYNSZ MIESZKANIE UL. LIPOWA 3/7 dla Marek Zając', '-1800.00', 'PLN')?.name).toBe('Marek Zając');
    // JAN on a Polish line is a name (Polish months are written in Polish); on a pound account it is January.
    expect(merchantOf('Przelew wychodzący CZYNSZ CZERWIEC JAN KOWALSKI', '-1800.00', 'PLN')?.name).toBe('Jan Kowalski');
    expect(merchantOf('ACME LOGISTICS SALARY JAN 2026', '2100.00', 'GBP')?.name).toBe('Acme Logistics');
  });
});

describe('payers named', () => {
  it('name the employer or the agency the line names for wages, pensions, tax refunds and benefits', () => {
    expect(enriched('NORTHWIND TRADERS LLC PAYROLL', '2875.00')).toMatchObject({ merchant: { name: 'Northwind Traders' }, category: { detailed: 'INCOME_WAGES' } });
    expect(enriched('CONTOSO CORP DIRECT DEP', '3010.22')).toMatchObject({ merchant: { name: 'Contoso Corp' }, category: { detailed: 'INCOME_WAGES' } });
    expect(enriched('IRS TREAS 449 TAX REF', '812.00')).toMatchObject({ merchant: { name: 'IRS' }, category: { detailed: 'INCOME_TAX_REFUND' } });
    expect(enriched('BGC HMRC NDDS REPAYMENT', '214.00', 'GBP')).toMatchObject({ merchant: { name: 'HMRC' }, category: { primary: 'INCOME' } });
    expect(enriched('DEUTSCHE RENTENVERSICHERUNG RENTE 05/26', '1412.30', 'EUR')).toMatchObject({ merchant: { name: 'Deutsche Rentenversicherung' }, category: { detailed: 'INCOME_RETIREMENT_PENSION' } });
    expect(enriched('SKATTEVERKET SKATTEATERBETALNING 2025', '3980.00', 'SEK')).toMatchObject({ merchant: { name: 'Skatteverket' }, category: { detailed: 'INCOME_TAX_REFUND' } });
    expect(enriched('ACCREDITO STIPENDIO FABBRICA NORD SRL MAGGIO', '1890.00', 'EUR')).toMatchObject({ merchant: { name: 'Fabbrica Nord' }, category: { detailed: 'INCOME_WAGES' } });
    // The month a salary is for is no part of the payer's name, in any language read: one name every month.
    expect(merchantOf('VIR SEPA SALAIRE JUILLET ATELIERS DU LAC SAS', '2210.00', 'EUR')?.name).toBe('Ateliers du Lac');
    expect(merchantOf('PALKKA HEINAKUU RAKENNUS KIVI OY', '2650.00', 'EUR')?.name).toBe('Rakennus Kivi');
  });

  it('read a payer from the counterparty the bank reports, leaving a payment facilitator’s name out', () => {
    expect(merchantOf('Gehalt Mai 2026', '2480.00', 'EUR', { counterpartyName: 'Nordwind Logistik GmbH & Co. KG' })).toMatchObject({ name: 'Nordwind Logistik', confidence: 0.7 });
    expect(merchantOf('Alga par 05.2026', '1550.00', 'EUR', { counterpartyName: 'SIA BALTIC TIMBER' })?.name).toBe('Baltic Timber');
    expect(merchantOf('1040293 PP.7781.PP . Ihr Einkauf bei KLEIDERKAMMER SE', '-39.00', 'EUR', { counterpartyName: 'PayPal Europe S.a.r.l. et Cie S.C.A' })?.name).toBe('Kleiderkammer');
  });
});
