/**
 * The comparable form of bank text: accents dropped (LÖN, Kortköp, Café and Płatność compare as LON,
 * KORTKOP, CAFE and PLATNOSC), upper case, apostrophes dropped (TRADER JOE'S as TRADER JOES), every other run of
 * non-letters and non-digits one space. Directory patterns, rules and places are written in it.
 */
export function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .replace(/Ø/g, 'O')
    .replace(/Ł/g, 'L')
    .replace(/Đ/g, 'D')
    .replace(/Æ/g, 'AE')
    .replace(/Œ/g, 'OE')
    .replace(/['’`]/g, '')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
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
 * same word: VERSICHERUNG* also finds VERSICHERUNGEN, *VERSICHERUNG also KFZVERSICHERUNG.
 */
export function phrasesRegex(phrases: readonly string[], flags = ''): RegExp {
  const sources = [...phrases]
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .map((phrase) => {
      const lead = phrase.startsWith('*') ? '[A-Z0-9]*' : '';
      const tail = phrase.endsWith('*') ? '[A-Z0-9]*' : '';
      return `${lead}${escapeRegex(phrase.replace(/^\*|\*$/g, ''))}${tail}`;
    });
  return new RegExp(`(?<![A-Z0-9])(?:${sources.join('|')})(?![A-Z0-9])`, flags);
}
