import type { EntityManager } from '@mikro-orm/postgresql';
import { uuidv7 } from '../../lib/ids.ts';
import { recordEvent } from '../event/event.service.ts';
import type { ConnectionEntity } from '../connection/connection.entity.ts';
import { connectionOrFail } from '../connection/connection.store.ts';
import { countryOfConnection } from '../../providers/institution-country.ts';
import { toUnits, withinPercent } from './amounts.ts';
import { bankingCalendarOf } from './bank-holidays.ts';
import { dayNumber, isoDate } from './cadence.ts';
import { detectStreams, type DetectedStream } from './detection.ts';
import { presentStream } from './recurring.presenter.ts';
import { accountsOfConnection, institutionOfConnection, postedTransactions, storedStreams, writeStreams, type RecurringStreamRecord, type StoredStream, type StreamAccount, type StreamConnection, type StreamWrite } from './recurring.store.ts';
import { matchStreams } from './stream-matching.ts';

/** How far back streams are looked for, and at most how many of an account's transactions (the newest) are read. */
export const HISTORY = { days: 730, transactions: 20_000 } as const;
/** How far a stream's last or average amount must move for `recurring_stream.amount_changed`. */
export const AMOUNT_CHANGE_PERCENT = 5;

/**
 * Recomputes the recurring streams of a connection's accounts from their posted transactions of the
 * last two years, as of `today` (`YYYY-MM-DD`), next dates on the banking days of the institution's
 * country (weekends only when it is not known), and writes what changed in one transaction with its
 * events: `recurring_stream.created` for a new stream, `.amount_changed` when its last or average
 * amount moved by more than AMOUNT_CHANGE_PERCENT, `.ended` when it turned ENDED. A stored stream no
 * longer detected (its transactions were removed) is removed, without an event.
 */
export async function recomputeStreams(em: EntityManager, of: StreamConnection, today: string): Promise<void> {
  const { connectionId, profileId } = of;
  const accounts = await accountsOfConnection(em, of);
  if (accounts.length === 0) return;
  const institution = await institutionOfConnection(em, of);
  const isBankingDay = bankingCalendarOf(institution ? countryOfConnection(institution.provider, institution.institutionId) : null);
  const since = isoDate(dayNumber(today) - HISTORY.days);
  const detected = new Map<StreamAccount, DetectedStream[]>();
  for (const account of accounts) detected.set(account, detectStreams(await postedTransactions(em, account, since, HISTORY.transactions), today, isBankingDay));
  await em.transactional(async (tx) => {
    // The connection's row lock orders recomputations of one connection (a retried job beside a new one).
    const connection = await connectionOrFail(tx, { id: connectionId, profileId }, { lock: true, profile: true });
    const stored = await storedStreams(tx, profileId, accounts.map((account) => account.id));
    const changes = { created: [] as StreamWrite[], updated: [] as StreamWrite[], removed: [] as string[] };
    const events: Array<{ type: string; write: StreamWrite; metadata?: Record<string, unknown> }> = [];
    for (const [account, streams] of detected) {
      const { matches, vanished } = matchStreams(streams, stored.filter((stream) => stream.accountId === account.id));
      changes.removed.push(...vanished.map((stream) => stream.id));
      for (const { detected: stream, stored: previous } of matches) {
        const write = { id: previous?.id ?? uuidv7(), account, stream };
        if (!previous) {
          changes.created.push(write);
          events.push({ type: 'recurring_stream.created', write });
          continue;
        }
        if (!changed(previous, stream)) continue;
        changes.updated.push(write);
        if (amountMoved(previous, stream)) events.push({ type: 'recurring_stream.amount_changed', write, metadata: { previous: { averageAmount: Number(previous.averageAmount), lastAmount: Number(previous.lastAmount) } } });
        if (stream.status === 'ENDED' && previous.status !== 'ENDED') events.push({ type: 'recurring_stream.ended', write });
      }
    }
    await writeStreams(tx, profileId, changes);
    for (const { type, write, metadata } of events) {
      recordStreamEvent(tx, connection, type, { id: write.id, accountId: write.account.id, currencyCode: write.account.currencyCode, ...write.stream }, metadata);
    }
  });
}

/** Records a `recurring_stream.*` event of the connection's environment and profile, in the caller's transaction. */
export function recordStreamEvent(tx: EntityManager, connection: ConnectionEntity, type: string, stream: Omit<RecurringStreamRecord, 'key'>, metadata?: Record<string, unknown>): void {
  recordEvent(tx, connection.environment.id, type, connection.profile, presentStream(stream), metadata);
}

/** Whether a recomputed stream differs from its stored self in anything written. */
function changed(previous: StoredStream, stream: DetectedStream): boolean {
  const members = [...stream.transactionIds].sort();
  return (
    previous.key !== stream.key ||
    previous.description !== stream.description ||
    previous.merchantName !== stream.merchantName ||
    previous.category !== stream.category ||
    previous.frequency !== stream.frequency ||
    previous.status !== stream.status ||
    previous.firstDate !== stream.firstDate ||
    previous.lastDate !== stream.lastDate ||
    previous.predictedNextDate !== stream.predictedNextDate ||
    toUnits(previous.averageAmount) !== toUnits(stream.averageAmount) ||
    toUnits(previous.lastAmount) !== toUnits(stream.lastAmount) ||
    previous.transactionIds.length !== members.length ||
    previous.transactionIds.some((id, index) => id !== members[index])
  );
}

function amountMoved(previous: StoredStream, stream: DetectedStream): boolean {
  return (
    !withinPercent(toUnits(stream.lastAmount), toUnits(previous.lastAmount), AMOUNT_CHANGE_PERCENT) ||
    !withinPercent(toUnits(stream.averageAmount), toUnits(previous.averageAmount), AMOUNT_CHANGE_PERCENT)
  );
}
