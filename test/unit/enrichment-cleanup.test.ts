import { describe, expect, it } from 'vitest';
import { cleanDescription, MAX_DESCRIPTION_LENGTH } from '../../src/enrichment/clean.ts';

describe('description cleanup', () => {
  it.each([
    // Card processors' prefixes
    ['SQ *TARTINE BAKERY San Francisco CA', 'TARTINE BAKERY'],
    ['TST* SHAKE SHACK 1234 NEW YORK NY', 'SHAKE SHACK'],
    ['PAYPAL *NETFLIX 4029357733 CA', 'NETFLIX'],
    ['AMZN Mktp US*2K4LD7', 'AMZN Mktp'],
    ['UBER *TRIP HELP.UBER.COM', 'UBER TRIP HELP.UBER.COM'],
    // The bank's wording of the payment method, card references, dates, store and terminal numbers, locations
    ['POS WHOLEFDS SFO 10234 03/12', 'WHOLEFDS SFO'],
    ['DEBIT CARD PURCHASE XXXXX1234 STARBUCKS STORE 06672 SEATTLE WA', 'STARBUCKS'],
    ['CHECKCARD 0312 SHELL OIL 57444417 SAN FRANCISCO CA', 'SHELL OIL'],
    ['Purchase authorized on 03/12 Chipotle 1249 San Francisco CA S384071234567890 Card 1234', 'Chipotle'],
    ['7-ELEVEN 33824 DALLAS TX', '7-ELEVEN'],
    ['VISA LIDL DIENSTL 1234 *1234', 'LIDL DIENSTL'],
    ['TARGET T-2768 SAN FRANCISCO CA', 'TARGET'],
    ['CVS/PHARMACY #09862 TERMINAL 4471 BOSTON MA USA', 'CVS/PHARMACY'],
    // ACH: references, and the originator's name in NACHA's long form
    ['ACH DEBIT ACME CORP PAYROLL PPD ID: 1234567890', 'ACME CORP PAYROLL'],
    ['ORIG CO NAME:ACME CORP ORIG ID:1234567890 DESC DATE:240315 CO ENTRY DESCR:PAYROLL SEC:PPD TRACE#:021000021234567 EED:240315 IND ID:0001 IND NAME:JANE DOE', 'ACME CORP'],
    // SEPA in German, French, Dutch and Spanish styles; Swedish and UK lines
    ['Kartenzahlung REWE Markt GmbH Berlin 03.12. 14:22', 'REWE Markt GmbH'],
    ['SEPA-Lastschrift Vodafone GmbH End-to-End-Ref.: 123456789 Mandatsref.: M-0042 Gläubiger-ID: DE12ZZZ00000012345', 'Vodafone GmbH'],
    ['EREF+ABC123 MREF+XYZ CRED+DE98ZZZ09999999999 SVWZ+Telekom Deutschland Rechnung 2024', 'Telekom Deutschland Rechnung'],
    ['PayPal Europe S.a.r.l. et Cie S.C.A 1034567890123 PP.1234.PP . Ihr Einkauf bei Spotify AB', 'Spotify AB'],
    ['CB CARREFOUR MARKET 12/03 PARIS', 'CARREFOUR MARKET'],
    ['PRLV SEPA FREE MOBILE', 'FREE MOBILE'],
    ['BEA, Betaalpas ALBERT HEIJN 1403,PAS123 NR:CT608H, 12.03.24/17:45 AMSTERDAM', 'ALBERT HEIJN'],
    ['COMPRA TARJ. 5540XXXXXXXX1234 MERCADONA MADRID', 'MERCADONA'],
    ['Kortköp 240312 ICA NARA FRIDHEMSPLAN STOCKHOLM', 'ICA NARA FRIDHEMSPLAN'],
    ['CARD PAYMENT TO TESCO STORES 3297 ON 12 MAR', 'TESCO STORES'],
    ['NETFLIX.COM DD', 'NETFLIX.COM'],
  ])('%s → %s', (raw, clean) => {
    expect(cleanDescription(raw)).toBe(clean);
  });

  it('keeps words that only look like dates, methods or places inside a name', () => {
    expect(cleanDescription('CAFE DU MONDE NEW ORLEANS LA')).toBe('CAFE DU MONDE');
    expect(cleanDescription('LE PAIN QUOTIDIEN')).toBe('LE PAIN QUOTIDIEN');
    expect(cleanDescription('VIRGIN ATLANTIC')).toBe('VIRGIN ATLANTIC');
    expect(cleanDescription('24 HOUR FITNESS')).toBe('24 HOUR FITNESS');
  });

  it('keeps the last word even when it names a place, and gives the whole text back when nothing is left', () => {
    expect(cleanDescription('PARIS')).toBe('PARIS');
    expect(cleanDescription('POS 03/12')).toBe('POS 03/12');
    expect(cleanDescription('  ')).toBe('');
  });

  it('reads a bounded prefix of an overlong description', () => {
    expect(cleanDescription(`STARBUCKS ${'X'.repeat(100_000)}`).length).toBeLessThanOrEqual(MAX_DESCRIPTION_LENGTH);
  });
});

describe('places of the countries the providers reach', () => {
  it.each([
    ['Kortköp 260412 HEMMAKVALL JONKOPING', 'HEMMAKVALL'],
    ['KORTTIOSTO 260412 KAHVILA SOFIA KUOPIO', 'KAHVILA SOFIA'],
    ['Płatność kartą 25.00 PLN KWIACIARNIA ROZA BYDGOSZCZ', 'KWIACIARNIA ROZA'],
    ['Point Of Sale Withdrawal 4410 HUDSON WINE AND LIQUOR NEW YORK NYUS', 'HUDSON WINE AND LIQUOR'],
    // A trade's word alone before a city is a shop named for the city
    ['COMPRA 1234 PASTELARIA VERSAILLES', 'PASTELARIA VERSAILLES'],
    ['Kartenzahlung Pizzeria Napoli//Hamburg/DE', 'Pizzeria Napoli'],
  ])('%s', (raw, clean) => {
    expect(cleanDescription(raw)).toBe(clean);
  });
});
