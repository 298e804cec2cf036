/** A score from which two values are taken to match (Plaid's recommended threshold). */
export const MATCH_THRESHOLD = 70;

/** A field compared: its score and whether that is a match. */
export interface FieldMatch {
  score: number;
  matched: boolean;
}

/** The score as a field match. */
export function fieldMatch(score: number): FieldMatch {
  return { score, matched: score >= MATCH_THRESHOLD };
}

/** The best of several results (the first of equals), or null when there were none to compare. */
export function best<T extends { score: number }>(results: Iterable<T>): T | null {
  let top: T | null = null;
  for (const result of results) if (!top || result.score > top.score) top = result;
  return top;
}
