/**
 * Lists of phrases found in normalized text (text.ts) by looking its words up, as phrasesRegex finds
 * them: a phrase matches as whole words, and a `*` at either end stands for more letters of the same
 * word (VERSICHERUNG* also finds VERSICHERUNGEN, *VERSICHERUNG also KFZVERSICHERUNG). The rules'
 * lists hold hundreds of phrases each and every transaction is read against all of them: one map
 * lookup per word of text finds the few phrases that can start there, where one regex per list
 * tried every phrase at every place.
 */

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
 * Characters a word is keyed by: a wildcard word by its first (VERSICHERUNG*) or last
 * (*VERSICHERUNG) ones, any word first by its first ones, to skip the lookup of a word no phrase
 * starts like (most of a text's).
 */
const KEY = 3;
/** A key's characters as digits: A-Z, 0-9, and one for any other or none (a shorter word's end). */
const BASE = 37;
const KEYS = BASE ** KEY;
/** What a key's flags say phrases have: a first word of those first characters, a wildcard word starting, or one ending with them. */
const WHOLE = 1;
const STARTS = 2;
const ENDS = 4;
/** The key of no characters, which no phrase has: a word shorter than KEY ends with no wildcard's. */
const NO_KEY = KEYS - 1;
const NORMALIZED_PHRASE = /^\*?[A-Z0-9]+(?: [A-Z0-9]+)*\*?$/;

export class PhraseIndex {
  readonly #keys = new Uint8Array(KEYS);
  readonly #byFirstWord = new Map<string, Entry[]>();
  readonly #byStart = new Map<number, Entry[]>();
  readonly #byEnd = new Map<number, Entry[]>();
  /** Wildcards too short to key (PC*) and phrases starred at both ends: tried at every word. */
  readonly #everywhere: Entry[] = [];

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
        const whole = !lead && !(trail && words.length === 1);
        if (whole) {
          add(this.#byFirstWord, first, entry);
          this.#keys[keyOf(first, 0)]! |= WHOLE;
        } else if ((lead && trail && words.length === 1) || first.length < KEY) {
          this.#everywhere.push(entry);
        } else {
          const key = keyOf(first, lead ? first.length - KEY : 0);
          add(lead ? this.#byEnd : this.#byStart, key, entry);
          this.#keys[key]! |= lead ? ENDS : STARTS;
        }
      });
    });
  }

  /** True when a phrase of any list is in `normalized`. */
  test(normalized: string): boolean {
    const words = normalized.split(' ');
    for (let at = 0; at < words.length; at++) {
      const word = words[at]!;
      const first = keyOf(word, 0);
      const last = word.length >= KEY ? keyOf(word, word.length - KEY) : NO_KEY;
      if (
        anyAt(this.#everywhere, words, at) ||
        (this.#keys[first]! & WHOLE && anyAt(this.#byFirstWord.get(word), words, at)) ||
        (this.#keys[first]! & STARTS && anyAt(this.#byStart.get(first), words, at)) ||
        (this.#keys[last]! & ENDS && anyAt(this.#byEnd.get(last), words, at))
      ) {
        return true;
      }
    }
    return false;
  }

  /**
   * Every list with a phrase in `normalized`, in the lists' order, with its leftmost match (the
   * longest phrase there, as the list's regex would take it).
   */
  matches(normalized: string): PhraseMatch[] {
    const words = normalized.split(' ');
    const found: Found[] = [];
    for (let at = 0; at < words.length; at++) {
      const word = words[at]!;
      const first = keyOf(word, 0);
      const last = word.length >= KEY ? keyOf(word, word.length - KEY) : NO_KEY;
      record(found, this.#everywhere, words, at);
      if (this.#keys[first]! & WHOLE) record(found, this.#byFirstWord.get(word), words, at);
      if (this.#keys[first]! & STARTS) record(found, this.#byStart.get(first), words, at);
      if (this.#keys[last]! & ENDS) record(found, this.#byEnd.get(last), words, at);
    }
    if (found.length > 1) found.sort((a, b) => a.list - b.list);
    return found.map((match) => ({ list: match.list, length: spanLength(words, match.at, match.words) }));
  }
}

/** A list's leftmost match so far: where, the phrase's rank, and how many words it took. */
interface Found {
  list: number;
  at: number;
  rank: number;
  words: number;
}

function anyAt(entries: readonly Entry[] | undefined, words: readonly string[], at: number): boolean {
  if (entries) for (const entry of entries) if (matchesAt(words, at, entry)) return true;
  return false;
}

/** Keeps each list's leftmost match, and there the phrase its regex tries first (a text matches few lists: a scan finds one). */
function record(found: Found[], entries: readonly Entry[] | undefined, words: readonly string[], at: number): void {
  if (!entries) return;
  for (const entry of entries) {
    const earlier = found.find((match) => match.list === entry.list);
    if ((earlier && (earlier.at < at || earlier.rank < entry.rank)) || !matchesAt(words, at, entry)) continue;
    if (earlier) Object.assign(earlier, { rank: entry.rank, words: entry.words.length });
    else found.push({ list: entry.list, at, rank: entry.rank, words: entry.words.length });
  }
}

/** Three characters from `from` as one number below KEYS: a key without a string to make and hash. */
function keyOf(word: string, from: number): number {
  return (digitOf(word.charCodeAt(from)) * BASE + digitOf(word.charCodeAt(from + 1))) * BASE + digitOf(word.charCodeAt(from + 2));
}

/** A-Z as 0-25, 0-9 as 26-35, anything else (NaN past the end) as 36. */
function digitOf(code: number): number {
  if (code >= 65 && code <= 90) return code - 65;
  if (code >= 48 && code <= 57) return code - 22;
  return BASE - 1;
}

function add<Key>(map: Map<Key, Entry[]>, key: Key, entry: Entry): void {
  const entries = map.get(key);
  if (entries) entries.push(entry);
  else map.set(key, [entry]);
}

function matchesAt(words: readonly string[], at: number, { words: phrase, lead, trail }: Entry): boolean {
  if (at + phrase.length > words.length) return false;
  const last = phrase.length - 1;
  for (let offset = 0; offset <= last; offset++) {
    const word = words[at + offset]!;
    const part = phrase[offset]!;
    const starred = offset === 0 && lead;
    const open = offset === last && trail;
    if (!(starred && open ? word.includes(part) : starred ? word.endsWith(part) : open ? word.startsWith(part) : word === part)) return false;
  }
  return true;
}

/** Characters of `count` words from `at`, with the spaces between them. */
function spanLength(words: readonly string[], at: number, count: number): number {
  let length = count - 1;
  for (let offset = 0; offset < count; offset++) length += words[at + offset]!.length;
  return length;
}
