import { describe, expect, it } from 'vitest';
import { enrichLine as of, nameOfLine as nameOf } from '../support/enrichment.ts';

/** Where a place ends a shop's name and where it is the name's own, each pattern on a line written here. */
describe('places at the end of a name', () => {
  it("a card paid abroad: the towns of the amount's currency end the name too", () => {
    expect(nameOf('*5521 14.04 EUR 9.80 CAFE SOLEIL SITGES Kurs: 11.6120', '-114.00', 'NOK')).toBe('Cafe Soleil');
    expect(nameOf('CARD PAYMENT TO TAPAS LUNA SITGES,12.40 EUR, RATE 0.8531/EUR ON 21-03-2026', '-10.58', 'GBP')).toBe('Tapas Luna');
    // The rate's currency after a slash goes with the rate.
    expect(of('CARD PAYMENT TO TAPAS LUNA SITGES,12.40 EUR, RATE 0.8531/EUR ON 21-03-2026', '-10.58', 'GBP').cleanDescription).toBe('TAPAS LUNA');
    // Without an amount in euros the Spanish town stays on a krone account: it is no Norwegian town.
    expect(nameOf('*5521 14.04 CAFE SOLEIL SITGES', '-114.00', 'NOK')).toBe('Cafe Soleil Sitges');
  });

  it('one town is cut, or the same town twice; a town before it is the name’s', () => {
    expect(nameOf('COMPRA 4417 CASA MONTE REAL VIGO', '-80.00')).toBe('Casa Monte Real');
    expect(nameOf('COMPRA 4417 CASA MONTE VIGO', '-80.00')).toBe('Casa Monte');
    expect(nameOf('BETALING MET BANKKAART 20/09 BAKKERIJ HOF LEUVEN 3000 LEUVEN', '-6.00')).toBe('Bakkerij Hof');
  });

  it('a town after an ampersand is part of the name', () => {
    expect(nameOf('COMPRA 9166 BARBEARIA PENTE & CORTE CONTACTLESS', '-15.00')).toBe('Barbearia Pente & Corte');
  });

  it('a Baltic street after the shop goes with the town', () => {
    expect(nameOf('PIRKUMS 516XXXXXXXXX4417 2026.03.12 08.15 3,10 EUR (512290) MAIZNICA RITS BRIVIBAS IELA RIGA', '-3.10')).toBe('Maiznica Rits');
    expect(nameOf('Kaardimakse KOHVIK MOKA TARTU MNT', '-4.20')).toBe('Kohvik Moka');
    // A street alone is the whole name the line gives: it stays.
    expect(nameOf('Kaardimakse TARTU MNT', '-4.20')).toBe('Tartu MNT');
  });
});
