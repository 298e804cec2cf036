import { TransactionsUpdateStatus, type RemovedTransaction, type Transaction, type TransactionsSyncRequest, type TransactionsSyncResponse } from 'plaid';
import { errors } from './errors.ts';
import type { Change, FakeItem } from './item.ts';

/**
 * Where a walk stands: it reports the net changes between log positions `from` and `head`, and has
 * delivered `offset` of them. `offset` 0 starts a new walk (from `from` up to the log's end).
 */
interface Position {
  item: string;
  from: number;
  head: number;
  offset: number;
}

const encode = (position: Position) => Buffer.from(JSON.stringify([position.item, position.from, position.head, position.offset])).toString('base64url');

function decode(cursor: string, item: FakeItem): Position {
  try {
    const [owner, from, head, offset] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const fits = owner === item.itemId && [from, head, offset].every((n) => Number.isInteger(n)) && 0 <= (from as number) && (from as number) <= (head as number) && (head as number) <= item.log.length;
    if (fits) return { item: owner, from: from as number, head: head as number, offset: offset as number };
  } catch {
    // fall through: not one of ours
  }
  throw errors.invalidField('cursor is not a valid cursor for this item');
}

/**
 * What changed between two log positions, one entry per transaction: added then modified is
 * added; added then removed is nothing (the caller never saw it); anything then removed is removed.
 */
function netChanges(log: readonly Change[], from: number, head: number): Change[] {
  const net = new Map<string, Change>();
  for (let i = from; i < head; i++) {
    const change = log[i]!;
    const earlier = net.get(change.transactionId);
    if (!earlier) net.set(change.transactionId, change);
    else if (change.kind === 'removed' && earlier.kind === 'added') net.delete(change.transactionId);
    else if (change.kind === 'removed') net.set(change.transactionId, change);
  }
  return [...net.values()];
}

export type SyncPage = Omit<TransactionsSyncResponse, 'request_id'>;

/**
 * One `/transactions/sync` page, with the accounts its transactions belong to (listed or not). A walk that resumes from a mid-walk cursor after the log grew
 * fails with TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION, as Plaid's does; the caller restarts
 * from the walk's first cursor. `onFirstOfMany` runs after a page that has more to follow.
 */
export function syncPage(item: FakeItem, request: TransactionsSyncRequest, onFirstOfMany: () => void): SyncPage {
  if (item.updateStatus === TransactionsUpdateStatus.NotReady) {
    return { transactions_update_status: item.updateStatus, accounts: [], added: [], modified: [], removed: [], next_cursor: '', has_more: false };
  }
  const head = item.log.length;
  const count = request.count ?? 100;
  let position: Position;
  if (request.cursor === undefined || request.cursor === '') position = { item: item.itemId, from: 0, head, offset: 0 };
  else if (request.cursor === 'now') position = { item: item.itemId, from: head, head, offset: 0 };
  else position = decode(request.cursor, item);
  if (position.offset === 0) position = { ...position, head };
  else if (position.head !== head) throw errors.mutationDuringPagination();

  const accountFilter = request.options?.account_id;
  const changes = netChanges(item.log, position.from, position.head).filter((change) => accountFilter === undefined || change.accountId === accountFilter);
  const page = changes.slice(position.offset, position.offset + count);
  const hasMore = position.offset + count < changes.length;
  const next: Position = hasMore ? { ...position, offset: position.offset + count } : { item: item.itemId, from: position.head, head: position.head, offset: 0 };
  const present = (change: Change): Transaction => {
    const transaction = structuredClone(item.view.get(change.transactionId)!);
    return { ...transaction, original_description: request.options?.include_original_description ? transaction.name : null };
  };
  const removed: RemovedTransaction[] = page.filter((c) => c.kind === 'removed').map((c) => ({ transaction_id: c.transactionId, account_id: c.accountId }));
  // As Plaid documents: only the accounts the page's transactions belong to.
  const onPage = new Set(page.map((change) => change.accountId));
  const result: SyncPage = {
    transactions_update_status: item.updateStatus,
    accounts: item.accounts.filter((account) => onPage.has(account.accountId)).map((account) => item.describeAccount(account, null)),
    added: page.filter((c) => c.kind === 'added').map(present),
    modified: page.filter((c) => c.kind === 'modified').map(present),
    removed,
    next_cursor: encode(next),
    has_more: hasMore,
  };
  if (hasMore && position.offset === 0) onFirstOfMany();
  return result;
}
