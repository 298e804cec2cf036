/** `{ profile { ...F0 } }` where each of `levels` fragments selects `id` and spreads the next one ten times: 10^levels expansions in under a kilobyte. */
export function fragmentBomb(levels: number): string {
  const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on Profile { id ${`...F${i + 1} `.repeat(10)}}`);
  return `{ profile { ...F0 } } ${fragments.join(' ')} fragment F${levels} on Profile { id }`;
}

/** 1 (`profile`) + 1 + 10 + … + 10^levels (each fragment's `id`, once per expansion). */
export const bombFields = (levels: number) => 1 + (10 ** (levels + 1) - 1) / 9;
