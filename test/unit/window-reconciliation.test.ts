import { describe, expect, it } from 'vitest';
import { reconcile, similar } from '../../src/modules/sync/window-reconciliation.ts';
import type { StoredTransaction } from '../../src/modules/transaction/transaction-sync.store.ts';
import type { ProviderTransaction } from '../../src/providers/provider-records.ts';

const TODAY = '2026-11-20';
const START = '2026-10-21';

function reported(overrides: Partial<ProviderTransaction> & { remoteId: string }): ProviderTransaction {
  return { accountRemoteId: 'card', pendingRemoteId: null, date: '2026-11-18', description: 'BLUE BOTTLE COFFEE', amount: '-12.50', status: 'POSTED', raw: {}, enrichment: null, ...overrides };
}

function stored(overrides: Partial<StoredTransaction> & { remoteId: string }): StoredTransaction {
  return { accountRemoteId: 'card', date: '2026-11-18', description: 'BLUE BOTTLE COFFEE', amount: '-12.50', status: 'POSTED', ...overrides };
}

const run = (rows: StoredTransaction[], window: ProviderTransaction[]) => reconcile(rows, { start: START, transactions: window }, TODAY, 'next');

describe('window reconciliation', () => {
  it('updates a transaction matched by provider id in place', () => {
    const page = run([stored({ remoteId: 'a', amount: '-12.50' })], [reported({ remoteId: 'a', amount: '-13.00' })]);
    expect(page.added).toEqual([expect.objectContaining({ remoteId: 'a', pendingRemoteId: null, amount: '-13.00' })]);
    expect(page.removed).toEqual([]);
  });

  it('lets a posted charge take over the pending one it settles, with an equal amount or a tip', () => {
    const exact = run([stored({ remoteId: 'p1', status: 'PENDING', description: 'SQ *BLUE BOTTLE' })], [reported({ remoteId: 'x1', date: '2026-11-19', description: 'BLUE BOTTLE COFFEE 123' })]);
    expect(exact.added[0]).toMatchObject({ remoteId: 'x1', pendingRemoteId: 'p1' });
    expect(exact.removed).toEqual([]);
    const tipped = run([stored({ remoteId: 'p2', status: 'PENDING', amount: '-40.00', description: 'NOPA RESTAURANT' })], [reported({ remoteId: 'x2', amount: '-48.00', description: 'NOPA RESTAURANT SF' })]);
    expect(tipped.added[0]).toMatchObject({ pendingRemoteId: 'p2' });
  });

  it('does not take over a pending charge of another amount, account, description or week', () => {
    const pending = stored({ remoteId: 'p', status: 'PENDING', amount: '-40.00', description: 'NOPA RESTAURANT' });
    for (const posted of [
      reported({ remoteId: 'x', amount: '-60.00', description: 'NOPA RESTAURANT' }),
      reported({ remoteId: 'x', amount: '-35.00', description: 'NOPA RESTAURANT' }),
      reported({ remoteId: 'x', amount: '-40.00', description: 'NOPA RESTAURANT', accountRemoteId: 'checking' }),
      reported({ remoteId: 'x', amount: '-40.00', description: 'SAFEWAY 1234' }),
      reported({ remoteId: 'x', amount: '-40.00', description: 'NOPA RESTAURANT', date: '2026-11-30' }),
    ]) {
      expect(run([pending], [posted]).added[0]!.pendingRemoteId).toBeNull();
    }
  });

  it('keeps a posted transaction whose id was re-issued (same account, date, amount, description)', () => {
    const page = run([stored({ remoteId: 'old' })], [reported({ remoteId: 'new' })]);
    expect(page.added[0]).toMatchObject({ remoteId: 'new', pendingRemoteId: 'old' });
    expect(page.removed).toEqual([]);
  });

  it('prefers an exact re-issue over a fuzzy pending match when both are new', () => {
    const rows = [stored({ remoteId: 'p', status: 'PENDING', amount: '-12.50' }), stored({ remoteId: 'old', amount: '-12.50' })];
    const page = run(rows, [reported({ remoteId: 'new-posted', amount: '-12.50' }), reported({ remoteId: 'new-reissued', amount: '-12.50' })]);
    const claimed = page.added.map((transaction) => transaction.pendingRemoteId).sort();
    expect(claimed).toEqual(['old', 'p']);
  });

  it('removes a vanished posted transaction inside the window, never one older than it', () => {
    const page = run([stored({ remoteId: 'inside', date: '2026-11-01' }), stored({ remoteId: 'first-day', date: START }), stored({ remoteId: 'older', date: '2026-01-01' })], []);
    expect(page.removed).toEqual(['inside']);
  });

  it('removes nothing from an account whose window left an entry out: the stored one may be it', () => {
    const rows = [stored({ remoteId: 'on-card', date: '2026-11-01' }), stored({ remoteId: 'on-savings', accountRemoteId: 'savings', date: '2026-11-01' })];
    const page = reconcile(rows, { start: START, transactions: [], unreadable: [{ accountRemoteId: 'card', what: 'TRANSACTION', reason: 'the amount has more than 4 fraction digits' }] }, TODAY, 'next');
    expect(page.removed).toEqual(['on-savings']);
    // A balance figure or an original amount left out says nothing about which entries were reported.
    const balance = reconcile(rows, { start: START, transactions: [], unreadable: [{ accountRemoteId: 'card', what: 'BALANCE', reason: 'x' }] }, TODAY, 'next');
    expect(balance.removed).toEqual(['on-card', 'on-savings']);
  });

  it('removes a vanished pending entry without a twin only after its grace period', () => {
    const page = run([stored({ remoteId: 'recent', status: 'PENDING', date: '2026-11-17' }), stored({ remoteId: 'stale', status: 'PENDING', date: '2026-11-10' })], []);
    expect(page.removed).toEqual(['stale']);
  });

  it('compares descriptions by their significant words', () => {
    expect(similar('POS PURCHASE BLUE BOTTLE #12', 'Blue Bottle Coffee')).toBe(true);
    expect(similar('SQ *NOPA', 'NOPA RESTAURANT SAN FRANCISCO')).toBe(true);
    expect(similar('SAFEWAY 1234', 'TRADER JOES 55')).toBe(false);
  });
});
