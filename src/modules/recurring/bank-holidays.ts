import { weekendsOnly, type BankingCalendar } from './banking-days.ts';
import table from './bank-holidays.json' with { type: 'json' };

/*
 * Countries' banking calendars: Saturdays, Sundays and the national holidays of types 'public' and
 * 'bank' are no banking days. The holidays come from the maintained date-holidays data, written
 * into bank-holidays.json for the providers' countries and 2020–2040 by `npm run bank-holidays`
 * (the library itself would cost the service about 38 MB of memory); outside those years, and for
 * another country, only weekends count.
 */

const TABLE: Record<string, number[]> = table;
const calendars = new Map<string, BankingCalendar>();

/** The banking calendar of a country (ISO 3166 alpha-2); weekends only when the country is unknown or null. */
export function bankingCalendarOf(country: string | null): BankingCalendar {
  const code = country?.toUpperCase();
  const holidays = code ? TABLE[code] : undefined;
  if (!code || !holidays) return weekendsOnly;
  let calendar = calendars.get(code);
  if (!calendar) {
    const days = new Set(holidays);
    calendars.set(code, (calendar = (day) => weekendsOnly(day) && !days.has(day)));
  }
  return calendar;
}
