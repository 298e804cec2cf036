import { describe, expect, it } from 'vitest';
import { averageAmount } from '../../src/modules/recurring/amounts.ts';
import { detectStreams, streamKey, type RecurringInput } from '../../src/modules/recurring/detection.ts';
import { DAY_MS } from '../../src/lib/dates.ts';

/*
 * Detection over generated series: each helper writes the dates a real schedule produces (moved
 * off weekends, clamped to month ends), so the cases read as the situations they stand for.
 */

const iso = (time: number) => new Date(time).toISOString().slice(0, 10);
/** A weekday: Saturday and Sunday move to the next Monday, as banks post. */
const weekday = (time: number) => {
  const day = new Date(time).getUTCDay();
  return day === 6 ? time + 2 * DAY_MS : day === 0 ? time + DAY_MS : time;
};
/** Day `dom` of month `month` months after January 2025, clamped to the month's last day. */
const monthDay = (month: number, dom: number) => {
  const last = new Date(Date.UTC(2025, month + 1, 0)).getUTCDate();
  return Date.UTC(2025, month, Math.min(dom, last));
};

let serial = 0;
const transaction = (time: number, amount: string, description: string): RecurringInput => ({ id: `t${String(++serial).padStart(5, '0')}`, date: iso(time), amount, description });
const monthly = (from: number, count: number, dom: number, amount: (i: number) => string, description: string) =>
  Array.from({ length: count }, (_, i) => transaction(weekday(monthDay(from + i, dom)), amount(i), description));

/** Deterministic noise: purchases at shops on pseudo-random days with pseudo-random amounts (or all of `price`). */
function noise(count: number, description: string, seed: number, price?: string): RecurringInput[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => transaction(Date.UTC(2025, 0, 1) + Math.floor(next() * 600) * DAY_MS, price ?? `-${(3 + next() * 60).toFixed(2)}`, description));
}

const TODAY = '2026-08-25';
const only = (streams: ReturnType<typeof detectStreams>, key: string) => streams.filter((stream) => stream.key === key);

describe('recurring-stream detection', () => {
  it('keys streams on the description without digits and reference noise', () => {
    expect(streamKey({ description: 'ACME CORP PAYROLL PPD ID: 1234567890' })).toBe('acme corp payroll');
    expect(streamKey({ description: 'NETFLIX.COM 0412' })).toBe('netflix');
    expect(streamKey({ description: 'SQ *TARTINE BAKERY' })).toBe('tartine bakery');
    // A salary or a bill that names its month, in the bank's language, is one counterparty; accents go.
    expect(streamKey({ description: 'VIR SEPA RECU /DE ACME SAS /MOTIF SALAIRE FÉVRIER 2026' })).toBe(streamKey({ description: 'VIR SEPA RECU /DE ACME SAS /MOTIF SALAIRE MARS 2026' }));
    expect(streamKey({ description: 'Omschrijving: SALARIS MAART 2026' })).toBe('omschrijving salaris');
    expect(streamKey({ description: 'SEPA-LASTSCHRIFT Stadtwerke München Abschlag 03/26' })).toBe('sepa lastschrift stadtwerke munchen abschlag');
  });

  it('keys a merchant name read from the line without the week, quarter or month it carries, as a description would be', () => {
    // Names as enrichment reads them from the line: what it cannot tell from a name stays in them.
    expect(streamKey({ description: 'RIVERBEND LOGISTICS WK12 PAYROLL', merchantName: 'Riverbend Logistics WK12' })).toBe(streamKey({ description: 'RIVERBEND LOGISTICS WK14 PAYROLL', merchantName: 'Riverbend Logistics WK14' }));
    expect(streamKey({ description: 'Vereinsbeitrag SV Lindenau Q1 2026', merchantName: 'Vereinsbeitrag SV Lindenau Q1' })).toBe('vereinsbeitrag sv lindenau');
    expect(streamKey({ description: 'KLETTERHALLE NORDWAND ABO MRZ', merchantName: 'Kletterhalle Nordwand Abo MRZ' })).toBe(streamKey({ description: 'KLETTERHALLE NORDWAND ABO APR', merchantName: 'Kletterhalle Nordwand Abo' }));
    // The same words named on one occurrence and not on another are one counterparty.
    expect(streamKey({ description: 'KLETTERHALLE NORDWAND ABO', merchantName: null })).toBe(streamKey({ description: 'KLETTERHALLE NORDWAND ABO', merchantName: 'Kletterhalle Nordwand Abo' }));
    // A name of nothing but words with digits is kept whole: it is all there is.
    expect(streamKey({ description: '7-ELEVEN 40213 DALLAS TX', merchantName: '7-Eleven' })).toBe('7-eleven');
  });

  it('finds one weekly pay whose line carries its week number', () => {
    const pay = Array.from({ length: 12 }, (_, i) => ({ ...transaction(Date.UTC(2026, 4, 1) + i * 7 * DAY_MS, '612.40', `RIVERBEND LOGISTICS WK${18 + i} PAYROLL`), merchantName: `Riverbend Logistics WK${18 + i}` }));
    const streams = detectStreams(pay, '2026-07-20');
    expect(streams).toHaveLength(1);
    expect(streams[0]).toMatchObject({ frequency: 'WEEKLY', direction: 'INFLOW', merchantName: 'Riverbend Logistics WK29' });
    expect(streams[0]!.transactionIds).toEqual(pay.map((row) => row.id));
  });

  it('finds a monthly rent paid on the 1st (moved off weekends) and predicts the next date', () => {
    const rent = monthly(0, 20, 1, () => '-1850.00', 'PARKLINE PROPERTIES RENT WEB ID: 9000123456');
    const [stream, ...others] = detectStreams(rent, TODAY);
    expect(others).toEqual([]);
    expect(stream).toMatchObject({ frequency: 'MONTHLY', direction: 'OUTFLOW', status: 'MATURE', firstDate: iso(rent[0]!.date ? Date.parse(rent[0]!.date) : 0), predictedNextDate: '2026-09-01', averageAmount: '-1850.00' });
    expect(stream!.transactionIds).toEqual(rent.map((row) => row.id));
  });

  it('keeps a month-end bill on the last day through February', () => {
    const bill = monthly(0, 14, 31, () => '-42.00', 'CITY WATER');
    const [stream] = detectStreams(bill, '2026-03-10');
    expect(stream).toMatchObject({ frequency: 'MONTHLY', status: 'MATURE' });
    expect(stream!.transactionIds).toHaveLength(14);
  });

  it('tells biweekly pay from semi-monthly pay', () => {
    const biweekly = Array.from({ length: 30 }, (_, i) => transaction(Date.UTC(2025, 0, 3) + i * 14 * DAY_MS, '2400.00', 'ACME CORP PAYROLL'));
    const semi = Array.from({ length: 30 }, (_, i) => transaction(weekday(monthDay(Math.floor(i / 2), i % 2 === 0 ? 1 : 15)), '2100.00', 'GLOBEX PAYROLL'));
    const streams = detectStreams([...biweekly, ...semi], '2026-02-20');
    expect(only(streams, 'acme corp payroll').map((stream) => [stream.frequency, stream.transactionIds.length])).toEqual([['BIWEEKLY', 30]]);
    expect(only(streams, 'globex payroll').map((stream) => [stream.frequency, stream.transactionIds.length])).toEqual([['SEMI_MONTHLY', 30]]);
  });

  it('finds a weekly stream and an annual one seen twice (EARLY_DETECTION)', () => {
    const weekly = Array.from({ length: 12 }, (_, i) => transaction(Date.UTC(2026, 5, 2) + i * 7 * DAY_MS, '-25.00', 'DOG WALKER'));
    const annual = [transaction(Date.UTC(2024, 8, 14), '-139.00', 'AMAZON PRIME'), transaction(Date.UTC(2025, 8, 15), '-139.00', 'AMAZON PRIME')];
    const streams = detectStreams([...weekly, ...annual], TODAY);
    expect(only(streams, 'dog walker')[0]).toMatchObject({ frequency: 'WEEKLY', status: 'MATURE' });
    expect(only(streams, 'amazon prime')[0]).toMatchObject({ frequency: 'ANNUALLY', status: 'EARLY_DETECTION', predictedNextDate: '2026-09-14' });
  });

  it('keeps a stream through one missing occurrence, drifting amounts and a price change', () => {
    const bills = monthly(0, 18, 8, (i) => (i < 10 ? '-15.49' : '-17.99'), 'NETFLIX.COM').filter((_, i) => i !== 6);
    const drift = monthly(0, 18, 20, (i) => `-${(60 + i * 0.75).toFixed(2)}`, 'GYM CLUB');
    const streams = detectStreams([...bills, ...drift], '2026-06-25');
    const [netflix] = only(streams, 'netflix');
    expect(netflix).toMatchObject({ frequency: 'MONTHLY', lastAmount: '-17.99' });
    expect(netflix!.transactionIds).toHaveLength(17);
    expect(netflix!.averageAmount).toBe(averageAmount(bills.map((row) => row.amount)));
    expect(only(streams, 'gym club').map((stream) => stream.transactionIds.length)).toEqual([18]);
  });

  it('separates two subscriptions at one merchant by amount', () => {
    const small = monthly(0, 12, 3, () => '-0.99', 'APPLE.COM/BILL');
    const large = monthly(0, 12, 17, () => '-9.99', 'APPLE.COM/BILL');
    const streams = only(detectStreams([...small, ...large], '2026-01-10'), 'apple bill');
    expect(streams.map((stream) => [stream.averageAmount, stream.transactionIds.length]).sort()).toEqual([['-0.99', 12], ['-9.99', 12]]);
  });

  it('marks a stream ENDED once its predicted date is more than half a period past', () => {
    // Due on the 12th (2025-01-12 was a Sunday, paid on Monday the 13th); 2025-09-12 is a Friday.
    const stopped = monthly(0, 8, 12, () => '-29.00', 'OLD GYM');
    expect(detectStreams(stopped, '2025-09-27')[0]).toMatchObject({ status: 'MATURE', predictedNextDate: '2025-09-12' });
    expect(detectStreams(stopped, '2025-09-28')[0]).toMatchObject({ status: 'ENDED', predictedNextDate: '2025-09-12' });
  });

  it('takes pay that varies with hours and skips a week, and a metered bill of five months, as streams: their categories bill on a schedule', () => {
    const hours = [412.5, 498.75, 367.2, 455.0, 521.3, 389.4, 440.8, 502.15, 371.9, 468.35];
    const pay = hours.flatMap((amount, i) => (i === 4 ? [] : [{ ...transaction(Date.UTC(2026, 2, 6) + i * 7 * DAY_MS, amount.toFixed(2), 'HARBOUR FREIGHT LTD WAGES'), category: 'INCOME_WAGES' }]));
    const bill = [-131.4, -96.05, -78.6, -64.2, -88.9].map((amount, i) => ({ ...transaction(weekday(monthDay(14 + i, 6)), amount.toFixed(2), 'NORDLICHT ENERGIE ABSCHLAG'), category: 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY' }));
    const streams = detectStreams([...pay, ...bill], '2026-08-10');
    expect(streams.map((stream) => [stream.key, stream.frequency, stream.transactionIds])).toEqual([
      ['harbour freight ltd wages', 'WEEKLY', pay.map((row) => row.id)],
      ['nordlicht energie abschlag', 'MONTHLY', bill.map((row) => row.id)],
    ]);
    // The same amounts bought at a shop are no stream: chance lines up a few purchases.
    const shop = [...pay, ...bill].map((row) => ({ ...row, amount: `-${row.amount.replace('-', '')}`, description: 'CORNER MARKET', category: 'GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE' }));
    expect(detectStreams(shop, '2026-08-10')).toEqual([]);
  });

  it('finds no stream in random purchases, and finds a subscription hidden among them', () => {
    const shops = [...noise(400, 'STARBUCKS STORE 06672', 7), ...noise(150, 'AMZN Mktp US*2K4L81QT2', 11)];
    expect(detectStreams(shops, TODAY).map((stream) => [stream.key, stream.frequency, stream.transactionIds.length, stream.averageAmount])).toEqual([]);
    const prime = monthly(0, 18, 22, () => '-14.99', 'AMZN Mktp US*PRIME');
    const streams = detectStreams([...shops, ...prime], TODAY);
    expect(streams.map((stream) => [stream.frequency, stream.averageAmount, stream.transactionIds.length])).toEqual([['MONTHLY', '-14.99', 18]]);
  });

  it('finds no stream in a fare of one price bought at random, though some purchases fall a week or a fortnight apart', () => {
    for (const seed of [3, 5, 8, 13, 21]) {
      const fares = noise(60, 'BART CLIPPER SFO', seed, '-20.00');
      expect(detectStreams(fares, TODAY).map((stream) => [seed, stream.frequency, stream.firstDate, stream.transactionIds.length])).toEqual([]);
    }
    // A pass of that price paid on the 1st of each month, with a few random fares about, is a stream.
    const pass = monthly(0, 18, 1, () => '-20.00', 'BART CLIPPER SFO');
    expect(detectStreams([...noise(4, 'BART CLIPPER SFO', 3, '-20.00'), ...pass], TODAY).map((stream) => [stream.frequency, stream.transactionIds.length])).toEqual([['MONTHLY', 18]]);
  });
});
