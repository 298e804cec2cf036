import { expect, it } from 'vitest';
import type { DetectedStream } from '../../src/modules/recurring/detection.ts';
import type { StoredStream } from '../../src/modules/recurring/recurring.store.ts';
import { matchStreams } from '../../src/modules/recurring/stream-matching.ts';

const detected = (key: string, transactionIds: string[], lastAmount = '-39.00'): DetectedStream => ({
  key,
  direction: 'OUTFLOW',
  frequency: 'MONTHLY',
  status: 'MATURE',
  description: 'KLETTERHALLE NORDWAND ABO',
  merchantName: 'Kletterhalle Nordwand Abo',
  category: null,
  transactionIds,
  firstDate: '2026-01-05',
  lastDate: '2026-05-05',
  predictedNextDate: '2026-06-05',
  averageAmount: lastAmount,
  lastAmount,
});
const stored = (id: string, stream: DetectedStream): StoredStream => ({ id, accountId: 'a1', currencyCode: 'EUR', ...stream, transactionIds: [...stream.transactionIds].sort() });

it('keeps a stream’s id when its key changed but its members are the same (a merchant named anew by a new enrichment version)', () => {
  const before = stored('s1', detected('merchant kletterhalle nordwand abo mrz', ['t1', 't2', 't3']));
  const now = detected('kletterhalle nordwand abo', ['t1', 't2', 't3', 't4']);
  const { matches, vanished } = matchStreams([now], [before]);
  expect(matches).toEqual([{ detected: now, stored: before }]);
  expect(vanished).toEqual([]);
});

it('continues a stream whose transactions were all re-issued only under the same key', () => {
  const before = [stored('s1', detected('gym', ['t1', 't2', 't3'])), stored('s2', detected('climbing hall', ['t4', 't5', 't6']))];
  const now = detected('climbing hall', ['t7', 't8', 't9']);
  const { matches, vanished } = matchStreams([now], before);
  expect(matches).toEqual([{ detected: now, stored: before[1] }]);
  expect(vanished).toEqual([before[0]]);
});
