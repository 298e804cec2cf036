import { LockMode } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { ProviderBusy, ProviderError, SyncRestart, type Provider, type ProviderAccount, type ProviderTransaction } from '../../providers/provider.ts';
import { Account } from '../account/account.entity.ts';
import { presentAccount, presentBalance } from '../account/account.presenter.ts';
import { Balance } from '../balance/balance.entity.ts';
import { recordEvent } from '../event/event.service.ts';
import { presentProfileSummary } from '../profile/profile.presenter.ts';
import { Connection, type ConnectionEntity, type ConnectionStatus } from './connection.entity.ts';
import { presentConnection } from './connection.presenter.ts';

export interface SyncDependencies {
  orm: MikroORM;
  /** Plain connections for applying transaction pages (bulk JSON parameters). */
  pool: pg.Pool;
  cipher: FieldCipher;
  /** The provider a connection of this environment syncs with. */
  provider(name: string, environmentId: string): Promise<Provider>;
}

/**
 * Brings one connection up to date with its provider: accounts and balances, then transaction
 * pages. Each page is applied in one database transaction together with the cursor that produced
 * it, under a lock on the connection row that also checks the stored cursor is still the one the
 * page was fetched from; so a re-run, a retried crash or a concurrent worker never applies a page
 * twice or skips one. Change counts are carried on the connection until the sync ends, so the
 * `connection.synced.successful` event reports every change exactly once, even across a crash.
 */
export async function syncConnection(deps: SyncDependencies, connectionId: string): Promise<void> {
  const em = deps.orm.em.fork();
  const connection = await em.findOne(Connection, { id: connectionId }, { populate: ['profile'] });
  if (!connection || connection.status === 'DISCONNECTING' || connection.status === 'DISCONNECTED') return;
  if (connection.profile.deletingAt) return;
  const provider = await deps.provider(connection.provider, connection.environment.id);
  const accessToken = deps.cipher.decrypt('credential', connection, connection.credentialEncrypted);
  const previousStatus = connection.status;
  if (connection.status !== 'INITIALIZING') {
    // Conditional, so a disconnect that lands meanwhile is never overwritten.
    const started = await em.nativeUpdate(Connection, { id: connection.id, status: { $nin: ['DISCONNECTING', 'DISCONNECTED'] } }, { status: 'SYNCING' });
    if (started === 0) return;
  }
  try {
    await applyAccounts(em, connection, await provider.accounts(accessToken));
    if (!(await walkTransactions(deps.pool, provider, accessToken, connection.id, connection.syncCursor ?? null))) return;
    if (connection.products.includes('ACCOUNT_NUMBERS') && provider.capabilities.has('ACCOUNT_NUMBERS')) await verifyAccounts(em, connection, provider, accessToken);
    await finish(em, connection.id, null);
  } catch (error) {
    if (error instanceof ProviderBusy) {
      // Come back later (the job retries after the upstream's delay); the connection's state stands.
      await em.nativeUpdate(Connection, { id: connection.id, status: 'SYNCING' }, { status: previousStatus });
      throw error;
    }
    // A failure of our own shows as ERROR_SERVICE (not a sync stuck at SYNCING) and is rethrown, so
    // the job is retried; pages already applied stay, and the retry goes on from their cursor.
    await finish(em, connection.id, error instanceof ProviderError ? error : new ProviderError('ERROR_SERVICE', 'the sync failed inside Tributary'), previousStatus);
    if (!(error instanceof ProviderError) || error.retryAfterSeconds !== undefined) throw error;
  }
}

/** Restarts of one walk after the upstream changed mid-pagination, before the sync gives up (and retries later). */
const MAX_RESTARTS = 3;

/**
 * Walks the cursor to the end, one page per database transaction. When the upstream changed under
 * the walk (`SyncRestart`), the stored cursor goes back to where the walk began and the walk starts
 * again: pages already applied are applied again, which changes nothing. False when another worker
 * took the connection over.
 */
async function walkTransactions(pool: pg.Pool, provider: Provider, accessToken: string, connectionId: string, start: string | null): Promise<boolean> {
  for (let restarts = 0; ; restarts++) {
    let cursor = start;
    try {
      for (;;) {
        const page = await provider.syncTransactions(accessToken, cursor);
        if (!(await applyPage(pool, connectionId, cursor, page.nextCursor, page))) return false;
        if (!page.hasMore) return true;
        cursor = page.nextCursor;
      }
    } catch (error) {
      if (!(error instanceof SyncRestart) || restarts >= MAX_RESTARTS) throw error;
      const { rowCount } = await pool.query('update connection set sync_cursor = $1 where id = $2 and sync_cursor is not distinct from $3', [start, connectionId, cursor]);
      if (rowCount === 0) return false;
    }
  }
}

async function applyAccounts(em: EntityManager, connection: ConnectionEntity, reported: ProviderAccount[]): Promise<void> {
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
 * Applies one page; false when another worker moved the cursor on first (this sync then stops).
 * Runs on a plain pg client: the page travels as one JSON parameter per statement, unescaped.
 */
async function applyPage(
  pool: pg.Pool,
  connectionId: string,
  cursor: string | null,
  nextCursor: string,
  page: { added: ProviderTransaction[]; modified: ProviderTransaction[]; removed: string[]; hasMore: boolean },
): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows: [row] } = await client.query<{ sync_cursor: string | null; sync_removals: string[] | null; profile_id: string; provider: string }>(
      'select sync_cursor, sync_removals, profile_id, provider from connection where id = $1 for update',
      [connectionId],
    );
    if (!row || row.sync_cursor !== cursor) {
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
    // by its posted twin on a later page, keeping its id and metadata.
    const removals = [...(row.sync_removals ?? []), ...page.removed];
    if (!page.hasMore && removals.length > 0) {
      const removed = await client.query('delete from transaction where connection_id = $1 and remote_id = any($2::text[])', [connectionId, removals]);
      changes.removed = removed.rowCount ?? 0;
    }
    await client.query(
      `update connection set sync_cursor = $1,
         sync_changes = jsonb_build_object('added', coalesce((sync_changes->>'added')::int, 0) + $2,
                                           'modified', coalesce((sync_changes->>'modified')::int, 0) + $3,
                                           'removed', coalesce((sync_changes->>'removed')::int, 0) + $4),
         sync_removals = $6::jsonb
       where id = $5`,
      [nextCursor, changes.added, changes.modified, changes.removed, connectionId, page.hasMore && removals.length > 0 ? JSON.stringify(removals) : null],
    );
    await client.query('commit');
    return true;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
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

/**
 * Verifies depository accounts for money movement: the provider confirming their ACH numbers is the
 * verification. Each account flips to verified with its `account.verified` event in one transaction.
 */
async function verifyAccounts(em: EntityManager, connection: ConnectionEntity, provider: Provider, accessToken: string): Promise<void> {
  const pending = await em.find(Account, { connection: connection.id, kind: 'DEPOSITORY', state: 'OPEN', verified: false });
  for (const account of pending) {
    await provider.accountNumbers(accessToken, account.remoteId);
    await em.transactional(async (tx) => {
      const fresh = await tx.findOneOrFail(Account, { id: account.id });
      fresh.verified = true;
      const balance = fresh.latestBalanceId ? await tx.findOne(Balance, { id: fresh.latestBalanceId }) : null;
      recordEvent(tx, connection.environment.id, 'account.verified', connection.profile, presentAccount(fresh, balance));
    });
  }
}

/** Ends a sync: the final status, its event, the first-sync `profile.ready`, all in one transaction. */
async function finish(em: EntityManager, connectionId: string, failure: ProviderError | null, previousStatus?: ConnectionStatus): Promise<void> {
  await em.transactional(async (tx) => {
    const connection = await tx.findOneOrFail(Connection, { id: connectionId }, { populate: ['profile'], lockMode: LockMode.PESSIMISTIC_WRITE });
    if (connection.status === 'DISCONNECTING' || connection.status === 'DISCONNECTED') return;
    const changes = connection.syncChanges ?? { added: 0, modified: 0, removed: 0 };
    if (failure) {
      connection.status = failure.status;
      // Retrying an error state that persists says nothing new: the event fires when the state is entered.
      if (previousStatus === failure.status) return;
      recordEvent(tx, connection.environment.id, `connection.synced.errored.${failure.status}`, connection.profile, presentConnection(connection));
      return;
    }
    const firstSync = connection.lastSyncedAt === null;
    connection.status = 'SYNCED';
    connection.lastSyncedAt = new Date();
    connection.syncChanges = null;
    if (changes.added + changes.modified + changes.removed > 0) {
      recordEvent(tx, connection.environment.id, 'connection.synced.successful', connection.profile, presentConnection(connection));
    }
    if (firstSync) await markProfileReady(tx, connection);
  });
}

/** Enrichment runs inside the first sync (remoteData.enrichment); the profile is ready once one has finished. */
async function markProfileReady(tx: EntityManager, connection: ConnectionEntity): Promise<void> {
  const profile = connection.profile;
  if (profile.readyAt) return;
  profile.readyAt = new Date();
  recordEvent(tx, connection.environment.id, 'profile.ready', profile, presentProfileSummary(profile));
}
