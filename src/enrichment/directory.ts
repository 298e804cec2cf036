/**
 * The bundled directory of common merchants (data/merchants.json: its source and licence are in the
 * file). A spelling matches as whole words of the normalized text (UBER EATS in "UBER EATS
 * PENDING"), or written together (WHOLEFOODS, TRADERJOES for WHOLE FOODS, TRADER JOES). The longest
 * spelling found wins, then the earliest: UBER EATS before UBER, COSTCO GAS before COSTCO.
 * Both lookups are hash maps built once; a call looks up each run of up to MAX_WORDS words, and
 * stops lengthening a run as soon as no spelling starts with its letters.
 */
import directory from './data/merchants.json' with { type: 'json' };
import { categoryOf, type Category } from './taxonomy.ts';
import { CHARACTER_KEY_LENGTH, CHARACTER_KEYS, characterKey } from './text.ts';

export interface DirectoryMerchant {
  name: string;
  category: Category;
}

export interface DirectoryMatch {
  merchant: DirectoryMerchant;
  /** True when the spelling matched word for word, false when only written together. */
  exact: boolean;
  /** How many words of the text the spelling took, from which word (0: the first). */
  words: number;
  at: number;
}

const BY_WORDS = new Map<string, DirectoryMerchant>();
const BY_SQUASHED = new Map<string, DirectoryMerchant>();
/** Every start of a spelling written together ('', W, WH, …, WHOLEFOODS): a run of text whose letters are none leads to no spelling. */
const SQUASHED_STARTS = new Set<string>();
/** The first characters of every spelling as a table of flags (text.ts): most words of text start none, and are passed over without a lookup. */
const FIRST_CHARACTERS = new Uint8Array(CHARACTER_KEYS);
for (const entry of directory.merchants) {
  const merchant = { name: entry.name, category: categoryOf(entry.category) };
  for (const spelling of entry.match) {
    const squashed = spelling.replace(/ /g, '');
    BY_WORDS.set(spelling, merchant);
    BY_SQUASHED.set(squashed, merchant);
    for (let length = 0; length <= squashed.length; length++) SQUASHED_STARTS.add(squashed.slice(0, length));
    FIRST_CHARACTERS[characterKey(squashed, 0)] = 1;
  }
}

/** Words in the longest spelling; written together, a spelling may span this many words of text too. */
const MAX_WORDS = Math.max(...directory.merchants.flatMap((entry) => entry.match.map((spelling) => spelling.split(' ').length)));

/** Shorter spellings match word for word only: joined runs of short words (A T T, H M) collide by chance. */
const MIN_SQUASHED_LENGTH = 5;

/**
 * A spelling of one word of at most this many characters (SL, BP, ICA, KFC) is a merchant only where
 * a name starts: elsewhere it is as likely an abbreviation, a legal form or part of another name
 * (PKO BP, a bank; ATM, Milan's transit).
 */
const SHORT = 3;

/** The directory's merchant of exactly this spelling (normalized words), if any. */
export function merchantSpelled(spelling: string): DirectoryMerchant | undefined {
  return BY_WORDS.get(spelling);
}

/**
 * The directory's merchant named in `normalized` text (see text.ts), if any. `nameFirst`: the text
 * is a counterparty's name, so a short spelling counts as its first word; otherwise it never does.
 */
export function findMerchant(normalized: string, nameFirst = false): DirectoryMatch | undefined {
  if (normalized === '') return undefined;
  const words = normalized.split(' ');
  let best: (Omit<DirectoryMatch, 'words' | 'at'> & { length: number; from: number; to: number }) | undefined;
  for (let start = 0; start < words.length; start++) {
    // A run from a word of three characters or more starts with its first three: when no spelling does, no run from it is one.
    if (words[start]!.length >= CHARACTER_KEY_LENGTH && FIRST_CHARACTERS[characterKey(words[start]!, 0)] === 0) continue;
    let squashed = '';
    for (let end = start; end < Math.min(words.length, start + MAX_WORDS); end++) {
      squashed += words[end]!;
      if (!SQUASHED_STARTS.has(squashed)) break;
      if (best && squashed.length <= best.length) continue;
      if (end === start && squashed.length <= SHORT && !(nameFirst && start === 0)) continue;
      // A spelling word for word is also one written together: a run unknown written together is neither.
      const together = BY_SQUASHED.get(squashed);
      if (!together) continue;
      const exact = BY_WORDS.get(end === start ? squashed : words.slice(start, end + 1).join(' '));
      if (exact) best = { merchant: exact, exact: true, length: squashed.length, from: start, to: end };
      else if (squashed.length >= MIN_SQUASHED_LENGTH) best = { merchant: together, exact: false, length: squashed.length, from: start, to: end };
    }
  }
  return best && { merchant: best.merchant, exact: best.exact, words: best.to - best.from + 1, at: best.from };
}
