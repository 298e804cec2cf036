import type { EntityManager } from '@mikro-orm/postgresql';
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
  remove: `delete from transaction where profile_id = $3 and connection_id = $1 and remote_id = any($2::text[]) returning id`,
  // Which of a page's account remote ids the connection has: a transaction of any other cannot be stored.
  knownAccounts: `select remote_id as "remoteId", kind, currency_code as "currencyCode" from account
      where profile_id = $3 and connection_id = $1 and remote_id = any($2::text[])`,
  storedFrom: `select ${TRANSACTION.select(STORED, 't')}, a.remote_id as "accountRemoteId"
       from transaction t join account a on a.profile_id = t.profile_id and a.id = t.account_id
      where t.profile_id = $3 and t.connection_id = $1 and (t.date >= $2::date or t.status = 'PENDING')`,
};

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
 * (remote ids) are deleted. The rows travel as one JSON parameter per statement, so a page costs the
 * same few statements whatever its size; the next page's rows are made (enriched, written as JSON)
 * while the database applies the current one's upsert. A transaction of an account the connection
 * does not have is returned among its page's `orphans`, not stored. Each stored transaction is
 * enriched in the same statement, by the enricher `enricherOf` reads (once, when a page has
 * something to store).
 */
export async function applyTransactionPages(
  tx: EntityManager,
  owner: TransactionOwner,
  pages: ReportedChanges[],
  enricherOf: () => Promise<Enricher>,
): Promise<AppliedChanges[]> {
  const accounts = await knownAccounts(tx, owner, pages.flatMap((page) => page.reported));
  const upserts = pages.map((page) => page.reported.filter((transaction) => accounts.has(transaction.accountRemoteId)));
  const enricher = upserts.some((page) => page.length > 0) ? await enricherOf() : undefined;
  const prepare = (index: number): PreparedPage => {
    const rows = upserts[index]!.map((transaction) => pageRow(transaction, owner.provider, accounts.get(transaction.accountRemoteId)!, enricher!));
    return { proposed: new Set(rows.map((row) => row.id)), json: JSON.stringify(rows) };
  };
  const applied: AppliedChanges[] = [];
  let prepared = pages.length > 0 ? prepare(0) : undefined;
  for (const [index, page] of pages.entries()) {
    const changes: AppliedChanges = { added: [], modified: [], removed: [], orphans: page.reported.filter((transaction) => !accounts.has(transaction.accountRemoteId)) };
    const { proposed, json } = prepared!;
    const prepareNext = () => (prepared = index + 1 < pages.length ? prepare(index + 1) : undefined);
    if (upserts[index]!.length > 0) {
      const takeovers = upserts[index]!.filter((transaction) => transaction.pendingRemoteId !== null);
      if (takeovers.length > 0) {
        await run(tx, transactionSyncStatements.takeOverPending, [takeovers.map((posted) => posted.remoteId), takeovers.map((posted) => posted.pendingRemoteId), owner.connectionId, owner.profileId]);
      }
      const upserting = run<{ id: string }>(tx, transactionSyncStatements.upsert, [owner.profileId, owner.connectionId, json]);
      // Awaited below; a failure meanwhile is not an unhandled rejection.
      upserting.catch(() => undefined);
      // The upsert leaves on the next turn of the event loop: the next page's rows are made
      // meanwhile, on this core, while the database applies this page on the other.
      await new Promise((resolve) => setImmediate(resolve));
      prepareNext();
      // A row inserted has the new id its page row proposed; an updated one keeps its own (a partitioned
      // table has no xmax to tell them apart). A taken-over pending row counts as modified: the upsert updates it (to POSTED).
      for (const { id } of (await upserting).rows) (proposed.has(id) ? changes.added : changes.modified).push(id);
    } else {
      prepareNext();
    }
    if (page.removals.length > 0) changes.removed = (await run<{ id: string }>(tx, transactionSyncStatements.remove, [owner.connectionId, page.removals, owner.profileId])).rows.map(({ id }) => id);
    applied.push(changes);
  }
  return applied;
}

/** Applies one page of changes (applyTransactionPages of that page). */
export async function applyTransactionChanges(
  tx: EntityManager,
  owner: TransactionOwner,
  reported: ProviderTransaction[],
  removals: string[],
  enricherOf: () => Promise<Enricher>,
): Promise<AppliedChanges> {
  const [changes] = await applyTransactionPages(tx, owner, [{ reported, removals }], enricherOf);
  return changes!;
}

/** A page's rows ready to send: the ids they propose, and the rows as the upsert's JSON parameter. */
interface PreparedPage {
  proposed: Set<string>;
  json: string;
}

interface KnownAccount {
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
