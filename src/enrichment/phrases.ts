/**
 * Lists of phrases found in normalized text (text.ts) by looking its words up, as phrasesRegex finds
 * them: a phrase matches as whole words, and a `*` at either end stands for more letters of the same
 * word (VERSICHERUNG* also finds VERSICHERUNGEN, *VERSICHERUNG also KFZVERSICHERUNG). The rules'
 * lists hold hundreds of phrases each and every transaction is read against all of them: a word's
 * first and last characters, read in place, pick the few phrases that can start there, where one
 * regex per list tried every phrase at every place.
 */
import { HashFilter, hashOf } from './hash-filter.ts';
import { CHARACTER_KEY_LENGTH, CHARACTER_KEYS, characterKey, wordEnd } from './text.ts';

/** A phrase's words, its stars taken off, and where it came from. */
interface Entry {
  list: number;
  words: readonly string[];
  /** `*` before the first word: that word of text only ends with it. */
  lead: boolean;
  /** `*` after the last word: that word of text only starts with it. */
  trail: boolean;
  /** Its place in phrasesRegex's order (longest first), which decides between phrases matching at the same word. */
  rank: number;
}

/** What a list matched first in a text: the match phrasesRegex would return, by its length. */
export interface PhraseMatch {
  list: number;
  length: number;
}

/**
 * Characters a word is keyed by: any word by its first ones, a wildcard word (VERSICHERUNG*,
 * *VERSICHERUNG) by its first or last ones. A word whose keys no phrase has (most of a text's) is
 * passed over without a lookup.
 */
const KEY = CHARACTER_KEY_LENGTH;
/** What a key's flags say phrases have: a first word of those first characters, a wildcard word starting, or one ending with them. */
const WHOLE = 1;
const STARTS = 2;
const ENDS = 4;
const NORMALIZED_PHRASE = /^\*?[A-Z0-9]+(?: [A-Z0-9]+)*\*?$/;

export class PhraseIndex {
  readonly #keys = new Uint8Array(CHARACTER_KEYS);
  readonly #byFirstWord = new Map<string, Entry[]>();
  readonly #byStart = new Map<number, Entry[]>();
  readonly #byEnd = new Map<number, Entry[]>();
  /** Wildcards too short to key (PC*) and phrases starred at both ends: tried at every word. */
  readonly #everywhere: Entry[] = [];
  /** Every first word of #byFirstWord: a word of text none of them is (most, even with a known key) is looked up without a string made. */
  readonly #firstWords: HashFilter;

  /** `lists`: lists of phrases in normalized form, each matched on its own (a rule's, say). */
  constructor(lists: readonly (readonly string[])[]) {
    lists.forEach((phrases, list) => {
      const ordered = [...phrases].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
      ordered.forEach((phrase, rank) => {
        if (!NORMALIZED_PHRASE.test(phrase)) throw new Error(`"${phrase}" is not a phrase in normalized form (text.ts): it would never match`);
        const lead = phrase.startsWith('*');
        const trail = phrase.endsWith('*');
        const words = phrase.slice(lead ? 1 : 0, trail ? -1 : undefined).split(' ');
        const entry: Entry = { list, words, lead, trail, rank };
        const first = words[0]!;
        if (!lead && !(trail && words.length === 1)) {
          add(this.#byFirstWord, first, entry);
          this.#keys[characterKey(first, 0)]! |= WHOLE;
        } else if ((lead && trail && words.length === 1) || first.length < KEY) {
          this.#everywhere.push(entry);
        } else {
          const key = characterKey(first, lead ? first.length - KEY : 0);
          add(lead ? this.#byEnd : this.#byStart, key, entry);
          this.#keys[key]! |= lead ? ENDS : STARTS;
        }
      });
    });
    this.#firstWords = new HashFilter(this.#byFirstWord.keys());
  }

  /**
   * Every list with a phrase in `normalized`, in the lists' order, with its leftmost match (the
   * longest phrase there, as the list's regex would take it).
   */
  matches(normalized: string): PhraseMatch[] {
    const found: Found[] = [];
    for (let start = 0; start <= normalized.length; ) {
      const end = wordEnd(normalized, start);
      const first = characterKey(normalized, start, end);
      record(found, normalized, start, end, this.#everywhere);
      if (this.#keys[first]! & WHOLE && this.#firstWords.mayHold(hashOf(normalized, start, end))) record(found, normalized, start, end, this.#byFirstWord.get(normalized.slice(start, end)));
      if (this.#keys[first]! & STARTS) record(found, normalized, start, end, this.#byStart.get(first));
      const last = end - start >= KEY ? characterKey(normalized, end - KEY, end) : undefined;
      if (last !== undefined && this.#keys[last]! & ENDS) record(found, normalized, start, end, this.#byEnd.get(last));
      start = end + 1;
    }
    if (found.length > 1) found.sort((a, b) => a.list - b.list);
    // Pushed, not mapped: map's result is holey once inlined, and its readers were optimized for packed arrays.
    const matched: PhraseMatch[] = [];
    for (const { list, start, end } of found) matched.push({ list, length: end - start });
    return matched;
  }
}

/** A list's leftmost match so far: where it starts and ends, and the phrase's rank. */
interface Found {
  list: number;
  start: number;
  end: number;
  rank: number;
}

/**
 * Keeps each list's leftmost match among `entries` from the word of `text` from `start` to `end`, and
 * there the phrase its regex tries first (a text matches few lists: a scan finds one).
 */
function record(found: Found[], text: string, start: number, end: number, entries: readonly Entry[] | undefined): void {
  if (!entries) return;
  for (const entry of entries) {
    const earlier = foundFor(found, entry.list);
    if (earlier && (earlier.start < start || earlier.rank < entry.rank)) continue;
    const matched = matchEnd(text, start, end, entry);
    if (matched < 0) continue;
    if (earlier) {
      earlier.end = matched;
      earlier.rank = entry.rank;
    } else found.push({ list: entry.list, start, end: matched, rank: entry.rank });
  }
}

/** The list's match so far, if any: a loop, where `find` would make a closure for every entry tried. */
function foundFor(found: readonly Found[], list: number): Found | undefined {
  for (const match of found) if (match.list === list) return match;
  return undefined;
}

function add<Key>(map: Map<Key, Entry[]>, key: Key, entry: Entry): void {
  const entries = map.get(key);
  if (entries) entries.push(entry);
  else map.set(key, [entry]);
}

/** Where the phrase matched from the word of `text` from `start` to `end` ends, or -1 when it does not match there. */
function matchEnd(text: string, start: number, end: number, { words, lead, trail }: Entry): number {
  const last = words.length - 1;
  for (let offset = 0; offset <= last; offset++) {
    if (offset > 0) {
      if (end >= text.length) return -1;
      start = end + 1;
      end = wordEnd(text, start);
    }
    const part = words[offset]!;
    const length = end - start;
    const starred = offset === 0 && lead;
    const open = offset === last && trail;
    if (!(starred && open ? within(text, part, start, end) : starred ? length >= part.length && text.startsWith(part, end - part.length) : open ? length >= part.length && text.startsWith(part, start) : length === part.length && text.startsWith(part, start))) return -1;
  }
  return end;
}

/** True when `part` is in `text` between `start` and `end`. */
function within(text: string, part: string, start: number, end: number): boolean {
  const at = text.indexOf(part, start);
  return at >= 0 && at + part.length <= end;
}
