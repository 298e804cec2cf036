import { describe, expect, it } from 'vitest';
import { mergeMetadata } from '../../src/modules/metadata/metadata.ts';
import { sensitiveDataIn } from '../../src/modules/metadata/sensitive-data.ts';

const TODAY = new Date('2026-06-01T12:00:00Z');
const EMAIL = 'an email address';
const PHONE = 'a phone number';
const BIRTHDAY = 'a birthday';

/** [value, what it holds (undefined: nothing sensitive)], each under the neutral key `note`. */
const EXAMPLES: Array<[string, string | undefined]> = [
  // Emails, whole and inside text.
  ['jane.doe@example.com', EMAIL],
  ['contact jane+billing@example.co.uk about the invoice', EMAIL],
  ['José.Núñez@correo.es', EMAIL],
  ['<ops@tributary.dev>', EMAIL],
  // Phone numbers, whole and inside text.
  ['+14155550123', PHONE],
  ['call +14155550123', PHONE],
  ['+1 415 555 0123', PHONE],
  ['+1 (415) 555-0123 after 5pm', PHONE],
  ['+44 20 7946 0958', PHONE],
  ['office: +33 1 23 45 67 89', PHONE],
  ['(415) 555-0123', PHONE],
  ['reach me at 415-555-0123 tomorrow', PHONE],
  ['415.555.0123', PHONE],
  ['1-415-555-0123', PHONE],
  // Birthdays: a bare date long enough ago, or a date the text calls a birth date.
  ['1987-06-15', BIRTHDAY],
  ['06/15/1987', BIRTHDAY],
  ['15.06.1987', BIRTHDAY],
  ['December 10, 1990', BIRTHDAY],
  ['born 1990-12-10', BIRTHDAY],
  ['DOB: 12/10/1990', BIRTHDAY],
  ['d.o.b. 10.12.1990', BIRTHDAY],
  ['date of birth 1990/12/10', BIRTHDAY],
  ['birthday is 10 Dec 1990', BIRTHDAY],
  ['b-day Dec 10th 1990', BIRTHDAY],
  ['1990-12-10 (birthday)', BIRTHDAY],
  ['Born on the 3rd March 2019, first child account', BIRTHDAY],
  // Ids, amounts and account numbers.
  ['txn_01jdq3v6x8f9k2m4n7p0r5s8tw', undefined],
  ['0190f0c2-7b1e-7c3a-9f4e-2b8d6a1c3e5f', undefined],
  ['4155550123', undefined],
  ['000123456789', undefined],
  ['011401533', undefined],
  ['GB82 WEST 1234 5698 7654 32', undefined],
  ['1234.56', undefined],
  ['-56.78', undefined],
  ['+1500.00', undefined],
  ['+123456.78', undefined],
  ['1,234,567.89', undefined],
  ['order #A-2291-3380', undefined],
  ['94105-1234', undefined],
  // Ordinary dates and times.
  ['2026-11-22', undefined],
  ['invoice 2026-11-22 paid', undefined],
  ['paid on 2019-03-04, ref 123-456', undefined],
  ['customer since 1998-04-01', undefined],
  ['2026-04-01T09:30:00.000Z', undefined],
  ['2001-09-11T08:46:00Z', undefined],
  ['renews 12/01/2026', undefined],
  ['2026-W47', undefined],
  ['10:30-11:45', undefined],
  ['31/02/1990', undefined],
  ['Q3 2026', undefined],
  // Words alone, and things that only look like emails.
  ['born to run', undefined],
  ['birthday campaign', undefined],
  ['gold@tier', undefined],
  ['react@18.2.0', undefined],
  ['@handle', undefined],
  ['ext. 1234', undefined],
  ['+1234', undefined],
];

describe('sensitive data in metadata', () => {
  it('holds at least 40 examples, both ways', () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(40);
    expect(EXAMPLES.filter(([, kind]) => kind).length).toBeGreaterThanOrEqual(20);
    expect(EXAMPLES.filter(([, kind]) => !kind).length).toBeGreaterThanOrEqual(20);
  });

  it.each(EXAMPLES)('%j holds %s', (value, kind) => {
    expect(sensitiveDataIn('note', value, TODAY)).toBe(kind);
  });

  it('judges keys that name sensitive data whatever their value', () => {
    expect(sensitiveDataIn('dob', 'yes', TODAY)).toMatch(/judging by its key/);
    expect(sensitiveDataIn('customerEmail', 'n/a', TODAY)).toMatch(/judging by its key/);
  });

  it('takes only dates at least 13 years ago for bare birthdays', () => {
    expect(sensitiveDataIn('note', '2013-06-01', TODAY)).toBe(BIRTHDAY);
    expect(sensitiveDataIn('note', '2013-06-02', TODAY)).toBeUndefined();
    expect(sensitiveDataIn('note', '1899-12-31', TODAY)).toBeUndefined();
  });

  it('refuses metadata holding a phone number or a birthday inside text, naming the entry', () => {
    expect(() => mergeMetadata(null, { note: 'call +14155550123' })).toThrow(/sensitive data \(this looks like a phone number\)/);
    expect(() => mergeMetadata(null, { note: 'born 1990-12-10' })).toThrow(/sensitive data \(this looks like a birthday\)/);
    expect(mergeMetadata(null, { invoice: 'invoice 2026-11-22 paid', amount: '1234.56' })).toEqual({ invoice: 'invoice 2026-11-22 paid', amount: '1234.56' });
  });
});
