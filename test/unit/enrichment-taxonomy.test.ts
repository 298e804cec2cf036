import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, categoryOf, DESCRIPTIONS, isCategory } from '../../src/enrichment/taxonomy.ts';

describe("the taxonomy: Plaid's personal finance categories, version 1", () => {
  it('has its 16 primary and 104 detailed categories, each detailed under the primary its name starts with', () => {
    expect(Object.keys(CATEGORIES)).toHaveLength(16);
    const details = Object.values(CATEGORIES).flat();
    expect(details).toHaveLength(104);
    expect(new Set(details).size).toBe(104);
    for (const [primary, list] of Object.entries(CATEGORIES)) {
      for (const detailed of list) expect(detailed.startsWith(`${primary}_`), detailed).toBe(true);
    }
    expect(CATEGORIES.TRANSFER_IN).toContain('TRANSFER_IN_CASH_ADVANCES_AND_LOANS');
    expect(CATEGORIES.FOOD_AND_DRINK).toContain('FOOD_AND_DRINK_COFFEE');
  });

  it('knows a pair only when the detailed category is one of the primary’s', () => {
    expect(isCategory('FOOD_AND_DRINK', 'FOOD_AND_DRINK_COFFEE')).toBe(true);
    expect(isCategory('TRANSFER_OUT', 'TRANSFER_OUT_WITHDRAWAL')).toBe(true);
    expect(isCategory('TRANSFER_IN', 'TRANSFER_OUT_WITHDRAWAL')).toBe(false);
    expect(isCategory('FOOD_AND_DRINK', 'FOOD_AND_DRINK_TEA')).toBe(false);
    expect(isCategory('food_and_drink', 'food_and_drink_coffee')).toBe(false);
    expect(isCategory('', '')).toBe(false);
    expect(categoryOf('TRAVEL_LODGING')).toEqual({ primary: 'TRAVEL', detailed: 'TRAVEL_LODGING' });
    expect(() => categoryOf('TRAVEL_SPACE')).toThrow(/TRAVEL_SPACE/);
  });

  it('is listed in docs/categories.md, each detailed category under its primary with its description', () => {
    const page = readFileSync('docs/categories.md', 'utf8');
    const listed: Array<[primary: string, detailed: string, description: string]> = [];
    let primary = '';
    for (const line of page.split('\n')) {
      const heading = /^## ([A-Z_]+)$/.exec(line);
      if (heading) primary = heading[1]!;
      const row = /^\| `([A-Z_]+)` \| (.+) \|$/.exec(line);
      if (row) listed.push([primary, row[1]!, row[2]!]);
    }
    expect(listed).toEqual(Object.entries(CATEGORIES).flatMap(([key, details]) => details.map((detailed) => [key, detailed, DESCRIPTIONS.get(detailed)])));
  });
});
