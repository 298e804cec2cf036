import { describe, expect, it } from 'vitest';
import { detectStreams, type RecurringInput } from '../../src/modules/recurring/detection.ts';
import { dayOf, HISTORY_DAYS } from '../../src/providers/sandbox/household.ts';
import { SANDBOX_INSTITUTIONS } from '../../src/providers/sandbox/institutions.ts';
import { FLOWS, MERCHANTS } from '../../src/providers/sandbox/merchants.ts';
import { householdOf, visibleVersion } from '../../src/providers/sandbox/transactions.ts';

/*
 * The sandbox household's two years of history, as the sandbox reports them on fixed days: its
 * scheduled movements (pay, rent, bills, subscriptions, transfers, loan and card payments) are
 * streams, and its everyday purchases, bought at random, are not, though over two years a few of
 * them always fall a week or a fortnight apart.
 */

const SEEDS = ['5f1c9a0be3d24417', '0a9e77c1d6b85f20', 'c3b8e0f4a1279d56', '9d20f6e8b4c13a77', 'e71a4c0d93f2b858'];
const TODAYS = [dayOf(Date.UTC(2025, 11, 26)), dayOf(Date.UTC(2026, 5, 26))];
const INSTITUTION = SANDBOX_INSTITUTIONS.find((institution) => institution.id === 'ins_first_platypus')!;
const SCHEDULED = new Set([...Object.values(FLOWS).map((flow) => flow.name), ...MERCHANTS.filter((shop) => shop.group === 'subscription' || shop.group === 'utility').map((shop) => shop.name)]);
const isoDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** Each account's posted transactions of the last two years, as the sandbox shows them on `today`. */
function postedHistory(seed: string, today: number): Map<string, RecurringInput[]> {
  const firstDay = today - HISTORY_DAYS + 1;
  const household = householdOf(seed, INSTITUTION, firstDay);
  const accounts = new Map<string, RecurringInput[]>();
  for (let day = firstDay; day <= today; day++) {
    for (const movement of household.on(day)) {
      const version = visibleVersion(seed, movement, today);
      if (version?.status !== 'POSTED') continue;
      const rows = accounts.get(movement.account) ?? [];
      rows.push({ id: version.remoteId, date: version.date, amount: (version.cents / 100).toFixed(2), description: movement.counterparty.name });
      accounts.set(movement.account, rows);
    }
  }
  return accounts;
}

describe('recurring streams of the sandbox household', () => {
  it.each(SEEDS)('household %s: every stream is a scheduled movement, and pay and subscriptions are found', (seed) => {
    for (const today of TODAYS) {
      const found: string[] = [];
      for (const [account, rows] of postedHistory(seed, today)) {
        for (const stream of detectStreams(rows, isoDay(today))) found.push(`${account} ${stream.description} ${stream.frequency}`);
      }
      expect(found.filter((stream) => !SCHEDULED.has(stream.split(' ').slice(1, -1).join(' ')))).toEqual([]);
      expect(found).toEqual(expect.arrayContaining(['checking Acme Corp BIWEEKLY', 'checking Credit Card Autopay MONTHLY', 'card Netflix MONTHLY', 'card Spotify MONTHLY']));
    }
  });
});
