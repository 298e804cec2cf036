import { describe, expect, it } from 'vitest';
import { foldLetters, normalize } from '../../src/enrichment/text.ts';

/** The whole-text rule normalize folds by, one character at a time: decompose, drop the marks, upper-case, spell the undecomposable letters. */
const FOLDED: Readonly<Record<string, string>> = { Ø: 'O', Ł: 'L', Đ: 'D', Æ: 'AE', Œ: 'OE' };
const wholeTextFold = (text: string): string =>
  text.normalize('NFD').replace(/\p{M}+/gu, '').toUpperCase().replace(/[ØŁĐÆŒ]/g, (letter) => FOLDED[letter]!);

describe('letters folded character by character, as the whole text would be', () => {
  it('reads accents, ligatures and the letters without a decomposition as the letters they stand for', () => {
    expect(normalize('Płatność kartą Łódź')).toBe('PLATNOSC KARTA LODZ');
    expect(normalize('Kortköp FJÄRRVÄRME Ørsted Æbleskiver Œuvre Đakovo')).toBe('KORTKOP FJARRVARME ORSTED AEBLESKIVER OEUVRE DAKOVO');
    expect(normalize('Straße café ﬁlm Komunālie maksājumi')).toBe('STRASSE CAFE FILM KOMUNALIE MAKSAJUMI');
    // A mark written apart from its letter, and letters outside the Basic Multilingual Plane.
    expect(normalize('Cafe\u0301 𝔄𝔅 x')).toBe('CAFE X');
  });

  it('gives what folding the whole text gives, for every character below U+3000 and a sample above, alone, between letters and repeated', () => {
    const points = [...Array.from({ length: 0x3000 - 0x80 }, (_, index) => index + 0x80), 0x3042, 0xac00, 0xfb01, 0xff21, 0x1d504, 0x1f600, 0xd800];
    for (const point of points) {
      const character = String.fromCodePoint(point);
      for (const text of [character, `a${character}b`, `${character}${character} ${character}`]) {
        expect(foldLetters(text), `U+${point.toString(16).toUpperCase()}`).toBe(wholeTextFold(text));
      }
    }
  });
});
