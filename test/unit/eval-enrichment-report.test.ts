import { describe, expect, it } from 'vitest';
import { heldOutByHash, isHeldOut } from '../../scripts/eval/enrichment/labelled.ts';
import { ALL, confusionLines, merchantMiss, merchantMissLine, table, tallyBy, worstCategories, type Scored } from '../../scripts/eval/enrichment/report.ts';

function line(country: string, style: string, expected: string | null, given: string | null, merchantRight = true): Scored {
  return { style, country, merchantRight, merchantGiven: merchantRight, primaryRight: expected?.split('_')[0] === given?.split('_')[0], detailedRight: expected === given, categorized: given !== null, expectedDetailed: expected, givenDetailed: given, merchantMiss: merchantRight ? null : 'noName' };
}

const FIXTURE: Scored[] = [
  line('IT', 'enablebanking', 'FOOD_AND_DRINK_GROCERIES', 'FOOD_AND_DRINK_GROCERIES'),
  line('IT', 'enablebanking', 'FOOD_AND_DRINK_GROCERIES', null, false),
  line('IT', 'enablebanking', 'INCOME_WAGES', null, false),
  line('PL', 'enablebanking', 'FOOD_AND_DRINK_GROCERIES', 'FOOD_AND_DRINK_RESTAURANT'),
  line('PL', 'enablebanking', 'INCOME_WAGES', 'INCOME_WAGES'),
  line('US', 'plaid', 'ENTERTAINMENT_CASINOS_AND_GAMBLING', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY'),
  line('US', 'ofx', null, null),
];

describe('enrichment evaluation report', () => {
  it('tallies each group and all lines, by country and by style', () => {
    const byCountry = tallyBy(FIXTURE, (scored) => scored.country);
    expect([...byCountry.keys()].sort()).toEqual([ALL, 'IT', 'PL', 'US'].sort());
    expect(byCountry.get('IT')).toEqual({ count: 3, merchant: 1, merchantsGiven: 1, merchantsGivenRight: 1, primary: 1, detailed: 1, categorized: 1 });
    expect(byCountry.get('US')).toEqual({ count: 2, merchant: 2, merchantsGiven: 2, merchantsGivenRight: 2, primary: 1, detailed: 1, categorized: 1 });
    expect(byCountry.get(ALL)?.count).toBe(7);
    expect(byCountry.get(ALL)?.detailed).toBe(3);
    const byStyle = tallyBy(FIXTURE, (scored) => scored.style);
    expect(byStyle.get('enablebanking')?.count).toBe(5);
    expect(byStyle.get('plaid')?.detailed).toBe(0);
  });

  it('prints groups in order, all last, with percentages', () => {
    const rows = table('country', tallyBy(FIXTURE, (scored) => scored.country)).split('\n');
    expect(rows.map((row) => row.split('|')[1]!.trim())).toEqual(['country', ':--------', 'IT', 'PL', 'US', 'all']);
    expect(rows[2]).toContain('33.3 %');
  });

  it('tells how a merchant name was missed, word by word', () => {
    expect(merchantMiss('BLUE LINE BAGELS', 'BLUE LINE BAGELS')).toBeNull();
    expect(merchantMiss('', '')).toBeNull();
    expect(merchantMiss('BLUE LINE BAGELS', 'BLUE LINE BAGELS BROOKLYN')).toBe('extraWords');
    expect(merchantMiss('BLUE LINE BAGELS', 'SQ BLUE LINE BAGELS')).toBe('extraWords');
    expect(merchantMiss('BLUE LINE BAGELS', 'BLUE LINE')).toBe('cutShort');
    // Within words, not within letters: BAGEL is no part of BAGELS.
    expect(merchantMiss('BLUE LINE BAGELS', 'BAGEL')).toBe('otherName');
    expect(merchantMiss('BLUE LINE BAGELS', 'RED LINE')).toBe('sharesAWord');
    expect(merchantMiss('BLUE LINE BAGELS', '')).toBe('noName');
    expect(merchantMiss('', 'ATM')).toBe('unwanted');
  });

  it('counts the merchant misses by kind, most often first', () => {
    const scored = FIXTURE.map((line, index) => ({ ...line, merchantMiss: index < 2 ? ('extraWords' as const) : index === 2 ? ('unwanted' as const) : null }));
    expect(merchantMissLine(scored)).toBe('Merchant misses (3 of 7), what was given: the name and more words ×2, a name where none is wanted ×1');
    expect(merchantMissLine(scored.map((line) => ({ ...line, merchantMiss: null })))).toBe('Merchant misses (0 of 7), what was given: none missed');
  });

  it('lists the categories missed most, with what was given instead', () => {
    const worst = worstCategories(FIXTURE, 2);
    expect(worst).toEqual([
      { expected: 'FOOD_AND_DRINK_GROCERIES', count: 3, missed: 2, given: [{ detailed: '(none)', count: 1 }, { detailed: 'FOOD_AND_DRINK_RESTAURANT', count: 1 }] },
      { expected: 'ENTERTAINMENT_CASINOS_AND_GAMBLING', count: 1, missed: 1, given: [{ detailed: 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY', count: 1 }] },
    ]);
    expect(worstCategories(FIXTURE, 20).map(({ expected }) => expected)).toEqual(['FOOD_AND_DRINK_GROCERIES', 'ENTERTAINMENT_CASINOS_AND_GAMBLING', 'INCOME_WAGES']);
    expect(confusionLines(worst)[0]).toBe('  FOOD_AND_DRINK_GROCERIES (2/3 missed) → (none) ×1, FOOD_AND_DRINK_RESTAURANT ×1');
  });

  it('splits the outside-style set by a hash of description and amount, and never lists a held-out split', () => {
    const line = { description: 'PAGAMENTO POS 23,50 EUR DEL 12/03/2024 A (ITA) ESSELUNGA MILANO CARTA N. *1234', amount: '-23.50' };
    expect(heldOutByHash(line)).toBe(heldOutByHash({ ...line }));
    const sample = Array.from({ length: 300 }, (_, index) => heldOutByHash({ description: `LINE ${index}`, amount: '-1.00' }));
    expect(sample.filter(Boolean).length).toBeGreaterThan(70);
    expect(sample.filter(Boolean).length).toBeLessThan(130);
    expect([isHeldOut('outside-holdout'), isHeldOut('holdout'), isHeldOut('blind-holdout-3'), isHeldOut('outside-dev'), isHeldOut('dev'), isHeldOut('blind-dev'), isHeldOut('blind-dev-2')]).toEqual([true, true, true, false, false, false, false]);
  });
});
