import { describe, expect, it } from 'vitest';
import directory from '../../src/enrichment/data/merchants.json' with { type: 'json' };
import { findMerchant } from '../../src/enrichment/directory.ts';
import { categoryOfMcc } from '../../src/enrichment/mcc.ts';
import { categoryOf } from '../../src/enrichment/taxonomy.ts';
import { normalize } from '../../src/enrichment/text.ts';
import { townsOf } from '../../src/enrichment/towns.ts';

const nameIn = (text: string) => findMerchant(normalize(text))?.merchant.name;

describe('the merchant directory', () => {
  it('is a few thousand merchants, each spelling in normalized form, written once, naming one merchant only, with a category of the taxonomy', () => {
    expect(directory.merchants.length).toBeGreaterThan(3000);
    const owners = new Map<string, string>();
    const written = new Set<string>();
    for (const { name, category, match, ...rest } of directory.merchants as ReadonlyArray<{ name: string; category: string; match: string[]; currencies?: string[] }>) {
      expect(() => categoryOf(category), name).not.toThrow();
      // A merchant kept to some currencies names currencies whose towns the pipeline reads.
      for (const currency of rest.currencies ?? []) expect(townsOf(currency).size, `${name}: ${currency}`).toBeGreaterThan(0);
      for (const spelling of match) {
        expect(normalize(spelling), name).toBe(spelling);
        // Written twice, the later entry would silently win over the earlier one.
        expect(written.has(spelling), `${name}: ${spelling} is written twice`).toBe(false);
        written.add(spelling);
        expect(owners.get(spelling.replace(/ /g, '')) ?? name, spelling).toBe(name);
        owners.set(spelling.replace(/ /g, ''), name);
      }
    }
  });

  it('finds a spelling as whole words anywhere in the text', () => {
    expect(nameIn('WHOLEFDS SFO')).toBe('Whole Foods Market');
    expect(nameIn('DEBIT PURCHASE STARBUCKS SEATTLE')).toBe('Starbucks');
    expect(nameIn("Trader Joe's")).toBe("Trader Joe's");
    expect(nameIn('TRADER JOE S')).toBe("Trader Joe's");
    expect(findMerchant(normalize('STARBUCKS'))).toMatchObject({ exact: true });
  });

  it('finds a spelling written together, over one word or several, as a less exact match', () => {
    expect(findMerchant(normalize('WHOLEFOODS MKT'))).toEqual({ merchant: { name: 'Whole Foods Market', category: { primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_GROCERIES' } }, exact: false, words: 1, at: 0 });
    expect(nameIn('MC DONALD S 1234')).toBe("McDonald's");
    expect(nameIn('BEST BUY')).toBe('Best Buy');
  });

  it('never finds a spelling inside a longer word, nor a short spelling from words joined by chance', () => {
    expect(nameIn('TARGETED ADVERTISING')).toBeUndefined();
    expect(nameIn('SUBWAYS OF THE WORLD')).toBeUndefined();
    expect(nameIn('A T')).toBeUndefined();
    expect(nameIn('')).toBeUndefined();
  });

  it('prefers the longest spelling, then the earliest', () => {
    expect(nameIn('UBER EATS PENDING')).toBe('Uber Eats');
    expect(nameIn('UBER TRIP')).toBe('Uber');
    // Both named Costco, as most readers name its fuel station too: the longer spelling says it is fuel.
    expect(findMerchant(normalize('COSTCO GAS #0479'))?.merchant).toMatchObject({ name: 'Costco', category: { detailed: 'TRANSPORTATION_GAS' } });
    expect(findMerchant(normalize('COSTCO WHSE #0479'))?.merchant).toMatchObject({ name: 'Costco', category: { detailed: 'GENERAL_MERCHANDISE_SUPERSTORES' } });
    expect(nameIn('APPLE CASH SENT MONEY')).toBe('Apple Cash');
    expect(nameIn('NETFLIX SPOTIFY')).toBe('Netflix');
  });
});

describe('merchant category codes (ISO 18245)', () => {
  it('maps listed codes and the airline, car rental and hotel ranges; anything else decides nothing', () => {
    expect(categoryOfMcc('5411')).toEqual({ primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_GROCERIES' });
    expect(categoryOfMcc('5812')?.detailed).toBe('FOOD_AND_DRINK_RESTAURANT');
    expect(categoryOfMcc('5541')?.detailed).toBe('TRANSPORTATION_GAS');
    expect(categoryOfMcc('6011')?.detailed).toBe('TRANSFER_OUT_WITHDRAWAL');
    expect(categoryOfMcc('742')?.detailed).toBe('MEDICAL_VETERINARY_SERVICES');
    expect(categoryOfMcc(' 4121 ')?.detailed).toBe('TRANSPORTATION_TAXIS_AND_RIDE_SHARES');
    expect(categoryOfMcc('3058')?.detailed).toBe('TRAVEL_FLIGHTS');
    expect(categoryOfMcc('3390')?.detailed).toBe('TRAVEL_RENTAL_CARS');
    expect(categoryOfMcc('3709')?.detailed).toBe('TRAVEL_LODGING');
    expect(categoryOfMcc('4000')).toBeUndefined();
    expect(categoryOfMcc('9999')).toBeUndefined();
    expect(categoryOfMcc('58x2')).toBeUndefined();
    expect(categoryOfMcc('')).toBeUndefined();
    expect(categoryOfMcc('123456')).toBeUndefined();
  });
});

