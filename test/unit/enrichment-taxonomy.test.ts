import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, categoryOf, DESCRIPTIONS, isCategory } from '../../src/enrichment/taxonomy.ts';
import { CATEGORIES_V2, categoryV1OfV2, categoryV2Of, PUBLISHED_V1 } from '../../src/enrichment/taxonomy-v2.ts';

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
    const page = readFileSync('docs/categories.md', 'utf8').split('\n# Version 2\n')[0]!;
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

describe("Plaid's personal finance categories, version 2", () => {
  it('has its 18 primary and 123 detailed categories, and every version 1 category maps to one of them', () => {
    expect(Object.keys(CATEGORIES_V2)).toHaveLength(18);
    const details = Object.values(CATEGORIES_V2).flat();
    expect(new Set(details).size).toBe(123);
    for (const [primary, list] of Object.entries(CATEGORIES_V2)) for (const detailed of list) expect(detailed.startsWith(`${primary}_`), detailed).toBe(true);
    const mapped = Object.values(CATEGORIES).flat().map((detailed) => categoryV2Of(categoryOf(detailed)).detailed);
    expect(new Set(mapped).size).toBe(104);
    expect(categoryV2Of(categoryOf('INCOME_WAGES'))).toEqual({ primary: 'INCOME', detailed: 'INCOME_SALARY' });
    expect(categoryV2Of(categoryOf('TRANSFER_IN_CASH_ADVANCES_AND_LOANS'))).toEqual({ primary: 'LOAN_DISBURSEMENTS', detailed: 'LOAN_DISBURSEMENTS_OTHER_DISBURSEMENT' });
  });

  it('reads a version 2 category as version 1: its published column, else the version 1 category covering it', () => {
    expect(categoryV1OfV2('INCOME', 'INCOME_SALARY')).toEqual({ primary: 'INCOME', detailed: 'INCOME_WAGES' });
    expect(categoryV1OfV2('LOAN_DISBURSEMENTS', 'LOAN_DISBURSEMENTS_EWA')).toEqual({ primary: 'TRANSFER_IN', detailed: 'TRANSFER_IN_CASH_ADVANCES_AND_LOANS' });
    expect(categoryV1OfV2('BANK_FEES', 'BANK_FEES_LATE_FEES')?.detailed).toBe('BANK_FEES_OTHER_BANK_FEES');
    expect(categoryV1OfV2('OTHER', 'OTHER_OTHER')).toBeUndefined();
    expect(categoryV1OfV2('INCOME', 'LOAN_DISBURSEMENTS_EWA')).toBeUndefined();
  });

  it('is listed in docs/categories.md under its primary, with the version 1 category it maps from', () => {
    const page = readFileSync('docs/categories.md', 'utf8').split('\n# Version 2\n')[1]!;
    const listed: Array<[primary: string, detailed: string, v1: string | null]> = [];
    let primary = '';
    for (const line of page.split('\n')) {
      const heading = /^### ([A-Z_]+)$/.exec(line);
      if (heading) primary = heading[1]!;
      const row = /^\| `([A-Z_]+)` \| (?:`([A-Z_]+)`|new; read as .+) \|$/.exec(line);
      if (row) listed.push([primary, row[1]!, row[2] ?? null]);
    }
    expect(listed).toEqual(Object.entries(CATEGORIES_V2).flatMap(([key, details]) => details.map((detailed) => [key, detailed, PUBLISHED_V1.get(detailed) ?? null])));
  });
});
