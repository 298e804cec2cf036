import { describe, expect, it } from 'vitest';
import { bankingCalendarOf } from '../../src/modules/recurring/bank-holidays.ts';
import { weekendsOnly } from '../../src/modules/recurring/banking-days.ts';
import { dayNumber } from '../../src/modules/recurring/cadence.ts';
import { detectStreams, type RecurringInput } from '../../src/modules/recurring/detection.ts';
import { countryOfConnection } from '../../src/providers/institution-country.ts';

/*
 * Predicted next dates on banking days: histories written as a payer pays them (a salary due on the
 * 25th paid the Friday before when the 25th is a Saturday), each predicting a due date that is no
 * banking day.
 */

const history = (amount: string, description: string, dates: string[]): RecurringInput[] => dates.map((date, i) => ({ id: `t${i}`, date, amount, description }));
const predicted = (transactions: RecurringInput[], today: string, country?: string | null) => {
  const streams = detectStreams(transactions, today, country === undefined ? weekendsOnly : bankingCalendarOf(country));
  expect(streams).toHaveLength(1);
  return streams[0]!.predictedNextDate;
};

describe('predicted next dates on banking days', () => {
  it("follows a salary's habit of the banking day before: due Saturday 2025-10-25, predicted Friday the 24th", () => {
    // Due on the 25th; 2025-05-25 (a Sunday) paid on Friday the 23rd.
    const salary = history('3100.00', 'ACME GMBH GEHALT', ['2025-02-25', '2025-03-25', '2025-04-25', '2025-05-23', '2025-06-25', '2025-07-25', '2025-08-25', '2025-09-25']);
    expect(predicted(salary, '2025-10-01')).toBe('2025-10-24');
  });

  it("follows a direct debit's habit of the banking day after: due Saturday 2025-11-01, predicted Monday the 3rd", () => {
    // Due on the 1st; 2025-06-01 (a Sunday) debited on Monday the 2nd.
    const debit = history('-54.20', 'SEVERN TRENT WATER DD', ['2025-04-01', '2025-05-01', '2025-06-02', '2025-07-01', '2025-08-01', '2025-09-01', '2025-10-01']);
    expect(predicted(debit, '2025-10-10')).toBe('2025-11-03');
  });

  it('follows the habit over the direction: an income paid the banking day after', () => {
    const rent = history('950.00', 'STANDING ORDER J SMITH RENT', ['2025-04-01', '2025-05-01', '2025-06-02', '2025-07-01', '2025-08-01', '2025-09-01', '2025-10-01']);
    expect(predicted(rent, '2025-10-10')).toBe('2025-11-03');
  });

  it('keeps the due date when the history shows payments on weekends', () => {
    // A card subscription charged on the 5th, Saturdays included; 2025-10-05 is a Sunday.
    const subscription = history('-9.99', 'STREAMFLIX.COM', ['2025-04-05', '2025-05-05', '2025-06-05', '2025-07-05', '2025-08-05', '2025-09-05']);
    expect(predicted(subscription, '2025-09-20')).toBe('2025-10-05');
  });

  it('without evidence, pays income the banking day before and debits the banking day after', () => {
    // Due on the 15th, never yet on a weekend; 2025-11-15 is a Saturday.
    const dates = ['2025-08-15', '2025-09-15', '2025-10-15'];
    expect(predicted(history('1200.00', 'CITY OF SPRINGFIELD PAYROLL', dates), '2025-10-20')).toBe('2025-11-14');
    expect(predicted(history('-80.00', 'SPRINGFIELD GAS CO', dates), '2025-10-20')).toBe('2025-11-17');
  });

  it("skips a country's holidays: 25 and 26 December, and Germany's Christmas Eve bank holiday", () => {
    // Due on the 25th (2025-10-25 a Saturday, debited Monday the 27th); 2025-12-25 is a Thursday.
    const debit = history('-39.90', 'FITNESSSTUDIO MUENCHEN', ['2025-06-25', '2025-07-25', '2025-08-25', '2025-09-25', '2025-10-27', '2025-11-25']);
    expect(predicted(debit, '2025-12-01', null)).toBe('2025-12-25');
    expect(predicted(debit, '2025-12-01', 'DE')).toBe('2025-12-29');
    const pay = history('2800.00', 'MUSTER AG LOHN', ['2025-09-25', '2025-10-24', '2025-11-25']);
    expect(predicted(pay, '2025-12-01', 'DE')).toBe('2025-12-23');
  });

  it('skips a UK bank holiday: salary due Monday 2026-05-25 (Spring bank holiday) paid Friday the 22nd', () => {
    const salary = history('2450.00', 'NORTHWIND LTD SALARY', ['2026-01-23', '2026-02-25', '2026-03-25', '2026-04-24']);
    expect(predicted(salary, '2026-05-01', null)).toBe('2026-05-25');
    expect(predicted(salary, '2026-05-01', 'GB')).toBe('2026-05-22');
  });

  it('uses weekends only without a country, or with one the library does not know', () => {
    const christmas = dayNumber('2025-12-25');
    expect(bankingCalendarOf(null)(christmas)).toBe(true);
    expect(bankingCalendarOf('XX')(christmas)).toBe(true);
    expect(bankingCalendarOf('us')(christmas)).toBe(false);
    expect(bankingCalendarOf(null)(dayNumber('2025-12-27'))).toBe(false);
  });

  it("finds the connection's country from its provider and institution", () => {
    expect(countryOfConnection('enablebanking', 'eb_FI_abcdefghijklmnop')).toBe('FI');
    expect(countryOfConnection('sandbox', 'ins_sandbox_bank_de')).toBe('DE');
    expect(countryOfConnection('plaid', 'ins_3')).toBe('US');
    expect(countryOfConnection('simplefin', 'https://bank.example')).toBe('US');
    expect(countryOfConnection('other', 'x')).toBeNull();
  });
});
