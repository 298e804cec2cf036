import fc from 'fast-check';
import { PREFIXES } from '../../src/lib/ids.ts';

/** Every id prefix (`p`, `conn`, `acct`, …). */
const ID_PREFIXES: string[] = Object.values(PREFIXES);

/**
 * A placeholder for the `index`-th real record with this id prefix, replaced when the request is sent
 * (see World.resolve): generated requests stay pure values, and records made later still resolve.
 */
const idToken = (prefix: string, index: number) => `⟪${prefix}:${index}⟫`;

/** Placeholders as they appear in generated text. */
export const ID_TOKEN = /⟪([a-z]+):(\d+)⟫/g;

const BODY = fc.stringMatching(/^[0-9a-hjkmnp-tv-z]{26}$/);

/** One of the fuzz world's real records of this prefix. */
export const realId = (prefix: string) => fc.nat(3).map((index) => idToken(prefix, index));

/** A real record of any kind. */
export const anyRealId = fc.constantFrom(...ID_PREFIXES).chain(realId);

/** Ids aimed at a slot that takes `prefix`: real ones, well-formed unknown ones, other kinds, near misses. */
export function idFor(prefix: string | undefined): fc.Arbitrary<string> {
  const own = prefix ?? 'p';
  return fc.oneof(
    { weight: 6, arbitrary: realId(own) },
    { weight: 2, arbitrary: BODY.map((body) => `${own}_${body}`) },
    { weight: 2, arbitrary: anyRealId },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...ID_PREFIXES), BODY).map(([other, body]) => `${other}_${body}`) },
    { weight: 1, arbitrary: realId(own).map((token) => `${token}x`) },
    { weight: 1, arbitrary: fc.constantFrom(`${own}_`, `${own}_${'0'.repeat(26)}`, `${own}_${'z'.repeat(26)}`, `${own.toUpperCase()}_01JDQ3V6X8F9K2M4N7P0R5S8TW`, `${own}_01jdq3v6x8f9k2m4n7p0r5s8tu`, `${own}_01jdq3v6x8f9k2m4n7p0r5s8t`, `${own}_01jdq3v6x8f9k2m4n7p0r5s8tww`) },
  );
}

/** The id prefix a contract pattern or description names: `^p_[0-9a-hjkmnp-tv-z]{26}$`, "Identifier (`acct_…`)" → `p`, `acct`. */
export function prefixIn(text: string | undefined): string | undefined {
  return [...(text ?? '').matchAll(/[\^`]([a-z]+)_/g)].map((match) => match[1]).find((prefix) => ID_PREFIXES.includes(prefix));
}
