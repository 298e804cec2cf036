import Holidays, { type HolidaysTypes } from 'date-holidays';
import { weekendsOnly, type BankingCalendar } from './banking-days.ts';
import { dayNumber } from './cadence.ts';

/*
 * Countries' banking calendars from date-holidays (its data is maintained upstream, one file a
 * country): Saturdays, Sundays and the national holidays of types 'public' and 'bank' (substitute
 * days included: a Christmas on a Saturday gives the Monday off) are no banking days. Regional
 * holidays (a German state's) are left out: banks clear on the national calendar.
 */

const TYPES: HolidaysTypes.HolidayType[] = ['public', 'bank'];
const KNOWN = new Set(Object.keys(new Holidays().getCountries()));
const calendars = new Map<string, BankingCalendar>();

/** The banking calendar of a country (ISO 3166 alpha-2); weekends only when the country is unknown or null. */
export function bankingCalendarOf(country: string | null): BankingCalendar {
  const code = country?.toUpperCase();
  if (!code || !KNOWN.has(code)) return weekendsOnly;
  let calendar = calendars.get(code);
  if (!calendar) calendars.set(code, (calendar = holidayCalendar(code)));
  return calendar;
}

function holidayCalendar(code: string): BankingCalendar {
  const holidays = new Holidays(code, { types: TYPES });
  const years = new Map<number, Set<number>>();
  return (day) => {
    if (!weekendsOnly(day)) return false;
    const year = new Date(day * 86_400_000).getUTCFullYear();
    let days = years.get(year);
    if (!days) years.set(year, (days = new Set(holidays.getHolidays(year).map((holiday) => dayNumber(holiday.date.slice(0, 10))))));
    return !days.has(day);
  };
}
