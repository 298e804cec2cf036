/**
 * `npm run bank-holidays` writes src/modules/recurring/bank-holidays.json: the national public and
 * bank holidays of the countries Tributary's providers reach, for BANK_HOLIDAY_YEARS, from the
 * maintained date-holidays data (a development dependency: the service reads the table, not the
 * library, which would cost it about 38 MB of memory). test/unit/bank-holidays.test.ts fails when the
 * table and the library disagree: run this after upgrading date-holidays.
 */
import { writeFileSync } from 'node:fs';
import { BANK_HOLIDAY_COUNTRIES, BANK_HOLIDAY_YEARS, holidayTable } from './bank-holidays-source.ts';

const table = holidayTable(BANK_HOLIDAY_COUNTRIES, BANK_HOLIDAY_YEARS);
writeFileSync(new URL('../src/modules/recurring/bank-holidays.json', import.meta.url), `${JSON.stringify(table)}\n`);
console.log(`wrote src/modules/recurring/bank-holidays.json: ${Object.keys(table).length} countries, ${BANK_HOLIDAY_YEARS.from}–${BANK_HOLIDAY_YEARS.to}`);
