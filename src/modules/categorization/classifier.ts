/**
 * A profile's learned classifier: multinomial naive Bayes over the words of a transaction (its
 * cleaned description and merchant name) and the direction of its amount, trained on that profile's
 * own corrections only. Pure and deterministic: the same counts and words give the same answer.
 * When it answers, and why those thresholds: docs/decisions/categorization-learned-classifier.md.
 */

/** Word counts per category (`PRIMARY/DETAILED`), as stored for a profile. */
export interface ClassifierCounts {
  [category: string]: { corrections: number; words: Record<string, number> };
}

/** One correction the classifier learns from. */
export interface Correction {
  words: string[];
  primary: string;
  detailed: string;
}

export const LEARNED = {
  /** The winning category's posterior must reach this. */
  minPosterior: 0.9,
  /** At least this many corrections must name the winning category. */
  minCorrections: 2,
  /** At least this share of the transaction's words (the direction aside) must occur in the winning category's corrections. */
  minKnownShare: 0.5,
  /** Words kept of one transaction: descriptions are short, and a long one must not outweigh the others. */
  maxWords: 16,
  /**
   * Lidstone smoothing: a word never seen with a category counts this much. Add-one smoothing drowns
   * the few corrections a profile has (two corrections of a merchant would lose to any other
   * category's prior); a tenth keeps unseen words possible without outvoting the seen ones.
   */
  smoothing: 0.1,
  /** Corrections trained on: the profile's most recent ones. */
  maxCorrections: 2000,
} as const;

/** The words a transaction is classified by: lower-cased words of two letters or more without digits (store and card numbers vary), and the direction. */
export function wordsOf(cleanDescription: string, merchantName: string | null, amount: string): string[] {
  const text = `${cleanDescription} ${merchantName ?? ''}`.normalize('NFKD').toLowerCase();
  const words = new Set(text.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 2 && !/\p{N}/u.test(word)));
  return [...[...words].slice(0, LEARNED.maxWords), amount.startsWith('-') ? DIRECTION.out : DIRECTION.in];
}

const DIRECTION = { in: '↑in', out: '↓out' } as const;

export function train(corrections: Correction[]): ClassifierCounts {
  const counts: ClassifierCounts = {};
  for (const { words, primary, detailed } of corrections) {
    const category = (counts[`${primary}/${detailed}`] ??= { corrections: 0, words: {} });
    category.corrections++;
    for (const word of words) category.words[word] = countOf(category.words, word) + 1;
  }
  return counts;
}

/** The learned category of a transaction and its posterior, or null when the classifier is not sure enough. */
export function classify(counts: ClassifierCounts, words: string[]): { primary: string; detailed: string; posterior: number } | null {
  const categories = Object.keys(counts).sort();
  if (categories.length === 0) return null;
  const vocabulary = new Set(categories.flatMap((category) => Object.keys(counts[category]!.words))).size;
  const corrections = categories.reduce((sum, category) => sum + counts[category]!.corrections, 0);
  // Log-likelihoods, smoothed; the posterior is their softmax.
  const scores = categories.map((category) => {
    const { corrections: own, words: known } = counts[category]!;
    const total = Object.values(known).reduce((sum, count) => sum + count, 0);
    return words.reduce((score, word) => score + Math.log((countOf(known, word) + LEARNED.smoothing) / (total + LEARNED.smoothing * vocabulary)), Math.log(own / corrections));
  });
  const best = scores.indexOf(Math.max(...scores));
  const posterior = 1 / scores.reduce((sum, score) => sum + Math.exp(score - scores[best]!), 0);
  const winner = counts[categories[best]!]!;
  const described = words.filter((word) => word !== DIRECTION.in && word !== DIRECTION.out);
  const knownShare = described.length === 0 ? 0 : described.filter((word) => countOf(winner.words, word) > 0).length / described.length;
  if (posterior < LEARNED.minPosterior || winner.corrections < LEARNED.minCorrections || knownShare < LEARNED.minKnownShare) return null;
  const [primary, detailed] = categories[best]!.split('/') as [string, string];
  return { primary, detailed, posterior };
}

/** Words are user data: `constructor` is a word like any other, never a key of Object.prototype. */
function countOf(words: Record<string, number>, word: string): number {
  return Object.hasOwn(words, word) ? words[word]! : 0;
}
