/**
 * Words that look like evidence and are not, each dropped from the normalized text (text.ts) before
 * the step it would mislead:
 * - a person's name after a title (SR ANTONIO COSTA, DR K JONES, Praxis Dr. med. Weber): a surname
 *   is no merchant, whatever chain shares it;
 * - a payment scheme's name (MobilePay, Apple Pay, pago móvil, MB WAY): how the money moved, not
 *   what it bought, so MOBILE in it is no telephone bill.
 */
import { phrasesRegex } from './text.ts';

/** Titles before a person's name, in the languages the pipeline reads (DR at a UK line's end, a debit, is gone by then: clean.ts). */
const TITLES = ['MR', 'MRS', 'MS', 'MISS', 'SR', 'SRA', 'SRTA', 'HERR', 'FRAU', 'MME', 'MLLE', 'PANI', 'SIG', 'SIGRA', 'DOTT', 'DOTTSSA', 'DR MED', 'DR', 'DRS', 'PROF', 'LDO'];
/** A title and up to three words of a name after it (initials included), not where the text starts: MR COOPER is a lender. */
const PERSON = new RegExp(`(?<= )(?:${TITLES.join('|')})(?: [A-Z]+){1,3}(?![A-Z0-9])`, 'g');

const SCHEME_NAMES = ['MOBILE PAY', 'MOBILEPAY', 'APPLE PAY', 'GOOGLE PAY', 'SAMSUNG PAY', 'PAGO MOVIL', 'MB WAY', 'MBWAY', 'PAYCONIQ', 'BANCONTACT', 'TWINT', 'V PAY', 'PAYLIB'];
const SCHEMES = phrasesRegex(SCHEME_NAMES, 'g');
const ANY_SCHEME = phrasesRegex(SCHEME_NAMES);

/** The text without people's names after a title. */
export function withoutPersonNames(normalized: string): string {
  return normalized.includes(' ') ? normalized.replace(PERSON, ' ').replace(/ {2,}/g, ' ').trim() : normalized;
}

/** The text without payment schemes' names. */
export function withoutPaymentSchemes(normalized: string): string {
  if (!ANY_SCHEME.test(normalized)) return normalized;
  return normalized.replace(SCHEMES, ' ').replace(/ {2,}/g, ' ').trim();
}
