/**
 * Sensitive data in custom metadata (metadata is not encrypted and travels in every event): emails, phone numbers and birthdays
 * belong in the Profile's encrypted fields. A value is scanned as text, so what is refused as a whole
 * value is refused inside a sentence too; ids, amounts, account numbers and ordinary dates pass.
 */

const SENSITIVE_KEY = /e-?mail|phone|mobile|birth|dob|bday|ssn/i;

// local@domain.tld, the top-level domain in letters (so `react@18.2.0` and `gold@tier` are not emails).
const EMAIL = /[^\s@<>()[\]\\,;:"']+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}(?![\p{L}\p{N}-])/u;
// International: `+` and 8–15 digits, one space, dot or hyphen (and parentheses) between digits.
const INTERNATIONAL_PHONE = /(?<![\p{L}\p{N}+])\+\d(?:\)?[ .-]?\(?\d){7,14}(?!\d)/gu;
// A signed amount such as `+123456.78` has the shape of a short international number.
const SIGNED_AMOUNT = /^\+\d+\.\d{1,2}$/;
// North American with separators: (415) 555-0123, 415-555-0123, 415.555.0123, 1 415 555 0123.
// Digits without separators (`4155550123`) read as ids and order numbers.
const NATIONAL_PHONE = /(?<![\p{L}\p{N}+.,-])(?:1[ .-])?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}(?!\d|[.,]\d)/u;

const MONTHS = 'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const monthNumber = (name: string) => ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].indexOf(name.slice(0, 3).toLowerCase()) + 1;

type Reading = [year: number, month: number, day: number];

/** Date shapes and how each match may read (day and month order is ambiguous in D/M/Y and M/D/Y). */
const DATE_SHAPES: Array<{ pattern: RegExp; readings: (match: RegExpExecArray) => Reading[] }> = [
  { pattern: /(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/g, readings: (m) => [[+m[1]!, +m[2]!, +m[3]!]] },
  {
    pattern: /(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?!\d)/g,
    readings: (m) => [
      [+m[3]!, +m[1]!, +m[2]!],
      [+m[3]!, +m[2]!, +m[1]!],
    ],
  },
  { pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(${MONTHS})\\.?,?\\s+(\\d{4})\\b`, 'gi'), readings: (m) => [[+m[3]!, monthNumber(m[2]!), +m[1]!]] },
  { pattern: new RegExp(`\\b(${MONTHS})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'), readings: (m) => [[+m[3]!, monthNumber(m[1]!), +m[2]!]] },
];

// Words that say a date is someone's birth date: born, birth, birthday, birthdate, date of birth, bday, b-day, dob, d.o.b.
const BIRTH_WORD = /\b(?:born|birth(?:day|date)?s?|b-?days?|d\.?o\.?b)\b/i;
/** How far (in characters) a birth word may stand from the date it speaks of. */
const CONTEXT_CHARS = 30;
/** A bare date is taken for a birthday when it is at least this many years ago (and not before 1900). */
const MIN_AGE_YEARS = 13;

/**
 * What sensitive data a metadata entry holds, if any: "an email address", "a phone number", "a
 * birthday", or a note that its key names one. The rules, applied to the value as text:
 * - an email address anywhere;
 * - a phone number anywhere: `+` and 8–15 digits (spaces, dots, hyphens, parentheses between them),
 *   or the North American form with separators; bare digit runs and signed amounts are not phones;
 * - a birthday: a date with a birth word (born, birthday, DOB…) within 30 characters of it, or a
 *   value that is nothing but a date at least 13 years ago (from 1900 on).
 */
export function sensitiveDataIn(key: string, value: string, today = new Date()): string | undefined {
  if (SENSITIVE_KEY.test(key)) return 'an email, phone number or birthday, judging by its key';
  if (EMAIL.test(value)) return 'an email address';
  if (hasPhoneNumber(value)) return 'a phone number';
  if (hasBirthday(value.trim(), today)) return 'a birthday';
  return undefined;
}

function hasPhoneNumber(text: string): boolean {
  if (NATIONAL_PHONE.test(text)) return true;
  return [...text.matchAll(INTERNATIONAL_PHONE)].some(([candidate]) => !SIGNED_AMOUNT.test(candidate));
}

function hasBirthday(text: string, today: Date): boolean {
  const adultsBornBy = Date.UTC(today.getUTCFullYear() - MIN_AGE_YEARS, today.getUTCMonth(), today.getUTCDate());
  for (const { pattern, readings } of DATE_SHAPES) {
    for (const match of text.matchAll(pattern)) {
      const dates = readings(match).map(toTime).filter((time): time is number => time !== undefined && time <= today.getTime());
      if (dates.length === 0) continue;
      const whole = match[0].length === text.length;
      if (whole && dates.some((time) => time <= adultsBornBy)) return true;
      const start = match.index;
      const around = text.slice(Math.max(0, start - CONTEXT_CHARS), start) + ' ' + text.slice(start + match[0].length, start + match[0].length + CONTEXT_CHARS);
      if (BIRTH_WORD.test(around)) return true;
    }
  }
  return false;
}

/** The time of a calendar date from 1900 on, or undefined when it is no such date (31 February). */
function toTime([year, month, day]: Reading): number | undefined {
  if (year < 1900 || month < 1 || month > 12 || day < 1) return undefined;
  const time = Date.UTC(year, month - 1, day);
  return new Date(time).getUTCDate() === day ? time : undefined;
}
