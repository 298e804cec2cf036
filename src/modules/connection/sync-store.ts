import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import type pg from 'pg';
import { uuidv7 } from '../../lib/ids.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import type { ProviderAccount, ProviderTransaction } from '../../providers/provider.ts';
import { Account } from '../account/account.entity.ts';
import { presentBalance } from '../account/account.presenter.ts';
import { Balance } from '../balance/balance.entity.ts';
import { recordEvent } from '../event/event.service.ts';
import { Connection, type ConnectionEntity } from './connection.entity.ts';

/*
 * What a sync writes: accounts and balances (with their events), and pages of transaction changes
 * applied with the cursor that produced them. Used by the cursor walk and window reconciliation.
 */

export async function applyAccounts(em: EntityManager, connection: ConnectionEntity, reported: ProviderAccount[]): Promise<void> {
  await em.transactional(async (tx) => {
    // One accounts step per connection at a time: two workers syncing it at once would both insert a new account.
    await tx.findOneOrFail(Connection, { id: connection.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const existing = new Map((await tx.find(Account, { connection: connection.id })).map((account) => [account.remoteId, account]));
    const latest = new Map(
      (await tx.find(Balance, { id: [...existing.values()].flatMap((account) => (account.latestBalanceId ? [account.latestBalanceId] : [])) })).map((balance) => [
        balance.id,
        balance,
      ]),
    );
    for (const remote of reported) {
      let account = existing.get(remote.remoteId);
      if (!account) {
        account = tx.create(Account, {
          id: uuidv7(),
          connection: connection.id,
          profile: connection.profile.id,
          remoteId: remote.remoteId,
          name: remote.name,
          nameOverride: null,
          kind: remote.kind,
          subtype: remote.subtype,
          state: remote.state,
          verified: false,
          mask: remote.mask,
          currencyCode: remote.currencyCode,
          latestBalanceId: null,
          metadata: null,
        });
      } else {
        Object.assign(account, { name: remote.name, kind: remote.kind, subtype: remote.subtype, state: remote.state, mask: remote.mask });
      }
      const previous = account.latestBalanceId ? latest.get(account.latestBalanceId) : undefined;
      const { balance } = remote;
      const unchanged =
        previous && sameAmount(previous.available, balance.available) && sameAmount(previous.current, balance.current) && sameAmount(previous.limit, balance.limit);
      if (!unchanged) addBalance(tx, connection, account, { ...balance, source: 'SYNC' });
    }
    // Accounts the institution stopped reporting are closed: their history stays readable.
    const reportedIds = new Set(reported.map((remote) => remote.remoteId));
    for (const account of existing.values()) if (!reportedIds.has(account.remoteId)) account.state = 'CLOSED';
  });
}

/** Records a new balance for an account, makes it the latest, and adds `balance.created` to the outbox. */
export function addBalance(
  em: EntityManager,
  connection: ConnectionEntity,
  account: InstanceType<typeof Account.class>,
  balance: { at: Date; available: string | null; current: string | null; limit: string | null; source: 'SYNC' | 'REFRESH' },
): void {
  const row = em.create(Balance, {
    id: uuidv7(),
    account: account.id,
    profile: connection.profile.id,
    at: balance.at,
    source: balance.source,
    available: balance.available,
    current: balance.current,
    limit: balance.limit,
    currencyCode: account.currencyCode,
  });
  account.latestBalanceId = row.id;
  recordEvent(em, connection.environment.id, 'balance.created', connection.profile, presentBalance(row));
}

function sameAmount(stored: string | null | undefined, reported: string | null): boolean {
  if (stored == null || reported === null) return stored == null && reported === null;
  return Number(stored) === Number(reported) && stored.replace(/\.?0+$/, '') === reported.replace(/\.?0+$/, '');
}

/**
 * Applies one page, and counts it in `metrics`; false when another worker moved the cursor on first (this sync then stops).
 * Runs on a plain pg client: the page travels as one JSON parameter per statement, unescaped.
 */
export async function applyPage(
  pool: pg.Pool,
  connectionId: string,
  cursor: string | null,
  nextCursor: string,
  page: { added: ProviderTransaction[]; modified: ProviderTransaction[]; removed: string[]; hasMore: boolean },
  metrics?: Metrics,
): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows: [row] } = await client.query<{
      sync_cursor: string | null;
      sync_page_cursor: string | null;
      sync_removals: string[] | null;
      sync_added: string[] | null;
      profile_id: string;
      provider: string;
    }>(
      'select sync_cursor, sync_page_cursor, sync_removals, sync_added, profile_id, provider from connection where id = $1 for update',
      [connectionId],
    );
    if (!row || (row.sync_page_cursor ?? row.sync_cursor) !== cursor) {
      await client.query('rollback');
      return false;
    }
    const changes = { added: 0, modified: 0, removed: 0 };
    const upserts = [...page.added, ...page.modified];
    if (upserts.length > 0) {
      const rows = JSON.stringify(upserts.map((transaction) => toRow(transaction, row.provider)));
      if (upserts.some((transaction) => transaction.pendingRemoteId !== null)) {
        // A posted transaction that replaces a pending one takes over the pending row: same id and metadata.
        await client.query(
          `update transaction t set remote_id = r.remote_id
             from jsonb_to_recordset($1::jsonb) as r(remote_id text, pending_remote_id text)
            where t.connection_id = $2 and r.pending_remote_id is not null and t.remote_id = r.pending_remote_id
              and not exists (select 1 from transaction p where p.connection_id = t.connection_id and p.remote_id = r.remote_id)`,
          [rows, connectionId],
        );
      }
      const written = await client.query<{ inserted: boolean }>(
        `insert into transaction (id, profile_id, connection_id, account_id, remote_id, date, description, amount, status, currency_code, metadata, remote_data, created_at)
         select r.id, $1, $2, a.id, r.remote_id, r.date, r.description, r.amount, r.status, a.currency_code, null, r.remote_data, now()
           from jsonb_to_recordset($3::jsonb) as r(id uuid, remote_id text, account_remote_id text, date date, description text, amount numeric, status text, remote_data jsonb)
           join account a on a.connection_id = $2 and a.remote_id = r.account_remote_id
         on conflict (connection_id, remote_id) do update
            set date = excluded.date, description = excluded.description, amount = excluded.amount, status = excluded.status,
                remote_data = transaction.remote_data || excluded.remote_data
          where (transaction.date, transaction.description, transaction.amount, transaction.status, transaction.remote_data)
                is distinct from (excluded.date, excluded.description, excluded.amount, excluded.status, transaction.remote_data || excluded.remote_data)
         returning (xmax = 0) as inserted`,
        [row.profile_id, connectionId, rows],
      );
      // A replaced pending row counts as modified: it is updated (to POSTED) by the upsert.
      changes.added = written.rows.filter((result) => result.inserted).length;
      changes.modified = written.rows.length - changes.added;
    }
    // Removals wait for the walk's last page: a pending transaction removed here may be taken over
    // by its posted twin on a later page, keeping its id and metadata. One reported again is no
    // removal: a restarted walk reports what an earlier attempt added and still exists (rewindWalk).
    const reported = new Set(upserts.map((transaction) => transaction.remoteId));
    const removals = [...(row.sync_removals ?? []).filter((remoteId) => !reported.has(remoteId)), ...page.removed];
    const added = [...(row.sync_added ?? []), ...page.added.map((transaction) => transaction.remoteId)];
    if (!page.hasMore && removals.length > 0) {
      const removed = await client.query('delete from transaction where connection_id = $1 and remote_id = any($2::text[])', [connectionId, removals]);
      changes.removed = removed.rowCount ?? 0;
    }
    // Mid-walk only the page cursor moves: the walk's first cursor stays, to restart from.
    await client.query(
      `update connection set sync_cursor = case when $7 then sync_cursor else $1 end, sync_page_cursor = case when $7 then $1 end,
         sync_changes = jsonb_build_object('added', coalesce((sync_changes->>'added')::int, 0) + $2,
                                           'modified', coalesce((sync_changes->>'modified')::int, 0) + $3,
                                           'removed', coalesce((sync_changes->>'removed')::int, 0) + $4),
         sync_removals = $6::jsonb, sync_added = $8::jsonb
       where id = $5`,
      [
        nextCursor,
        changes.added,
        changes.modified,
        changes.removed,
        connectionId,
        page.hasMore && removals.length > 0 ? JSON.stringify(removals) : null,
        page.hasMore,
        page.hasMore && added.length > 0 ? JSON.stringify(added) : null,
      ],
    );
    await client.query('commit');
    metrics?.pageApplied(row.provider, changes);
    return true;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Sends a walk back to its first cursor `start` (the upstream changed under it); false when another
 * worker moved the walk on from `cursor` meanwhile. What its pages added becomes due for removal,
 * and stays only if the restarted walk reports it again: one that vanished meanwhile is never
 * reported again (added then removed is nothing), so it would otherwise stay forever.
 */
export async function rewindWalk(pool: pg.Pool, connectionId: string, start: string | null, cursor: string | null): Promise<boolean> {
  const { rowCount } = await pool.query(
    `update connection set sync_page_cursor = null, sync_added = null,
        sync_removals = case when sync_added is null then sync_removals else coalesce(sync_removals, '[]'::jsonb) || sync_added end
      where id = $1 and sync_cursor is not distinct from $2 and coalesce(sync_page_cursor, sync_cursor) is not distinct from $3`,
    [connectionId, start, cursor],
  );
  return rowCount !== 0;
}

function toRow(transaction: ProviderTransaction, provider: string) {
  return {
    id: uuidv7(),
    remote_id: transaction.remoteId,
    pending_remote_id: transaction.pendingRemoteId,
    account_remote_id: transaction.accountRemoteId,
    date: transaction.date,
    description: transaction.description,
    amount: transaction.amount,
    status: transaction.status,
    remote_data: { [provider]: transaction.raw, ...(transaction.enrichment ? { enrichment: transaction.enrichment } : {}) },
  };
}

