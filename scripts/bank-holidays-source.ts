import Holidays, { type HolidaysTypes } from 'date-holidays';
import { dayNumber } from '../src/modules/recurring/cadence.ts';

/** The countries whose banks the providers reach: Enable Banking's (the EEA, the UK, Switzerland), Plaid's and SimpleFIN's (the US, Canada). */
export const BANK_HOLIDAY_COUNTRIES = [
  'AT', 'BE', 'BG', 'CA', 'CH', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GB', 'GR', 'HR', 'HU', 'IE', 'IS', 'IT',
  'LI', 'LT', 'LU', 'LV', 'MT', 'NL', 'NO', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK', 'US',
];
export const BANK_HOLIDAY_YEARS = { from: 2020, to: 2040 };

const TYPES: HolidaysTypes.HolidayType[] = ['public', 'bank'];

/**
 * Each country's national public and bank holidays (substitute days included; regional ones left
 * out: banks clear on the national calendar), as sorted day numbers (days since 1970-01-01).
 */
export function holidayTable(countries: string[], years: { from: number; to: number }): Record<string, number[]> {
  return Object.fromEntries(countries.map((country) => {
    const holidays = new Holidays(country, { types: TYPES });
    const days = new Set<number>();
    for (let year = years.from; year <= years.to; year++) for (const holiday of holidays.getHolidays(year)) days.add(dayNumber(holiday.date.slice(0, 10)));
    return [country, [...days].sort((a, b) => a - b)];
  }));
}
