import { describe, expect, it } from 'vitest';
import { compareEmails, matchEmail } from '../../src/modules/owner/match/email-match.ts';
import { comparePhones, matchPhone, toE164 } from '../../src/modules/owner/match/phone.ts';

describe('email matching', () => {
  it('scores the same address in any case 100, the same mailbox by its provider\'s rules 90, a + tag elsewhere 70', () => {
    expect(compareEmails('Ada.Lovelace@Example.com', 'ada.lovelace@example.COM')).toBe(100);
    expect(compareEmails('ada.lovelace@gmail.com', 'AdaLovelace+bank@googlemail.com')).toBe(90);
    expect(compareEmails('ada@outlook.com', 'ada+news@outlook.com')).toBe(90);
    expect(compareEmails('ada@example.org', 'ada+bank@example.org')).toBe(70);
    // Dots count outside Gmail.
    expect(compareEmails('ada.lovelace@example.org', 'adalovelace@example.org')).toBe(0);
    expect(compareEmails('ada@example.org', 'ada@example.com')).toBe(0);
    expect(compareEmails('not an address', 'ada@example.org')).toBe(0);
  });

  it('keeps the best owner address, and is null when either side has none', () => {
    expect(matchEmail('ada@example.org', ['someone@example.org', 'ADA@example.org'])).toEqual({ score: 100, matched: true });
    expect(matchEmail('ada@example.org', ['bob@example.org'])).toEqual({ score: 0, matched: false });
    expect(matchEmail(null, ['ada@example.org'])).toBeNull();
    expect(matchEmail('ada@example.org', [])).toBeNull();
  });
});

describe('phone numbers', () => {
  it('writes a number in E.164, one without country code in the region given, and leaves what does not parse', () => {
    expect(toE164('(415) 555-0123', 'US')).toBe('+14155550123');
    expect(toE164('+44 20 7946 0958', 'US')).toBe('+442079460958');
    expect(toE164('020 7946 0958', 'GB')).toBe('+442079460958');
    expect(toE164('09 1234 5678', 'fi')).toBe('+358912345678');
    expect(toE164('(415) 555-0123', null)).toBe('(415) 555-0123');
    expect(toE164('call me', 'US')).toBe('call me');
  });

  it('scores the same number 100, the same with a different extension 90, another 0', () => {
    expect(comparePhones('+14155550123', '415.555.0123', 'US')).toBe(100);
    expect(comparePhones('+14155550123', '415-555-0123 ext. 12', 'US')).toBe(90);
    expect(comparePhones('+14155550123', '+14155550124', 'US')).toBe(0);
    // The region decides what a national number means.
    expect(comparePhones('+442079460958', '020 7946 0958', 'GB')).toBe(100);
    expect(comparePhones('+442079460958', '020 7946 0958', 'US')).toBe(0);
    // Numbers that do not parse are compared by their digits.
    expect(comparePhones('12-34', '1234', null)).toBe(100);
  });

  it('keeps the best owner number, and is null when either side has none', () => {
    expect(matchPhone('+14155550123', ['+12125550000', '(415) 555-0123'], 'US')).toEqual({ score: 100, matched: true });
    expect(matchPhone(null, ['+14155550123'], 'US')).toBeNull();
    expect(matchPhone('+14155550123', [], 'US')).toBeNull();
  });
});
