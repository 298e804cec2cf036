import { describe, expect, it } from 'vitest';
import { nameAndDetailed as both, detailedOfLine as detailedOf, enrichLine, nameOfLine as nameOf } from '../support/enrichment.ts';

/**
 * What version 22 reads that two probes of US SimpleFIN lines written after version 21 (checking accounts, credit cards)
 * showed missing, each on a line written here, none taken from a probe or an evaluation file
 * (docs/decisions/enrichment-evaluation.md).
 */
describe('US names', () => {
  it('keeps SO first in a name on a dollar line (South, or the word), where a UK or Irish line’s SO is a standing order', () => {
    expect(enrichLine('SQ *SO GOOD DONUTS RALEIGH NC', '-8.00', 'USD').cleanDescription).toBe('SO GOOD DONUTS');
    expect(nameOf('SQ *SO GOOD DONUTS RALEIGH NC', '-8.00', 'USD')).toBe('So Good Donuts');
    expect(nameOf('SO T BRENNAN RENT', '-900.00', 'EUR')).toBe('T Brennan');
  });

  it('reads PIT as a name’s word off Polish lines (a barbecue’s pit, a pit stop), and as the Polish income tax’s there', () => {
    expect(nameOf('TST* BIG OAK PIT BBQ', '-31.00', 'USD')).toBe('Big Oak Pit BBQ');
    expect(nameOf('SQ *PIT STOP TIRE SHOP DAYTON OH', '-60.00', 'USD')).toBe('Pit Stop Tire Shop');
    expect(nameOf('ANNA NOWAK PIT-37 ZWROT', '-120.00', 'PLN')).toBe('Anna Nowak');
  });

  it('reads a state after a telephone number in the town’s field as the state (CO is Colorado there, no company)', () => {
    expect(nameOf('ASPEN RIDGE ORTHODONTICS 720-555-0142 CO', '-95.00', 'USD')).toBe('Aspen Ridge Orthodontics');
    expect(nameOf('BLUE SPRUCE PLUMBING CO 720-555-0142 CO', '-250.00', 'USD')).toBe('Blue Spruce Plumbing Co');
  });

  it('takes a town glued to the name’s last word and its state glued to the town off together', () => {
    expect(nameOf('SQ *LAKE STREET TACOSMINNEAPOLISMN', '-14.00', 'USD')).toBe('Lake Street Tacos');
    // A word that only ends in a state's letters stays.
    expect(nameOf('RIVERSIDE MEDICAL', '-40.00', 'USD')).toBe('Riverside Medical');
  });

  it('drops Givelify’s prefix before a church', () => {
    expect(both(enrichLine('GIVELIFY*GRACE TABERNACLE 877-448-3543 MD', '-40.00', 'USD'))).toEqual(['Grace Tabernacle', 'GOVERNMENT_AND_NON_PROFIT_DONATIONS']);
  });
});

describe('US categories', () => {
  it('reads Social Security and Veterans Affairs paid by direct deposit as a benefit, no wage', () => {
    expect(detailedOf('DIRECT DEPOSIT SSA TREAS 310 XXSOC SEC 241003', '1310.00', 'USD')).toBe('INCOME_OTHER_INCOME');
    expect(detailedOf('DIRECT DEPOSIT VA TREAS 310 XXVA BENEF', '980.00', 'USD')).toBe('INCOME_OTHER_INCOME');
    expect(detailedOf('DIRECT DEPOSIT ACME TOOLING PAYROLL', '1980.00', 'USD')).toBe('INCOME_WAGES');
  });

  it('reads trades’ words the probes named: a bike shop, a bookshop, a fish market, a muffler shop, a mobile detailer, a contractor, a tree service, a playhouse, candles, a corner drug store, poke, framing, a quick stop, a county tax office', () => {
    const cases: [string, string][] = [
      ['RIVERBEND CYCLE WORKS', 'GENERAL_MERCHANDISE_SPORTING_GOODS'],
      ['THE READING NOOK BOOK SHOP', 'GENERAL_MERCHANDISE_BOOKSTORES_AND_NEWSSTANDS'],
      ['PORTSIDE FISH MARKET', 'FOOD_AND_DRINK_GROCERIES'],
      ['MIDTOWN MUFFLER', 'GENERAL_SERVICES_AUTOMOTIVE'],
      ['SHINE MOBILE DETAILING', 'GENERAL_SERVICES_AUTOMOTIVE'],
      ['K & L CONTRACTORS', 'HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE'],
      ['GREEN ACRES TREE SERVICE', 'HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE'],
      ['BAYSIDE PLAYHOUSE', 'ENTERTAINMENT_SPORTING_EVENTS_AMUSEMENT_PARKS_AND_MUSEUMS'],
      ['WILLOW CREEK CANDLE CO', 'GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES'],
      ['ELM STREET CORNER DRUG', 'MEDICAL_PHARMACIES_AND_SUPPLEMENTS'],
      ['ISLAND POKE', 'FOOD_AND_DRINK_RESTAURANT'],
      ['GALLERY ONE CUSTOM FRAMING', 'GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE'],
      ['CROSSROADS QUICK STOP', 'GENERAL_MERCHANDISE_CONVENIENCE_STORES'],
      ['WAKE COUNTY TAX OFFICE', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT'],
    ];
    for (const [line, detailed] of cases) expect([line, detailedOf(line, '-45.00', 'USD')]).toEqual([line, detailed]);
  });
});
