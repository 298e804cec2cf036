/** PLACEHOLDER until the enrichment pipeline merges: a few of Plaid's personal finance categories, primary → detailed. */
export const CATEGORIES: Readonly<Record<string, readonly string[]>> = {
  FOOD_AND_DRINK: ['FOOD_AND_DRINK_COFFEE', 'FOOD_AND_DRINK_GROCERIES', 'FOOD_AND_DRINK_RESTAURANT'],
  INCOME: ['INCOME_WAGES'],
  TRANSPORTATION: ['TRANSPORTATION_GAS'],
  GENERAL_MERCHANDISE: ['GENERAL_MERCHANDISE_ONLINE_MARKETPLACES'],
  ENTERTAINMENT: ['ENTERTAINMENT_TV_AND_MOVIES'],
  RENT_AND_UTILITIES: ['RENT_AND_UTILITIES_RENT'],
};

export function isCategory(primary: string, detailed: string): boolean {
  return Object.hasOwn(CATEGORIES, primary) && CATEGORIES[primary]!.includes(detailed);
}
