/**
 * The bundled directory of common merchants (data/merchants.json: its source and licence are in the
 * file). A spelling matches as whole words of the normalized text (UBER EATS in "UBER EATS
 * PENDING"), or written together (WHOLEFOODS, TRADERJOES for WHOLE FOODS, TRADER JOES). The longest
 * spelling found wins, then the earliest: UBER EATS before UBER, COSTCO GAS before COSTCO.
 * Both lookups are hash maps built once; a call looks up each run of up to MAX_WORDS words, and
 * stops lengthening a run as soon as no spelling starts with its letters (a hash filter answers
 * that, and whether a run is a spelling at all, before a map is asked).
 */
import directory from './data/merchants.json' with { type: 'json' };
import { categoryOf, type Category } from './taxonomy.ts';
import { EMPTY_HASH, HashFilter, hashOf } from './hash-filter.ts';
import { wordEnd } from './text.ts';

export interface DirectoryMerchant {
  name: string;
  category: Category;
  /** The account currencies whose countries it trades in, when its name is a common word elsewhere (Orange, Sky); absent: all. */
  currencies?: readonly string[];
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
for (const entry of directory.merchants as ReadonlyArray<{ name: string; category: string; match: string[]; currencies?: string[] }>) {
  const merchant: DirectoryMerchant = { name: entry.name, category: categoryOf(entry.category), ...(entry.currencies ? { currencies: entry.currencies } : {}) };
  for (const spelling of entry.match) {
    BY_WORDS.set(spelling, merchant);
    BY_SQUASHED.set(spelling.replace(/ /g, ''), merchant);
  }
}
/** Every start of a spelling written together ('', W, WH, …, WHOLEFOODS), and every whole one. */
const SQUASHED_STARTS = new HashFilter([...BY_SQUASHED.keys()].flatMap((squashed) => Array.from({ length: squashed.length + 1 }, (_, index) => squashed.slice(0, index))));
const SQUASHED = new HashFilter(BY_SQUASHED.keys());

/** Words in the longest spelling; written together, a spelling may span this many words of text too. */
const MAX_WORDS = Math.max(...directory.merchants.flatMap((entry) => entry.match.map((spelling) => spelling.split(' ').length)));

/** Shorter spellings match word for word only: joined runs of short words (A T T, H M) collide by chance. */
const MIN_SQUASHED_LENGTH = 5;
/** A run written together whose last word is this short or shorter is no spelling: a preposition or an article joined on by chance (BILETY NA is no BILETYNA). */
const SHORT_LAST_WORD = 2;

/**
 * A spelling of one word of at most this many characters (SL, BP, ICA, KFC) is a merchant only where
 * a name starts: elsewhere it is as likely an abbreviation, a legal form or part of another name
 * (PKO BP, a bank; ATM, Milan's transit).
 */
const SHORT = 3;

/** Every spelling in order, for the spellings a name cut short starts (ALABAMA PO → ALABAMA POWER). */
const SPELLINGS: readonly string[] = [...BY_WORDS.keys()].sort();
/** The fewest characters a cut name keeps before it is looked up as the start of a spelling. */
const SHORTEST_CUT = 4;

/** The merchant, unless it trades only in other currencies' countries than the account's. */
function trades(merchant: DirectoryMerchant | undefined, currencyCode: string | undefined): DirectoryMerchant | undefined {
  return merchant && (!merchant.currencies || currencyCode === undefined || merchant.currencies.includes(currencyCode)) ? merchant : undefined;
}

/** The directory's merchant of exactly this spelling (normalized words), if any. */
export function merchantSpelled(spelling: string): DirectoryMerchant | undefined {
  return BY_WORDS.get(spelling);
}

/**
 * The directory's merchant named in `normalized` text (see text.ts), if any. `nameFirst`: the text
 * is a counterparty's name, so a short spelling counts as its first word; otherwise it never does.
 * `currencyCode`: the account's; a merchant that trades only in other currencies' countries is passed
 * over (ORANGE on a dollar account is a county or a colour, not the French operator).
 */
export function findMerchant(normalized: string, nameFirst = false, currencyCode?: string): DirectoryMatch | undefined {
  if (normalized === '') return undefined;
  let best: (Omit<DirectoryMatch, 'words' | 'at'> & { length: number; from: number; to: number }) | undefined;
  // Words are read in place, from one space to the next: a string is made only for a run the filters let through.
  for (let start = 0, startsAt = 0; startsAt <= normalized.length; start++) {
    const startEnds = wordEnd(normalized, startsAt);
    let length = 0;
    let hash = EMPTY_HASH;
    for (let end = start, endsFrom = startsAt, endsAt = startEnds; end < start + MAX_WORDS; end++) {
      length += endsAt - endsFrom;
      hash = hashOf(normalized, endsFrom, endsAt, hash);
      if (!SQUASHED_STARTS.mayHold(hash)) break;
      if (!(best && length <= best.length) && !(end === start && length <= SHORT && !(nameFirst && start === 0)) && SQUASHED.mayHold(hash)) {
        // A spelling word for word is also one written together: a run unknown written together is neither.
        const spaced = normalized.slice(startsAt, endsAt);
        const together = trades(BY_SQUASHED.get(spaced.replaceAll(' ', '')), currencyCode);
        const exact = together && trades(BY_WORDS.get(spaced), currencyCode);
        if (exact) best = { merchant: exact, exact: true, length, from: start, to: end };
        else if (together && length >= MIN_SQUASHED_LENGTH && (end === start || endsAt - endsFrom > SHORT_LAST_WORD)) best = { merchant: together, exact: false, length, from: start, to: end };
      }
      if (endsAt >= normalized.length) break;
      endsFrom = endsAt + 1;
      endsAt = wordEnd(normalized, endsFrom);
    }
    startsAt = startEnds + 1;
  }
  return best && { merchant: best.merchant, exact: best.exact, words: best.to - best.from + 1, at: best.from };
}

/**
 * The one merchant whose spellings start with `normalized`, a name OFX cut at its 32 characters
 * (ALABAMA PO, PGAND), when it is not a whole spelling; none when the start is short or several
 * merchants share it.
 */
export function merchantCutShort(normalized: string, currencyCode?: string): DirectoryMatch | undefined {
  if (normalized.length < SHORTEST_CUT || BY_WORDS.has(normalized)) return undefined;
  let low = 0;
  for (let high = SPELLINGS.length; low < high; ) {
    const middle = (low + high) >>> 1;
    if (SPELLINGS[middle]! < normalized) low = middle + 1;
    else high = middle;
  }
  let found: DirectoryMerchant | undefined;
  for (let at = low; at < SPELLINGS.length && SPELLINGS[at]!.startsWith(normalized); at++) {
    const merchant = BY_WORDS.get(SPELLINGS[at]!)!;
    if (found && found !== merchant) return undefined;
    found = merchant;
  }
  const merchant = trades(found, currencyCode);
  return merchant && { merchant, exact: false, words: normalized.split(' ').length, at: 0 };
}
