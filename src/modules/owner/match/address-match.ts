import type { PostalAddress } from '../../../providers/provider-owners.ts';
import { best, MATCH_THRESHOLD } from './threshold.ts';
import { sharedWords, wordsOf } from './words.ts';

export interface AddressMatch {
  score: number;
  matched: boolean;
  postalCodeMatched: boolean | null;
}

/** Street words written alike however they are spelt out. */
const ABBREVIATIONS: Record<string, string> = {
  street: 'st', avenue: 'ave', av: 'ave', road: 'rd', boulevard: 'blvd', drive: 'dr', lane: 'ln', court: 'ct',
  place: 'pl', terrace: 'ter', parkway: 'pkwy', highway: 'hwy', square: 'sq', circle: 'cir', way: 'wy',
  north: 'n', south: 's', east: 'e', west: 'w', northeast: 'ne', northwest: 'nw', southeast: 'se', southwest: 'sw',
  strasse: 'str', platz: 'pl',
};
/** Words that start the unit part of a first line (`Apt 4`, `Suite 300`, `#5`): what follows is not the street. */
const UNIT_WORDS = new Set(['apt', 'apartment', 'suite', 'ste', 'unit', 'floor', 'fl', 'room', 'rm', 'flat']);

/** An address as compared. */
interface AddressKey {
  number: string | null;
  street: string[];
  unit: string;
  postalCode: string | null;
  city: string;
}

/**
 * The profile's address against the owners' addresses (the contract's `OwnerAddressMatch`), the
 * best pair kept; null when either side has no street or postal code to compare.
 */
export function matchAddress(profileAddress: PostalAddress | null, ownerAddresses: readonly PostalAddress[]): AddressMatch | null {
  const mine = profileAddress && keyOf(profileAddress);
  if (!mine || !comparable(mine)) return null;
  const top = best(ownerAddresses.map(keyOf).filter(comparable).map((theirs) => compareKeys(mine, theirs)));
  return top && { ...top, matched: top.score >= MATCH_THRESHOLD };
}

/** Two addresses in the contract's scale, with whether their postal codes agree (null: either has none). */
export function compareAddresses(a: PostalAddress, b: PostalAddress): Omit<AddressMatch, 'matched'> {
  return compareKeys(keyOf(a), keyOf(b));
}

function compareKeys(a: AddressKey, b: AddressKey): Omit<AddressMatch, 'matched'> {
  const postalCodeMatched = a.postalCode && b.postalCode ? samePostalCode(a.postalCode, b.postalCode) : null;
  const numberSame = a.number !== null && a.number === b.number;
  const streetSame = a.street.length > 0 && a.street.join(' ') === b.street.join(' ');
  const result = (score: number) => ({ score, postalCodeMatched });
  if (numberSame && streetSame) {
    if (postalCodeMatched === true) return result(a.unit && b.unit && a.unit !== b.unit ? 90 : 100);
    if (postalCodeMatched === null && a.city && a.city === b.city) return result(90);
    return result(50);
  }
  if (numberSame && postalCodeMatched === true && sharedWords(a.street, b.street) > 0) return result(80);
  return result(postalCodeMatched === true ? 30 : 0);
}

function comparable(key: AddressKey): boolean {
  return key.street.length > 0 || key.postalCode !== null;
}

function keyOf(address: PostalAddress): AddressKey {
  const words = wordsOf(address.line1?.replace(/#/g, ' unit '));
  const unitAt = words.findIndex((word) => UNIT_WORDS.has(word));
  const line = unitAt === -1 ? words : words.slice(0, unitAt);
  const unit = [...(unitAt === -1 ? [] : words.slice(unitAt + 1)), ...wordsOf(address.line2).filter((word) => !UNIT_WORDS.has(word))].join(' ');
  const number = line.find((word) => /\d/.test(word)) ?? null;
  const street = line.filter((word) => word !== number).map(abbreviated);
  const postalCode = address.postalCode?.toUpperCase().replace(/[\s-]/g, '') || null;
  return { number, street, unit, postalCode, city: wordsOf(address.city).join(' ') };
}

/** `Hauptstraße` and `Hauptstr` alike; `Street` and `St` alike. */
function abbreviated(word: string): string {
  if (ABBREVIATIONS[word]) return ABBREVIATIONS[word];
  return word.endsWith('strasse') && word.length > 7 ? `${word.slice(0, -7)}str` : word;
}

/** Equal postal codes; a US ZIP+4 agrees with its five-digit ZIP. */
function samePostalCode(a: string, b: string): boolean {
  if (a === b) return true;
  const zip = /^\d{5}(\d{4})?$/;
  return zip.test(a) && zip.test(b) && a.slice(0, 5) === b.slice(0, 5);
}
