import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { best, fieldMatch, type FieldMatch } from './threshold.ts';

/** A phone number read for comparison: E.164 (or its digits when it does not parse) and its extension. */
interface ReadNumber {
  number: string;
  extension: string | null;
}

/**
 * The number in E.164 (`+14155550123`) when it parses as a possible phone number, one without a
 * country code read in `region` (ISO 3166 alpha-2; null: it must carry one); otherwise as written.
 */
export function toE164(text: string, region: string | null): string {
  return readNumber(text, region)?.number ?? text.trim();
}

function readNumber(text: string, region: string | null): ReadNumber | null {
  const parsed = parsePhoneNumberFromString(text, { defaultCountry: asCountry(region), extract: false });
  if (parsed?.isPossible()) return { number: parsed.number, extension: parsed.ext ?? null };
  return null;
}

function asCountry(region: string | null): CountryCode | undefined {
  return region && /^[A-Z]{2}$/.test(region.toUpperCase()) ? (region.toUpperCase() as CountryCode) : undefined;
}

/**
 * The profile's phone against the owners' numbers (the contract's `OwnerFieldMatch`), the best pair
 * kept; null when either side has none. `region` reads numbers without a country code.
 */
export function matchPhone(profilePhone: string | null, ownerPhones: readonly string[], region: string | null): FieldMatch | null {
  if (!profilePhone) return null;
  const top = best(ownerPhones.map((phone) => ({ score: comparePhones(profilePhone, phone, region) })));
  return top && fieldMatch(top.score);
}

/** 100: the same number and extension (or none); 90: the same number, the extensions differing; otherwise 0. A number that does not parse is compared by its digits. */
export function comparePhones(a: string, b: string, region: string | null): number {
  const [left, right] = [a, b].map((text) => readNumber(text, region) ?? { number: text.replace(/\D/g, ''), extension: null });
  if (!left!.number || left!.number !== right!.number) return 0;
  return left!.extension === right!.extension ? 100 : 90;
}
