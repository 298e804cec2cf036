import type { EntityManager } from '@mikro-orm/postgresql';
import { copyIn, copyLine } from '../../db/copy.ts';
import { run } from '../../db/statement.ts';
import type { ReadRow, Row } from '../../db/table.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { ProviderTransaction } from '../../providers/provider-records.ts';
import type { EnrichmentInput } from '../../enrichment/enrichment.ts';
import { TRANSACTION } from './transaction.store.ts';
import { providerHints } from './provider-hints.ts';
import { ENRICHMENT_FIELDS, type Enricher } from './transaction-enrichment.ts';
import { enrichedColumns, unlessUser } from './transaction-enrichment.store.ts';

/*
 * A sync's side of the transaction table: a connection's pages of reported changes applied, and its
 * stored transactions as window reconciliation compares them with what the upstream reports.
 */

/** What a provider reports of a transaction; a page row adds a new id, and `accountRemoteId` to find the account by. */
const REPORTED = ['remoteId', 'date', 'description', 'amount', 'status', 'originalAmount', 'originalCurrencyCode', 'remoteData'] as const;
const PAGE = ['id', ...REPORTED, ...ENRICHMENT_FIELDS] as const;
type PageRow = Row<typeof TRANSACTION, (typeof PAGE)[number]> & { accountRemoteId: string };
const STORED = ['remoteId', 'date', 'amount', 'description', 'status'] as const;

/** A stored transaction as window reconciliation compares it with what the upstream reports. */
export type StoredTransaction = ReadRow<typeof TRANSACTION, (typeof STORED)[number]> & { accountRemoteId: string };

/** The statements of a sync's reads and writes of the transaction table; test/stores.test.ts prepares each. */
export const transactionSyncStatements = {
  // A posted transaction that replaces a pending one takes over the pending row: same id and metadata.
  // Only the pairs travel ($1 posted, $2 pending remote ids), not the page's rows. Both lookups name
  // their remote ids (= any), so each is a probe of the unique index whatever the planner estimates:
  // as a join or an anti-join, it may hash every row of the connection (0.3 s a page at 200k rows).
  takeOverPending: `update transaction t set remote_id = r.remote_id
      from unnest($1::text[], $2::text[]) as r(remote_id, pending_remote_id)
     where t.profile_id = $4 and t.connection_id = $3 and t.remote_id = any($2::text[]) and t.remote_id = r.pending_remote_id
       and r.remote_id <> all (array(select p.remote_id from transaction p where p.profile_id = $4 and p.connection_id = $3 and p.remote_id = any($1::text[])))`,
  // Only a row whose content changed is rewritten: a page reported again changes nothing. The page is
  // json, not jsonb: it is read once, row by row, and building it as jsonb first cost about a sixth of the statement.
  upsert: `insert into transaction (${TRANSACTION.list(['id', 'profileId', 'connectionId', 'accountId', ...REPORTED, ...ENRICHMENT_FIELDS, 'currencyCode', 'metadata', 'createdAt'])})
     select r.id, $1, $2, a.id, ${[...REPORTED, ...ENRICHMENT_FIELDS].map((field) => `r."${field}"`).join(', ')}, a.currency_code, null, now()
       from json_to_recordset($3::json) as r(${TRANSACTION.recordset(PAGE)}, "accountRemoteId" text)
       join account a on a.profile_id = $1 and a.connection_id = $2 and a.remote_id = r."accountRemoteId"
     on conflict (profile_id, connection_id, remote_id) do update
        set date = excluded.date, description = excluded.description, amount = excluded.amount, status = excluded.status,
            original_amount = excluded.original_amount, original_currency_code = excluded.original_currency_code,
            remote_data = transaction.remote_data || excluded.remote_data,
            ${enrichedColumns((field) => `excluded.${TRANSACTION.column(field)}`)}, ${unlessUser('transaction', (field) => `excluded.${TRANSACTION.column(field)}`)}
      where (transaction.date, transaction.description, transaction.amount, transaction.status, transaction.original_amount, transaction.original_currency_code, transaction.remote_data)
            is distinct from (excluded.date, excluded.description, excluded.amount, excluded.status, excluded.original_amount, excluded.original_currency_code,
                              transaction.remote_data || excluded.remote_data)
     returning id`,
  // Which of a batch's remote ids the connection stores, whether it stores any transaction at all, and
  // the transaction's time (the created_at of rows copied in).
  stored: `select now()::text as now, exists (select 1 from transaction where profile_id = $1 and connection_id = $2) as "storesAny",
      array(select remote_id from transaction where profile_id = $1 and connection_id = $2 and remote_id = any($3::text[])) as "remoteIds"`,
  remove: `delete from transaction where profile_id = $3 and connection_id = $1 and remote_id = any($2::text[]) returning id`,
  // Which of a page's account remote ids the connection has: a transaction of any other cannot be stored.
  knownAccounts: `select id, remote_id as "remoteId", kind, currency_code as "currencyCode" from account
      where profile_id = $3 and connection_id = $1 and remote_id = any($2::text[])`,
  storedFrom: `select ${TRANSACTION.select(STORED, 't')}, a.remote_id as "accountRemoteId"
       from transaction t join account a on a.profile_id = t.profile_id and a.id = t.account_id
      where t.profile_id = $3 and t.connection_id = $1 and (t.date >= $2::date or t.status = 'PENDING')`,
};

/** The columns of a first walk's rows copied in: no stored transaction can conflict with them (applyTransactionPages). */
const COPIED = ['id', 'profileId', 'connectionId', 'accountId', ...REPORTED, ...ENRICHMENT_FIELDS, 'currencyCode', 'createdAt'] as const;
const COPY_ROWS = `copy transaction (${TRANSACTION.list([...COPIED])}) from stdin`;

/** Who a connection's transactions belong to, and the provider whose data they carry. */
export interface TransactionOwner {
  connectionId: string;
  profileId: string;
  provider: string;
}

/** The stored ids of the transactions a page added, modified and removed. */
export interface AppliedChanges {
  added: string[];
  modified: string[];
  removed: string[];
  /** Reported transactions not stored: the connection has no account with their `accountRemoteId`. */
  orphans: ProviderTransaction[];
}

/** One page of reported changes: transactions to insert or update, then remote ids to delete. */
export interface ReportedChanges {
  reported: ProviderTransaction[];
  removals: string[];
}

/**
 * Applies pages of changes to a connection's transactions, one after the other, in the caller's
 * database transaction: per page, posted transactions take over their pending rows, then every
 * reported transaction is inserted or (when its content changed) updated, then its `removals`
 * (remote ids) are deleted. The rows travel as one parameter per statement, so a page costs the
 * same few statements whatever its size; the next page's rows are made (enriched and written out)
 * while the database applies the current one's. A transaction of an account the connection does
 * not have is returned among its page's `orphans`, not stored. Each stored transaction is enriched
 * by the enricher `enricherOf` reads (once, when a page has something to store).
 *
 * `firstWalk`: the connection's first walk, whose rows are nearly all new. One statement reads which
 * of the batch's remote ids are stored; a row no stored transaction can conflict with (its remote id
 * is neither stored nor reported earlier in the batch, nor twice in its page, and the pending row it
 * would take over is neither) is copied in with COPY, and counted as added; the others go through
 * the upsert as in any walk, and a takeover is sent only for pending rows that exist. `walk`: what
 * the walk knows of the remote ids stored, kept from one of its batches to the next (WalkRemoteIds).
 */
export async function applyTransactionPages(
  tx: EntityManager,
  owner: TransactionOwner,
  pages: ReportedChanges[],
  enricherOf: () => Promise<Enricher>,
  { firstWalk = false, walk }: { firstWalk?: boolean; walk?: WalkRemoteIds } = {},
): Promise<AppliedChanges[]> {
  const accounts = await knownAccounts(tx, owner, pages.flatMap((page) => page.reported));
  const upserts = pages.map((page) => page.reported.filter((transaction) => accounts.has(transaction.accountRemoteId)));
  if (!upserts.some((page) => page.length > 0)) return writePages(tx, owner, pages, accounts, () => ({ takeovers: [] }));
  const plan = firstWalk ? await copyPlan(tx, owner, upserts, walk) : undefined;
  const enricher = await enricherOf();
  return writePages(tx, owner, pages, accounts, (index) => {
    const rows = upserts[index]!.map((transaction) => pageRow(transaction, owner.provider, accounts.get(transaction.accountRemoteId)!, enricher));
    if (!plan) return { takeovers: upserts[index]!.filter((transaction) => transaction.pendingRemoteId !== null), upsert: rows.length > 0 ? upsertOf(rows) : undefined };
    const { copied, takeovers } = plan.split(index);
    const upserted = rows.filter((row) => !copied.has(row.remoteId));
    const copies = rows.filter((row) => copied.has(row.remoteId));
    return {
      takeovers,
      upsert: upserted.length > 0 ? upsertOf(upserted) : undefined,
      copy: copies.length > 0 ? { text: copies.map((row) => copyRow(row, owner, accounts.get(row.accountRemoteId)!, plan.now)).join(''), ids: copies.map((row) => row.id) } : undefined,
    };
  });
}

/** A page's rows ready to send, made before its turn. */
interface PreparedPage {
  /** Posted transactions whose pending row may be stored, to take it over. */
  takeovers: ProviderTransaction[];
  /** Rows for the upsert: its JSON parameter, and the ids they propose (a row returned with one was inserted). */
  upsert?: { json: string; proposed: Set<string> };
  /** Rows to copy in: COPY text, and their ids (all added). */
  copy?: { text: string; ids: string[] };
}

function upsertOf(rows: PageRow[]): PreparedPage['upsert'] {
  return { json: JSON.stringify(rows), proposed: new Set(rows.map((row) => row.id)) };
}

/** A page row as a line of COPY_ROWS, stored at `now` (the transaction's time, as the upsert's rows are). */
function copyRow(row: PageRow, owner: TransactionOwner, account: KnownAccount, now: string): string {
  return copyLine([row.id, owner.profileId, owner.connectionId, account.id, ...REPORTED.map((field) => row[field]), ...ENRICHMENT_FIELDS.map((field) => row[field]), account.currencyCode, now]);
}

/**
 * What a first walk knows, from one of its batches to the next in this process, of the remote ids
 * the connection stores: until its first batch, nothing (`unread`); then, when that batch found the
 * connection storing no transaction, every one (the set its batches add what they write to), else
 * nothing, each batch reading those it names (`each batch`), as do batches applied without a walk's
 * knowledge. A set may hold more than is stored (a pending id taken over, a row removed): such a row
 * only goes through the upsert. The walk holds the connection's lock and checks its cursor at each
 * batch, so no other writer adds transactions between two of its batches; should one all the same,
 * the unique index refuses the copy and the batch rolls back (the retry reads again).
 */
export interface WalkRemoteIds {
  known: Set<string> | 'unread' | 'each batch';
}

/** A walk's knowledge of the stored remote ids before its first batch. */
export function unreadRemoteIds(): WalkRemoteIds {
  return { known: 'unread' };
}

/** Remote ids a walk keeps in memory at most (~20 MB); past them, each of its batches reads those it names. */
const WALK_REMOTE_IDS = 250_000;

/**
 * Which rows of a first walk's batch are copied in. One statement reads which of the batch's remote
 * ids, and of the pending ones its posted transactions would take over, are stored (none to read
 * when the walk knows them all: `walk`); `split` then decides page by page, called in order, knowing
 * what the batch's earlier pages wrote.
 */
async function copyPlan(tx: EntityManager, owner: TransactionOwner, upserts: ProviderTransaction[][], walk?: WalkRemoteIds) {
  if (walk?.known instanceof Set && walk.known.size > WALK_REMOTE_IDS) walk.known = 'each batch';
  const known = walk?.known instanceof Set ? walk.known : undefined;
  const named = known ? [] : upserts.flat().flatMap((transaction) => (transaction.pendingRemoteId === null ? [transaction.remoteId] : [transaction.remoteId, transaction.pendingRemoteId]));
  const { rows: [read] } = await run<{ now: string; storesAny: boolean; remoteIds: string[] }>(tx, transactionSyncStatements.stored, [owner.profileId, owner.connectionId, [...new Set(named)]]);
  // Remote ids stored, or written by an earlier page of the batch (or, when the walk knows them, of the walk).
  const present = known ?? new Set(read!.remoteIds);
  if (walk && walk.known === 'unread') walk.known = read!.storesAny ? 'each batch' : present;
  return {
    now: read!.now,
    split(index: number): { copied: Set<string>; takeovers: ProviderTransaction[] } {
      const page = upserts[index]!;
      const takeovers = page.filter((transaction) => transaction.pendingRemoteId !== null && present.has(transaction.pendingRemoteId));
      const upserted = new Set(takeovers.map((posted) => posted.remoteId));
      const inPage = new Set<string>();
      for (const { remoteId } of page) {
        // Stored, or twice in the page: to the upsert (every time), as without COPY.
        if (present.has(remoteId) || inPage.has(remoteId)) upserted.add(remoteId);
        inPage.add(remoteId);
      }
      for (const remoteId of inPage) present.add(remoteId);
      return { copied: new Set([...inPage].filter((remoteId) => !upserted.has(remoteId))), takeovers };
    },
  };
}

/**
 * Writes each page in turn with the rows `prepare` makes of it: takeovers, the upsert, the copy, then
 * its removals. The next page's rows are made while the database applies this page's last write:
 * on this core, while the database works on the other.
 */
async function writePages(
  tx: EntityManager,
  owner: TransactionOwner,
  pages: ReportedChanges[],
  accounts: Map<string, KnownAccount>,
  prepare: (index: number) => PreparedPage,
): Promise<AppliedChanges[]> {
  const applied: AppliedChanges[] = [];
  let prepared = pages.length > 0 ? prepare(0) : undefined;
  for (const [index, page] of pages.entries()) {
    const changes: AppliedChanges = { added: [], modified: [], removed: [], orphans: page.reported.filter((transaction) => !accounts.has(transaction.accountRemoteId)) };
    const { takeovers, upsert, copy } = prepared!;
    if (takeovers.length > 0) {
      await run(tx, transactionSyncStatements.takeOverPending, [takeovers.map((posted) => posted.remoteId), takeovers.map((posted) => posted.pendingRemoteId), owner.connectionId, owner.profileId]);
    }
    if (upsert && copy) await upserted(tx, owner, upsert, changes);
    // The next page is made once this one's last write is on its way: the copy's text handed to the
    // connection (after the server's answer to COPY), or the upsert sent (on the next turn of the loop).
    let handed: Promise<unknown> = new Promise((resolve) => setImmediate(resolve));
    let writing: Promise<void> | undefined;
    if (copy) {
      let sent!: () => void;
      handed = new Promise<void>((resolve) => (sent = resolve));
      writing = copyIn(tx, COPY_ROWS, copy.text, sent);
    } else if (upsert) {
      writing = upserted(tx, owner, upsert, changes);
    }
    // Awaited below: a failure meanwhile is no unhandled rejection.
    writing?.catch(() => undefined);
    await Promise.race([handed, writing]);
    prepared = index + 1 < pages.length ? prepare(index + 1) : undefined;
    await writing;
    if (copy) changes.added.push(...copy.ids);
    if (page.removals.length > 0) changes.removed = (await run<{ id: string }>(tx, transactionSyncStatements.remove, [owner.connectionId, page.removals, owner.profileId])).rows.map(({ id }) => id);
    applied.push(changes);
  }
  return applied;
}

/** Runs the upsert of `upsert`'s rows, their stored ids recorded in `changes`. */
async function upserted(tx: EntityManager, owner: TransactionOwner, upsert: NonNullable<PreparedPage['upsert']>, changes: AppliedChanges): Promise<void> {
  const written = await run<{ id: string }>(tx, transactionSyncStatements.upsert, [owner.profileId, owner.connectionId, upsert.json]);
  // A row inserted has the new id its page row proposed; an updated one keeps its own (a partitioned
  // table has no xmax to tell them apart). A taken-over pending row counts as modified: the upsert updates it (to POSTED).
  for (const { id } of written.rows) (upsert.proposed.has(id) ? changes.added : changes.modified).push(id);
}

interface KnownAccount {
  id: string;
  kind: EnrichmentInput['accountKind'];
  currencyCode: string;
}

/** The connection's accounts that the reported transactions name, by remote id: a transaction of any other cannot be stored. */
async function knownAccounts(tx: EntityManager, owner: TransactionOwner, reported: ProviderTransaction[]): Promise<Map<string, KnownAccount>> {
  if (reported.length === 0) return new Map();
  const accountRemoteIds = [...new Set(reported.map((transaction) => transaction.accountRemoteId))];
  const { rows } = await run<KnownAccount & { remoteId: string }>(tx, transactionSyncStatements.knownAccounts, [owner.connectionId, accountRemoteIds, owner.profileId]);
  return new Map(rows.map(({ remoteId, ...account }) => [remoteId, account]));
}

/** Every stored transaction of the profile's connection dated from `start`, and every pending one. */
export async function storedFrom(em: EntityManager, profileId: string, connectionId: string, start: string): Promise<StoredTransaction[]> {
  return (await run<StoredTransaction>(em, transactionSyncStatements.storedFrom, [connectionId, start, profileId])).rows;
}

/** A provider's own data as stored: under the provider's name, with the enrichment beside it. */
export function remoteDataFrom(provider: string, transaction: ProviderTransaction): Record<string, unknown> {
  return { [provider]: transaction.raw, ...(transaction.enrichment ? { enrichment: transaction.enrichment } : {}) };
}

/** The amount in the payment's own currency as stored: both or neither (an amount without its currency means nothing). */
export function originalOf({ originalAmount, originalCurrencyCode }: ProviderTransaction): { originalAmount: string | null; originalCurrencyCode: string | null } {
  return originalAmount && originalCurrencyCode ? { originalAmount, originalCurrencyCode } : { originalAmount: null, originalCurrencyCode: null };
}

function pageRow(transaction: ProviderTransaction, provider: string, account: KnownAccount, enricher: Enricher): PageRow {
  const { description, amount } = transaction;
  return {
    id: uuidv7(),
    remoteId: transaction.remoteId,
    accountRemoteId: transaction.accountRemoteId,
    date: transaction.date,
    description,
    amount,
    status: transaction.status,
    ...originalOf(transaction),
    remoteData: remoteDataFrom(provider, transaction),
    ...enricher({ description, amount, currencyCode: account.currencyCode, accountKind: account.kind, hints: providerHints(transaction.enrichment) }),
  };
}
