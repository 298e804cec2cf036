/**
 * Words that look like evidence and are not, each kept from the step it would mislead:
 * - a person's name after a title (SR ANTONIO COSTA, DR PENNY WALSH, Praxis Dr. med. Weber): a
 *   surname is no merchant, whatever chain shares it;
 * - a payment scheme's name (MobilePay, Apple Pay, pago móvil, MB WAY, NatWest's VIA MOBILE - PYMT): how the money
 *   moved, not what it bought, so MOBILE in it is no telephone bill.
 */
import { phrasesRegex } from './text.ts';

/** Civil titles before a person's name (Mr, Mme, Sr, Pani), in the languages the pipeline reads. */
export const CIVIL_TITLES: ReadonlySet<string> = new Set(['MR', 'MRS', 'MS', 'MISS', 'M', 'SR', 'SRA', 'SRTA', 'HERR', 'FRAU', 'MME', 'MLLE', 'PANI', 'SIG', 'SIGRA', 'DHR', 'MEVR', 'MAG']);
/** Every title before a person's name, a doctor's too (DR at a UK line's end, a debit, is gone by then: clean.ts). */
const TITLES = new Set([...CIVIL_TITLES, 'DOTT', 'DOTTSSA', 'DR', 'MED', 'DRS', 'PROF', 'LDO']);
/** A person's name after a title is this many words at most (SR MANUEL ANTONIO COSTA). */
const NAME_WORDS = 3;

const SCHEME_NAMES = ['VIA MOBILE PYMT', 'MOBILE PAY', 'MOBILEPAY', 'APPLE PAY', 'GOOGLE PAY', 'SAMSUNG PAY', 'PAGO MOVIL', 'MB WAY', 'MBWAY', 'PAYCONIQ', 'BANCONTACT', 'TWINT', 'V PAY', 'PAYLIB'];
const SCHEMES = phrasesRegex(SCHEME_NAMES, 'g');
const ANY_SCHEME = phrasesRegex(SCHEME_NAMES);

/**
 * True when the word at `at` of `normalized` is part of a person's name: a title stands up to three
 * words before it, a letter alone not after another (the M of H M HENNES MAURITZ is H&M's). A spelling
 * that starts with the title itself (MR COOPER, a lender) is no person's.
 */
export function followsTitle(normalized: string, at: number): boolean {
  if (at === 0) return false;
  const words = normalized.split(' ');
  for (let back = 1; back <= Math.min(NAME_WORDS, at); back++) if (TITLES.has(words[at - back]!) && !isInitials(words, at - back)) return true;
  return false;
}

/** A letter alone after another (H M of H&M, J P of J.P.): initials, not French M. (monsieur). */
function isInitials(words: readonly string[], at: number): boolean {
  return words[at]!.length === 1 && at > 0 && words[at - 1]!.length === 1;
}

/** The text without payment schemes' names. */
export function withoutPaymentSchemes(normalized: string): string {
  if (!ANY_SCHEME.test(normalized)) return normalized;
  return normalized.replace(SCHEMES, ' ').replace(/ {2,}/g, ' ').trim();
}
