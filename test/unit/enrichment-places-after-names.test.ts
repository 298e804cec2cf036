import { describe, expect, it } from 'vitest';
import { enrich } from '../../src/enrichment/pipeline.ts';
import { enrichLine as line, nameOfLine as lineName, NO_HINTS } from '../support/enrichment.ts';

const of = (description: string, currencyCode = 'EUR') => enrich({ description, amount: '-12.00', currencyCode, accountKind: 'DEPOSITORY', hints: NO_HINTS });
const nameOf = (description: string, currencyCode = 'EUR') => of(description, currencyCode).merchant?.name ?? null;

/** What follows a shop's name on a card line and is not the name (ENRICHMENT_VERSION 7); each pattern on lines written here. */
describe('places after a name', () => {
  it("a city's district number goes with the city: Paris's arrondissement, Dublin's postal district", () => {
    expect(nameOf('PAIEMENT PAR CARTE X4512 BISTROT DES AMIS PARIS 06')).toBe('Bistrot des Amis');
    expect(of('CARTE 12/03 BOULANGERIE DUPONT LYON 03').cleanDescription).toBe('BOULANGERIE DUPONT');
    expect(nameOf('VDP-THE CROOKED LANE DUBLIN 8')).toBe('The Crooked Lane');
    expect(of('VDP-SPAR DUBLIN 8')).toMatchObject({ merchant: { name: 'Spar' }, cleanDescription: 'SPAR' });
  });

  it('a number after anything but a city stays: it is the name’s own', () => {
    expect(of('CB PIZZA 4 LYON').cleanDescription).toBe('PIZZA 4');
    expect(of('SQ *STUDIO 54 BAR', 'USD').cleanDescription).toBe('STUDIO 54 BAR');
  });

  it("a till's descriptor names the shop, then which of its places after a dash", () => {
    expect(nameOf('TST* HARBOR NOODLE HOUSE - SEAPORT', 'USD')).toBe('Harbor Noodle House');
    expect(nameOf('TST* SHAKE SHACK - MIDTOWN', 'USD')).toBe('Shake Shack');
    expect(nameOf('SUMUP *CAFE ALMA - KREUZBERG')).toBe('Cafe Alma');
    expect(of('TST* KOMA - UNION SQ', 'USD').cleanDescription).toBe('KOMA');
    // A single letter before the dash is the name's own; a dash on a line without a till is the town's business (withoutUsTown).
    expect(of('SQ *A - Z HARDWARE', 'USD').cleanDescription).toBe('A Z HARDWARE');
    expect(nameOf('MAPLE LEAF DINER - AMES AMES IA', 'USD')).toBe('Maple Leaf Diner');
  });

  it("a till's star after a card word is still a shop's terminal: in store, not a website's order", () => {
    expect(of('POS DEBIT 04/18 TST* MAMAS KITCHEN DALLAS TX', 'USD').paymentChannel).toBe('IN_STORE');
    expect(of('CARD PAYMENT TO ZETTLE_*KINGS ARMS ON 18-03-2024', 'GBP').paymentChannel).toBe('IN_STORE');
    expect(of('KORTTIOSTO 240319 SUMUP *LEIPOMO ELLA').paymentChannel).toBe('IN_STORE');
    expect(of('AMAZON MKTPLACE*2K4LM0', 'USD').paymentChannel).toBe('ONLINE');
  });

  it('a city is not cut off a name when only an article would be left', () => {
    expect(of('CARTE 12/03 EL FARO').cleanDescription).toBe('EL FARO');
    expect(of('TST*EL FARO - MISSION ST', 'USD').cleanDescription).toBe('EL FARO');
    expect(of('CB LA ROCHELLE').cleanDescription).toBe('LA ROCHELLE');
  });
});

/** Where a place ends a shop's name and where it is the name's own, each pattern on a line written here. */
describe('places at the end of a name (ENRICHMENT_VERSION 16)', () => {
  it("a card paid abroad: the towns of the amount's currency end the name too", () => {
    expect(lineName('*5521 14.04 EUR 9.80 CAFE SOLEIL SITGES Kurs: 11.6120', '-114.00', 'NOK')).toBe('Cafe Soleil');
    expect(lineName('CARD PAYMENT TO TAPAS LUNA SITGES,12.40 EUR, RATE 0.8531/EUR ON 21-03-2026', '-10.58', 'GBP')).toBe('Tapas Luna');
    // The rate's currency after a slash goes with the rate.
    expect(line('CARD PAYMENT TO TAPAS LUNA SITGES,12.40 EUR, RATE 0.8531/EUR ON 21-03-2026', '-10.58', 'GBP').cleanDescription).toBe('TAPAS LUNA');
    // Without an amount in euros the Spanish town stays on a krone account: it is no Norwegian town.
    expect(lineName('*5521 14.04 CAFE SOLEIL SITGES', '-114.00', 'NOK')).toBe('Cafe Soleil Sitges');
  });

  it('one town is cut, or the same town twice; a town before it is the name’s', () => {
    expect(lineName('COMPRA 4417 CASA MONTE REAL VIGO', '-80.00')).toBe('Casa Monte Real');
    expect(lineName('COMPRA 4417 CASA MONTE VIGO', '-80.00')).toBe('Casa Monte');
    expect(lineName('BETALING MET BANKKAART 20/09 BAKKERIJ HOF LEUVEN 3000 LEUVEN', '-6.00')).toBe('Bakkerij Hof');
  });

  it('a town after an ampersand or an article is part of the name', () => {
    expect(lineName('TST* TAQUERIA EL FARO', '-18.00', 'USD')).toBe('Taqueria El Faro');
    expect(lineName('COMPRA 9166 BARBEARIA PENTE & CORTE CONTACTLESS', '-15.00')).toBe('Barbearia Pente & Corte');
  });

  it('a Baltic street after the shop goes with the town', () => {
    expect(lineName('PIRKUMS 516XXXXXXXXX4417 2026.03.12 08.15 3,10 EUR (512290) MAIZNICA RITS BRIVIBAS IELA RIGA', '-3.10')).toBe('Maiznica Rits');
    expect(lineName('Kaardimakse KOHVIK MOKA TARTU MNT', '-4.20')).toBe('Kohvik Moka');
    // A street alone is the whole name the line gives: it stays.
    expect(lineName('Kaardimakse TARTU MNT', '-4.20')).toBe('Tartu MNT');
  });
});
