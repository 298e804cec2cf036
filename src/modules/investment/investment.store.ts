import type { EntityManager } from '@mikro-orm/postgresql';
import { pastBound, whereBuilder, type SqlWhere } from '../../db/keyset-where.ts';
import { copyIn, copyLine } from '../../db/copy.ts';
import { run } from '../../db/statement.ts';
import { changedFrom, col, table, takeExcluded, type ReadRow } from '../../db/table.ts';
import { decodeId, uuidv7 } from '../../lib/ids.ts';
import { INVESTMENT_TRANSACTION_TYPES, type ProviderHolding, type ProviderInvestmentTransaction } from '../../providers/provider-investments.ts';
import type { KeysetBound } from '../transaction/transaction.store.ts';
import type { HoldingFilter, InvestmentTransactionFilter } from '../../../generated/graphql.ts';

/** The holding table as its SQL reads and writes it (checked against the entity by test/stores.test.ts). */
export const HOLDING = table('holding', {
  id: col.uuid(),
  profileId: col.uuid(),
  connectionId: col.uuid(),
  accountId: col.uuid(),
  securityId: col.uuid(),
  quantity: col.money(),
  price: col.money(),
  priceDate: col.date().orNull(),
  value: col.money(),
  costBasis: col.money().orNull(),
  currencyCode: col.text(),
  remoteData: col.json<Record<string, unknown>>(),
  lastSeenAt: col.timestamp(),
  createdAt: col.timestamp(),
});

/** The investment_transaction table as its SQL reads and writes it (checked against the entity by test/stores.test.ts). */
export const INVESTMENT_TRANSACTION = table('investment_transaction', {
  id: col.uuid(),
  profileId: col.uuid(),
  connectionId: col.uuid(),
  accountId: col.uuid(),
  securityId: col.uuid().orNull(),
  remoteId: col.text(),
  date: col.date(),
  type: col.oneOf(INVESTMENT_TRANSACTION_TYPES),
  subtype: col.text().orNull(),
  quantity: col.money(),
  price: col.money(),
  fees: col.money().orNull(),
  amount: col.money(),
  currencyCode: col.text(),
  description: col.text(),
  remoteData: col.json<Record<string, unknown>>(),
  createdAt: col.timestamp(),
});

const HOLDING_RECORD = ['id', 'accountId', 'securityId', 'quantity', 'price', 'priceDate', 'value', 'costBasis', 'currencyCode', 'remoteData', 'lastSeenAt', 'createdAt'] as const;
const HOLDING_REPORTED = ['securityId', 'quantity', 'price', 'priceDate', 'value', 'costBasis', 'currencyCode', 'remoteData'] as const;
/** What a change of a holding is: its content, not its remote data (which carries the upstream's timestamps). */
const HOLDING_CONTENT = ['quantity', 'price', 'priceDate', 'value', 'costBasis', 'currencyCode'] as const;
const ACTIVITY_RECORD = ['id', 'accountId', 'securityId', 'date', 'type', 'subtype', 'quantity', 'price', 'fees', 'amount', 'currencyCode', 'description', 'remoteData', 'createdAt'] as const;
const ACTIVITY_REPORTED = ['remoteId', 'securityId', 'date', 'type', 'subtype', 'quantity', 'price', 'fees', 'amount', 'currencyCode', 'description', 'remoteData'] as const;
const ACTIVITY_CONTENT = ['securityId', 'date', 'type', 'subtype', 'quantity', 'price', 'fees', 'amount', 'currencyCode', 'description'] as const;
/** The columns activity is written with, by the upsert and by the copy. */
const ACTIVITY_COLUMNS = INVESTMENT_TRANSACTION.list(['id', 'profileId', 'connectionId', 'accountId', ...ACTIVITY_REPORTED, 'createdAt']);
/** A connection's first activity, copied in: nothing stored can conflict with it (reconcileActivity). */
const COPY_ACTIVITY = `copy investment_transaction (${ACTIVITY_COLUMNS}) from stdin`;

type HoldingRow = ReadRow<typeof HOLDING, (typeof HOLDING_RECORD)[number]>;
type ActivityRow = ReadRow<typeof INVESTMENT_TRANSACTION, (typeof ACTIVITY_RECORD)[number]>;
/** A holding as GraphQL reads it; `date` is the day it was recorded, its page key. */
export type HoldingRecord = Omit<HoldingRow, 'lastSeenAt' | 'createdAt'> & { lastSeenAt: Date; createdAt: Date; date: string };
export type InvestmentTransactionRecord = Omit<ActivityRow, 'createdAt'> & { createdAt: Date };

/** The statements of the holding and investment_transaction tables that take no filter; test/stores.test.ts prepares each. */
export const investmentStatements = {
  // The snapshot's rows travel as one JSON parameter ($3); an account the connection lacks drops its rows.
  // Only a row whose content changed is rewritten (and counted as a change).
  upsertHoldings: `insert into holding (${HOLDING.list(['id', 'profileId', 'connectionId', 'accountId', ...HOLDING_REPORTED, 'lastSeenAt', 'createdAt'])})
     select r.id, $1, $2, a.id, ${HOLDING_REPORTED.map((field) => `r."${field}"`).join(', ')}, now(), now()
       from jsonb_to_recordset($3::jsonb) as r(${HOLDING.recordset(['id', ...HOLDING_REPORTED])}, "accountRemoteId" text)
       join account a on a.profile_id = $1 and a.connection_id = $2 and a.remote_id = r."accountRemoteId"
     on conflict (profile_id, account_id, security_id) do update
        set ${takeExcluded(HOLDING_REPORTED.filter((field) => field !== 'securityId'))}
      where ${changedFrom('holding', HOLDING_CONTENT)}
     returning id`,
  // What the snapshot no longer holds ($2: its [accountRemoteId, securityId] pairs) is gone; the rest was seen now.
  removeUnheld: `delete from holding h where h.profile_id = $3 and h.connection_id = $1 and (h.account_id, h.security_id) not in (
       select a.id, r."securityId" from jsonb_to_recordset($2::jsonb) as r("accountRemoteId" text, "securityId" uuid)
         join account a on a.profile_id = $3 and a.connection_id = $1 and a.remote_id = r."accountRemoteId")`,
  seen: `update holding set last_seen_at = now() where profile_id = $2 and connection_id = $1`,
  // The accounts of the connection among the remote ids a snapshot names: rows of any other cannot be stored.
  knownAccounts: `select id, remote_id as "remoteId" from account where profile_id = $3 and connection_id = $1 and remote_id = any($2::text[])`,
  // Whether the connection stores any activity yet, and the transaction's time (the created_at of rows copied in).
  storesActivity: `select now()::text as now, exists (select 1 from investment_transaction where profile_id = $1 and connection_id = $2) as "storesAny"`,
  upsertActivity: `insert into investment_transaction (${ACTIVITY_COLUMNS})
     select r.id, $1, $2, a.id, ${ACTIVITY_REPORTED.map((field) => `r."${field}"`).join(', ')}, now()
       from jsonb_to_recordset($3::jsonb) as r(${INVESTMENT_TRANSACTION.recordset(['id', ...ACTIVITY_REPORTED])}, "accountRemoteId" text)
       join account a on a.profile_id = $1 and a.connection_id = $2 and a.remote_id = r."accountRemoteId"
     on conflict (profile_id, account_id, remote_id) do update
        set ${takeExcluded(ACTIVITY_REPORTED.filter((field) => field !== 'remoteId'))}
      where ${changedFrom('investment_transaction', ACTIVITY_CONTENT)}
     returning id`,
  // Activity of the window [$2, $3] the upstream no longer reports ($4: [accountRemoteId, remoteId] pairs) is removed.
  removeUnreported: `delete from investment_transaction t where t.profile_id = $5 and t.connection_id = $1 and t.date between $2::date and $3::date and (t.account_id, t.remote_id) not in (
       select a.id, r."remoteId" from jsonb_to_recordset($4::jsonb) as r("accountRemoteId" text, "remoteId" text)
         join account a on a.profile_id = $5 and a.connection_id = $1 and a.remote_id = r."accountRemoteId")`,
  holdingsOfAccounts: `select ${HOLDING.select(HOLDING_RECORD, 'h')}, (h.created_at at time zone 'UTC')::date::text as date
       from holding h join security s on s.id = h.security_id
      where h.account_id = any($1::uuid[]) and h.profile_id = $2 order by s.name nulls last, h.id`,
};

/**
 * A holding snapshot applied: how many rows it inserted or changed, and how many it removed; the
 * reported rows left out because they name an account the connection does not have or a security
 * the snapshot does not describe, and the activity kept without the security it names.
 */
export interface SnapshotChanges {
  written: number;
  removed: number;
  unmatched: Unmatched;
}

export interface Unmatched {
  /** Left out: of an unknown account, or (a holding) of an unknown security. */
  dropped: Array<{ accountRemoteId: string; securityRemoteId: string | null; missing: 'account' | 'security' }>;
  /** Investment transactions stored without their security, which the snapshot does not describe. */
  unlinked: Array<{ securityRemoteId: string }>;
}

/** Who a connection's rows belong to. */
export interface InvestmentOwner {
  connectionId: string;
  profileId: string;
  /** Its data is stored under `remoteData[provider]`, as a transaction's. */
  provider: string;
}

/**
 * Makes the connection's holdings what the snapshot says, in the caller's transaction: each reported
 * (account, security) is inserted, or updated when its content changed (keeping its id), every other
 * holding of the connection is removed, and all are marked seen now. `securityIds` maps the
 * provider's security ids to stored ones. Adapters report one holding per (account, security), lots
 * summed; should one report two, the second wins. A holding of an account the connection does not
 * have or of a security the snapshot does not describe is left out, and returned as unmatched.
 */
export async function replaceHoldings(tx: EntityManager, owner: InvestmentOwner, holdings: ProviderHolding[], securityIds: Map<string, string>): Promise<SnapshotChanges> {
  const accounts = await knownAccounts(tx, owner, holdings);
  const unmatched: Unmatched = { dropped: [], unlinked: [] };
  const byPosition = new Map<string, Record<string, unknown>>();
  for (const holding of holdings) {
    const securityId = securityIds.get(holding.securityRemoteId);
    const missing = !accounts.has(holding.accountRemoteId) ? 'account' : !securityId ? 'security' : null;
    if (missing) {
      unmatched.dropped.push({ accountRemoteId: holding.accountRemoteId, securityRemoteId: holding.securityRemoteId, missing });
      continue;
    }
    const { accountRemoteId, quantity, price, priceDate, value, costBasis, currencyCode, raw } = holding;
    byPosition.set(`${accountRemoteId}\n${securityId}`, { id: uuidv7(), accountRemoteId, securityId, quantity, price, priceDate, value, costBasis, currencyCode, remoteData: { [owner.provider]: raw } });
  }
  const rows = [...byPosition.values()];
  const written = rows.length === 0 ? 0 : (await run(tx, investmentStatements.upsertHoldings, [owner.profileId, owner.connectionId, JSON.stringify(rows)])).count;
  const pairs = JSON.stringify(rows.map(({ accountRemoteId, securityId }) => ({ accountRemoteId, securityId })));
  const removed = (await run(tx, investmentStatements.removeUnheld, [owner.connectionId, pairs, owner.profileId])).count;
  await run(tx, investmentStatements.seen, [owner.connectionId, owner.profileId]);
  return { written, removed, unmatched };
}

/**
 * Reconciles the connection's investment activity over the window [start, end] with what the
 * upstream reports for it, in the caller's transaction: upserts by (account, remote id), changing a
 * row only when its content changed, and removes what the window no longer holds. Activity of an
 * account the connection does not have is left out; activity naming a security the snapshot does not
 * describe is kept without it (its cash movement still happened); both are returned as unmatched.
 * While the connection stores no activity (as on its first sync; the caller holds the connection's lock),
 * nothing can conflict or be removed: the rows are copied in with COPY, several times cheaper than
 * the upsert's JSON parameter (decisions/sync-first-walk-copy.md).
 */
export async function reconcileActivity(
  tx: EntityManager,
  owner: InvestmentOwner,
  window: { start: string; end: string },
  reported: ProviderInvestmentTransaction[],
  securityIds: Map<string, string>,
): Promise<SnapshotChanges> {
  const accounts = await knownAccounts(tx, owner, reported);
  const unmatched: Unmatched = { dropped: [], unlinked: [] };
  for (const { accountRemoteId, securityRemoteId } of reported) {
    if (!accounts.has(accountRemoteId)) unmatched.dropped.push({ accountRemoteId, securityRemoteId, missing: 'account' });
    else if (securityRemoteId !== null && !securityIds.has(securityRemoteId)) unmatched.unlinked.push({ securityRemoteId });
  }
  const rows = reported.filter((activity) => accounts.has(activity.accountRemoteId)).map((activity) => ({
    id: uuidv7(),
    accountRemoteId: activity.accountRemoteId,
    remoteId: activity.remoteId,
    securityId: activity.securityRemoteId === null ? null : (securityIds.get(activity.securityRemoteId) ?? null),
    date: activity.date,
    type: activity.type,
    subtype: activity.subtype,
    quantity: activity.quantity,
    price: activity.price,
    fees: activity.fees,
    amount: activity.amount,
    currencyCode: activity.currencyCode,
    description: activity.description,
    remoteData: { [owner.provider]: activity.raw },
  }));
  const unique = [...new Map(rows.map((row) => [`${row.accountRemoteId}\n${row.remoteId}`, row])).values()];
  if (unique.length > 0) {
    const { rows: [first] } = await run<{ now: string; storesAny: boolean }>(tx, investmentStatements.storesActivity, [owner.profileId, owner.connectionId]);
    if (!first!.storesAny) {
      const lines = unique.map((row) => copyLine([row.id, owner.profileId, owner.connectionId, accounts.get(row.accountRemoteId), ...ACTIVITY_REPORTED.map((field) => row[field]), first!.now]));
      await copyIn(tx, COPY_ACTIVITY, lines.join(''));
      return { written: unique.length, removed: 0, unmatched };
    }
  }
  const written = unique.length === 0 ? 0 : (await run(tx, investmentStatements.upsertActivity, [owner.profileId, owner.connectionId, JSON.stringify(unique)])).count;
  const pairs = JSON.stringify(unique.map(({ accountRemoteId, remoteId }) => ({ accountRemoteId, remoteId })));
  const removed = (await run(tx, investmentStatements.removeUnreported, [owner.connectionId, window.start, window.end, pairs, owner.profileId])).count;
  return { written, removed, unmatched };
}

/** The connection's accounts among those the reported rows name: their ids by remote id. */
async function knownAccounts(tx: EntityManager, owner: InvestmentOwner, reported: ReadonlyArray<{ accountRemoteId: string }>): Promise<Map<string, string>> {
  if (reported.length === 0) return new Map();
  const remoteIds = [...new Set(reported.map((row) => row.accountRemoteId))];
  return new Map((await run<{ id: string; remoteId: string }>(tx, investmentStatements.knownAccounts, [owner.connectionId, remoteIds, owner.profileId])).rows.map((row) => [row.remoteId, row.id]));
}

/** The holdings of the profile's accounts with these ids, by security name. */
export async function holdingsOfAccounts(em: EntityManager, profileId: string, accountIds: readonly string[]): Promise<HoldingRecord[]> {
  return (await run<HoldingRow & { date: string }>(em, investmentStatements.holdingsOfAccounts, [accountIds, profileId])).rows.map(toHolding);
}

function toHolding(row: HoldingRow & { date: string }): HoldingRecord {
  return { ...row, lastSeenAt: new Date(row.lastSeenAt), createdAt: new Date(row.createdAt) };
}

/** A filter as SQL conditions on one alias. */
export type Where = SqlWhere;

const decodedIds = (resource: 'account' | 'security', ids: readonly string[]) => ids.map((id) => decodeId(resource, id)).filter((id) => id !== undefined);

/** The schema's HoldingFilter as SQL on `holding h`, always scoped to the profile. */
export function holdingWhere(profileId: string, filter: HoldingFilter): Where {
  const { where, add } = whereBuilder();
  add((id) => `h.profile_id = ${id}`, profileId);
  if (filter.accountIds) add((ids) => `h.account_id = any(${ids}::uuid[])`, decodedIds('account', filter.accountIds));
  if (filter.securityTypes) add((types) => `exists (select 1 from security s where s.id = h.security_id and s.type = any(${types}::text[]))`, filter.securityTypes);
  return where;
}

/** The schema's InvestmentTransactionFilter as SQL on `investment_transaction t`, always scoped to the profile. */
export function activityWhere(profileId: string, filter: InvestmentTransactionFilter): Where {
  const { where, add } = whereBuilder();
  add((id) => `t.profile_id = ${id}`, profileId);
  if (filter.date_gte != null) add((date) => `t.date >= ${date}::date`, filter.date_gte);
  if (filter.date_lte != null) add((date) => `t.date <= ${date}::date`, filter.date_lte);
  if (filter.accountIds) add((ids) => `t.account_id = any(${ids}::uuid[])`, decodedIds('account', filter.accountIds));
  if (filter.types) add((types) => `t.type = any(${types}::text[])`, filter.types);
  if (filter.securityIds) add((ids) => `t.security_id = any(${ids}::uuid[])`, decodedIds('security', filter.securityIds));
  return where;
}

/** Holdings are keyed on the day they were recorded and their id (time-ordered): the order of recording. */
const HOLDING_KEY = { date: `(h.created_at at time zone 'UTC')::date`, id: 'h.id' };
const ACTIVITY_KEY = { date: 't.date', id: 't.id' };


/** The statements of filtered reads, built from a Where; test/stores.test.ts prepares each with every filter. */
export const filteredInvestmentStatements = {
  holdingPage: (where: Where, order: 'asc' | 'desc') =>
    `select ${HOLDING.select(HOLDING_RECORD, 'h')}, ${HOLDING_KEY.date}::text as date from holding h where ${where.conditions.join(' and ')}
      order by ${HOLDING_KEY.date} ${order}, h.id ${order} limit $${where.params.length + 1}`,
  holdingsExist: (where: Where) => `select exists (select 1 from holding h where ${where.conditions.join(' and ')}) as found`,
  holdingCount: (where: Where) => `select count(*)::int as count from holding h where ${where.conditions.join(' and ')}`,
  activityPage: (where: Where, order: 'asc' | 'desc') =>
    `select ${INVESTMENT_TRANSACTION.select(ACTIVITY_RECORD, 't')} from investment_transaction t where ${where.conditions.join(' and ')}
      order by t.date ${order}, t.id ${order} limit $${where.params.length + 1}`,
  activityExists: (where: Where) => `select exists (select 1 from investment_transaction t where ${where.conditions.join(' and ')}) as found`,
  activityCount: (where: Where) => `select count(*)::int as count from investment_transaction t where ${where.conditions.join(' and ')}`,
};

/** Up to `limit` holdings matching `where` past `bound`, in order of recording. */
export async function holdingRecords(em: EntityManager, where: Where, bound: KeysetBound | undefined, order: 'asc' | 'desc', limit: number): Promise<HoldingRecord[]> {
  const page = pastBound(where, HOLDING_KEY, bound);
  return (await run<HoldingRow & { date: string }>(em, filteredInvestmentStatements.holdingPage(page, order), [...page.params, limit])).rows.map(toHolding);
}

export async function holdingsExist(em: EntityManager, where: Where, bound?: KeysetBound): Promise<boolean> {
  const query = pastBound(where, HOLDING_KEY, bound);
  return (await run<{ found: boolean }>(em, filteredInvestmentStatements.holdingsExist(query), query.params)).rows[0]!.found;
}

export async function countHoldings(em: EntityManager, where: Where): Promise<number> {
  return (await run<{ count: number }>(em, filteredInvestmentStatements.holdingCount(where), where.params)).rows[0]!.count;
}

/** Up to `limit` investment transactions matching `where` past `bound`, in (date, id) order. */
export async function activityRecords(em: EntityManager, where: Where, bound: KeysetBound | undefined, order: 'asc' | 'desc', limit: number): Promise<InvestmentTransactionRecord[]> {
  const page = pastBound(where, ACTIVITY_KEY, bound);
  const { rows } = await run<ActivityRow>(em, filteredInvestmentStatements.activityPage(page, order), [...page.params, limit]);
  return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }));
}

export async function activityExists(em: EntityManager, where: Where, bound?: KeysetBound): Promise<boolean> {
  const query = pastBound(where, ACTIVITY_KEY, bound);
  return (await run<{ found: boolean }>(em, filteredInvestmentStatements.activityExists(query), query.params)).rows[0]!.found;
}

export async function countActivity(em: EntityManager, where: Where): Promise<number> {
  return (await run<{ count: number }>(em, filteredInvestmentStatements.activityCount(where), where.params)).rows[0]!.count;
}
