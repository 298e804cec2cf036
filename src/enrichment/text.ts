/**
 * The comparable form of bank text: accents dropped (LÖN, Kortköp, Café and Płatność compare as LON,
 * KORTKOP, CAFE and PLATNOSC), upper case, apostrophes dropped (TRADER JOE'S as TRADER JOES), every other run of
 * non-letters and non-digits one space. Directory patterns, rules and places are written in it.
 * It runs several times for every transaction, so it is one pass over the characters; only text
 * with a character beyond ASCII goes through Unicode decomposition first.
 */
export function normalize(text: string): string {
  if (isNormalized(text)) return text;
  return joinWords(text, true) ?? joinWords(foldLetters(text), false)!;
}

/**
 * Each word normalized, in a packed array: `words.map(normalize)` gives a holey one once TurboFan
 * inlines `map`, and the functions that read the words, optimized for the packed arrays `split` gives,
 * then deoptimize ("wrong map") well into a run.
 */
export function normalizeEach(words: readonly string[]): string[] {
  const normalized: string[] = [];
  for (const word of words) normalized.push(normalize(word));
  return normalized;
}

/**
 * True when `text` is in normalized form already (STARBUCKS, ACME LOGISTICS: words of A-Z and 0-9 between
 * single spaces): normalize would return it, and each of its words, as they are. Read character by
 * character: it is asked several times a line, mostly of short text, where a regex's call costs more.
 */
export function isNormalized(text: string): boolean {
  let afterSpace = true;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 32) {
      if (afterSpace) return false;
      afterSpace = true;
    } else if ((code >= 65 && code <= 90) || (code >= 48 && code <= 57)) afterSpace = false;
    else return false;
  }
  return !afterSpace;
}

/** Letters without a decomposition, written as the letters they are read as. */
const FOLDED: Readonly<Record<string, string>> = { Ø: 'O', Ł: 'L', Đ: 'D', Æ: 'AE', Œ: 'OE' };

/** One character (a code point) upper case without accents: the rule foldLetters applies to each. */
function foldCharacter(character: string): string {
  return character
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .replace(/[ØŁĐÆŒ]/g, (letter) => FOLDED[letter]!);
}

/** Code points below this (Latin, Greek, Cyrillic and the rest of most banks' text) keep their folded form once made. */
const CACHED_BELOW = 0x3000;
const foldedCharacters = new Array<string | undefined>(CACHED_BELOW);

/**
 * Upper case without accents: Kortköp as KORTKOP, Łódź as LODZ. Character by character, each folded
 * once and kept: String.prototype.normalize over a whole line costs about as much as the rest of the
 * line's reading, and decomposing, dropping marks and upper-casing each act on one character at a time.
 */
export function foldLetters(text: string): string {
  let folded = '';
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 128) {
      folded += code >= 97 && code <= 122 ? String.fromCharCode(code - 32) : text.charAt(at);
      continue;
    }
    const point = text.codePointAt(at)!;
    if (point > 0xffff) {
      folded += foldCharacter(String.fromCodePoint(point));
      at++;
      continue;
    }
    if (point >= CACHED_BELOW) {
      folded += foldCharacter(text.charAt(at));
      continue;
    }
    folded += foldedCharacters[point] ??= foldCharacter(text.charAt(at));
  }
  return folded;
}

/** ', ` and ’: dropped, so that TRADER JOE'S reads as TRADER JOES. */
const APOSTROPHES = [0x27, 0x60, 0x2019];

/**
 * The runs of A-Z and 0-9 of `text`, upper-cased, apostrophes dropped inside them, joined by one
 * space; undefined when `asciiOnly` and the text has a character beyond ASCII (it needs folding first).
 */
function joinWords(text: string, asciiOnly: boolean): string | undefined {
  let joined = '';
  let apart = false;
  let start = -1;
  let lower = false;
  for (let at = 0; at <= text.length; at++) {
    const code = at < text.length ? text.charCodeAt(at) : 0;
    if ((code >= 65 && code <= 90) || (code >= 48 && code <= 57) || (code >= 97 && code <= 122)) {
      if (start < 0) start = at;
      lower ||= code >= 97;
      continue;
    }
    if (asciiOnly && code >= 128) return undefined;
    if (start >= 0) {
      const word = lower ? text.slice(start, at).toUpperCase() : text.slice(start, at);
      joined += apart && joined !== '' ? ` ${word}` : word;
      apart = false;
      lower = false;
      start = -1;
    }
    if (!APOSTROPHES.includes(code)) apart = true;
  }
  return joined;
}

/** How many words normalized text has (split at its spaces), counted without splitting it. */
export function wordCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf(' '); at >= 0; at = text.indexOf(' ', at + 1)) count++;
  return count;
}

/** Where the word of normalized text from `start` ends: at the next space, or the text's end. */
export function wordEnd(text: string, start: number): number {
  const space = text.indexOf(' ', start);
  return space < 0 ? text.length : space;
}

/** How many characters of a word characterKey reads. */
export const CHARACTER_KEY_LENGTH = 3;
/** A key's characters as digits: A-Z, 0-9, and one for any other or none (past a shorter word's end). */
const KEY_BASE = 37;
/** Every key is below this. */
export const CHARACTER_KEYS = KEY_BASE ** CHARACTER_KEY_LENGTH;

/**
 * Three characters of normalized text from `from` as one number, those at `to` or after (past a
 * word's end) as none: an index into a table of flags (a word of text may start a phrase or a
 * spelling only if its first characters are a known key), checked without a string to make and hash.
 */
export function characterKey(text: string, from: number, to = text.length): number {
  let key = 0;
  for (let at = from; at < from + CHARACTER_KEY_LENGTH; at++) key = key * KEY_BASE + (at < to ? keyDigit(text.charCodeAt(at)) : KEY_BASE - 1);
  return key;
}

/** A-Z as 0-25, 0-9 as 26-35, anything else as 36. */
function keyDigit(code: number): number {
  if (code >= 65 && code <= 90) return code - 65;
  if (code >= 48 && code <= 57) return code - 22;
  return KEY_BASE - 1;
}

/** The normalized form without spaces, for names written together (WHOLEFOODS, TRADERJOES). */
export function squash(normalized: string): string {
  return normalized.replace(/ /g, '');
}

/** Regex source matching a literal string. */
export function escapeRegex(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * One regex matching any of `phrases` as whole words of normalized text, longest first (so UBER EATS
 * wins over UBER at the same place). A `*` at either end of a phrase stands for more letters of the
 * same word: VERSICHERUNG* also finds VERSICHERUNGEN, *VERSICHERUNG also KFZVERSICHERUNG. Its word
 * boundaries are `\b`: in normalized text, whose words are A-Z and 0-9 between single spaces, the
 * same places as "no letter or digit on that side", found twice as fast as with a lookbehind.
 */
export function phrasesRegex(phrases: readonly string[], flags = ''): RegExp {
  const sources = [...phrases]
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .map((phrase) => {
      const lead = phrase.startsWith('*') ? '[A-Z0-9]*' : '';
      const tail = phrase.endsWith('*') ? '[A-Z0-9]*' : '';
      return `${lead}${escapeRegex(phrase.replace(/^\*|\*$/g, ''))}${tail}`;
    });
  return new RegExp(String.raw`\b(?:${sources.join('|')})\b`, flags);
}
