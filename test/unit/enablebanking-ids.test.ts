import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EbTransaction } from '../../src/providers/enablebanking/api.ts';
import { accountKey } from '../../src/providers/enablebanking/transaction-ids.ts';
import { toTransactions } from '../../src/providers/enablebanking/transforms.ts';
import { reconcile } from '../../src/modules/sync/window-reconciliation.ts';
import type { StoredTransaction } from '../../src/modules/transaction/transaction-sync.store.ts';

/*
 * Properties of Enable Banking's transaction ids through the engine's window reconciliation: a bank's
 * purchases (with or without entry_reference, identical twins, pending then booked days later under
 * another reference and text) read in overlapping, shifted windows in either order. After every read
 * each purchase the bank has reported is stored exactly once and nothing reported is removed.
 * PROPERTY_SEED replays a failure; PROPERTY_RUNS sets the runs.
 */

const SEED = Number(process.env.PROPERTY_SEED ?? 20261126);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);
const BASE = Date.parse('2026-01-01T00:00:00Z');
const UID = 'acc-uid';
const KEY = accountKey('hash-of-the-iban');

interface Purchase {
  made: number;
  amount: string;
  counterpart: string | null;
  remittance: string | null;
  withReference: boolean;
  /** Days pending before it books; 0: booked straight away. */
  pendingDays: number;
  /** The booking's remittance text differs from the pending one's. */
  textChanges: boolean;
}

const purchase = fc.record({
  made: fc.integer({ min: 0, max: 25 }),
  amount: fc.constantFrom('3.20', '12.00', '45.5'),
  counterpart: fc.constantFrom('Kiosk', 'Market Oy', null),
  remittance: fc.constantFrom('Coffee', 'CARD 1234', null),
  withReference: fc.boolean(),
  pendingDays: fc.integer({ min: 0, max: 3 }),
  textChanges: fc.boolean(),
});

const read = fc.record({ after: fc.integer({ min: 0, max: 4 }), windowDays: fc.integer({ min: 0, max: 12 }), reversed: fc.boolean() });

const day = (offset: number) => new Date(BASE + offset * 86_400_000).toISOString().slice(0, 10);

/** What the bank reports on `today` for a window starting `start` (booking day, else value day). */
function bankReport(purchases: Purchase[], today: number, start: number): EbTransaction[] {
  const entries: EbTransaction[] = [];
  purchases.forEach((bought, index) => {
    if (bought.made > today) return;
    const pending = today < bought.made + bought.pendingDays;
    const bookedOn = bought.made + bought.pendingDays;
    const shownDay = pending ? bought.made : bookedOn;
    if (shownDay < start || shownDay > today) return;
    const remittance = bought.remittance === null ? undefined : [!pending && bought.textChanges ? `${bought.remittance} BOOKED` : bought.remittance];
    entries.push({
      transaction_amount: { currency: 'EUR', amount: bought.amount },
      credit_debit_indicator: 'DBIT',
      status: pending ? 'PDNG' : 'BOOK',
      ...(bought.counterpart ? { creditor: { name: bought.counterpart } } : {}),
      ...(remittance ? { remittance_information: remittance } : {}),
      transaction_date: day(bought.made),
      value_date: day(bought.made),
      ...(pending ? {} : { booking_date: day(bookedOn) }),
      ...(bought.withReference ? { entry_reference: pending ? `PND-${index}` : `REF-${index}` } : {}),
      // Unstable per read, as EB warns: must not matter.
      transaction_id: `tx-${today}-${index}`,
    });
  });
  return entries;
}

describe('Enable Banking transaction ids through window reconciliation', () => {
  it('store each reported purchase exactly once, across repeated and shifted windows, pending then booked', () => {
    fc.assert(
      fc.property(fc.array(purchase, { minLength: 1, maxLength: 25 }), fc.array(read, { minLength: 2, maxLength: 12 }), (purchases, reads) => {
        const stored = new Map<string, StoredTransaction>();
        const seen = new Set<number>();
        let today = 0;
        let previous = 0;
        for (const { after, windowDays, reversed } of reads) {
          today += after;
          // Windows overlap the last read by at least the days a purchase stays pending, as the engine's do.
          const start = Math.min(today - windowDays, previous - 3);
          previous = today;
          const report = bankReport(purchases, today, start);
          if (reversed) report.reverse();
          const transactions = toTransactions(UID, KEY, 'EUR', report, day(today), new Date(BASE));
          const inWindow = [...stored.values()].filter((row) => row.date >= day(start) || row.status === 'PENDING');
          const page = reconcile(inWindow, { start: day(start), transactions }, day(today), 'cursor');
          expect(page.removed).toEqual([]);
          for (const transaction of page.added) {
            const row = { remoteId: transaction.remoteId, accountRemoteId: transaction.accountRemoteId, date: transaction.date, amount: transaction.amount, description: transaction.description, status: transaction.status } as StoredTransaction;
            if (!stored.has(transaction.remoteId) && transaction.pendingRemoteId) stored.delete(transaction.pendingRemoteId);
            stored.set(transaction.remoteId, row);
          }
          purchases.forEach((bought, index) => {
            const shown = today < bought.made + bought.pendingDays ? bought.made : bought.made + bought.pendingDays;
            if (bought.made <= today && shown >= start) seen.add(index);
          });
          expect(new Set(transactions.map((transaction) => transaction.remoteId)).size).toBe(transactions.length);
          expect(stored.size).toBe(seen.size);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('of two identical pending purchases, the one that books first takes over the first pending id and the other keeps its own', () => {
    const twin: Purchase = { made: 0, amount: '3.20', counterpart: 'Kiosk', remittance: 'CARD 1234', withReference: false, pendingDays: 1, textChanges: true };
    const purchases = [twin, { ...twin, pendingDays: 3 }];
    const idsOn = (today: number) => toTransactions(UID, KEY, 'EUR', bankReport(purchases, today, 0), day(today), new Date(BASE));
    const [first, second] = idsOn(0);
    const [booked, stillPending] = idsOn(1);
    expect(booked).toMatchObject({ status: 'POSTED', pendingRemoteId: first!.remoteId });
    expect(stillPending).toMatchObject({ status: 'PENDING', remoteId: second!.remoteId });
  });

  it('give the same ids to the same read, whatever the order of identical entries and the unstable transaction_id', () => {
    fc.assert(
      fc.property(fc.array(purchase, { minLength: 1, maxLength: 25 }), fc.integer({ min: 0, max: 30 }), (purchases, today) => {
        const ids = (entries: EbTransaction[]) => toTransactions(UID, KEY, 'EUR', entries, day(today), new Date(BASE)).map((transaction) => transaction.remoteId).sort();
        const report = bankReport(purchases, today, 0);
        const reordered = [...report].reverse().map((entry) => ({ ...entry, transaction_id: 'other' }));
        expect(ids(reordered)).toEqual(ids(report));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
