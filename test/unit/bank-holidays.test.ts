import { describe, expect, it } from 'vitest';
import { BANK_HOLIDAY_COUNTRIES, BANK_HOLIDAY_YEARS, holidayTable } from '../../scripts/bank-holidays-source.ts';
import table from '../../src/modules/recurring/bank-holidays.json' with { type: 'json' };
import { bankingCalendarOf } from '../../src/modules/recurring/bank-holidays.ts';
import { dayNumber } from '../../src/modules/recurring/cadence.ts';

describe('the bank holiday table', () => {
  it('is what the date-holidays data says for every country and year it covers (run `npm run bank-holidays` after an upgrade)', () => {
    expect(table).toEqual(holidayTable(BANK_HOLIDAY_COUNTRIES, BANK_HOLIDAY_YEARS));
  });

  it('covers the years a prediction made now reaches', () => {
    expect(BANK_HOLIDAY_YEARS.to).toBeGreaterThanOrEqual(new Date().getUTCFullYear() + 5);
  });

  it('makes Christmas, a German 24 December and a UK bank holiday no banking days; weekends only elsewhere', () => {
    const day = (date: string) => dayNumber(date);
    expect(bankingCalendarOf('DE')(day('2026-12-24'))).toBe(false);
    expect(bankingCalendarOf('DE')(day('2026-12-23'))).toBe(true);
    expect(bankingCalendarOf('gb')(day('2026-05-25'))).toBe(false);
    expect(bankingCalendarOf('US')(day('2026-12-25'))).toBe(false);
    expect(bankingCalendarOf('XX')(day('2026-12-25'))).toBe(true);
    expect(bankingCalendarOf(null)(day('2026-12-26'))).toBe(false);
  });
});
