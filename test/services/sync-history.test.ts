import { describe, expect, it } from 'vitest';
import { ConnectionService } from '../../src/modules/connection/connection.service.ts';
import { beginRun } from '../../src/modules/connection/connection.store.ts';
import { syncConnection, type SyncDependencies } from '../../src/modules/sync/sync-engine.ts';
import { finishRun, startingRun } from '../../src/modules/sync/sync-run.ts';
import type { Provider } from '../../src/providers/provider.ts';
import { ProviderBusy, ProviderError } from '../../src/providers/provider-errors.ts';
import { SandboxProvider } from '../../src/providers/sandbox/sandbox-provider.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

const DAY = 86_400_000;
let now = new Date('2026-03-01T12:00:00Z');
let db: TestDatabase;
let build: Builders;
let deps: SyncDependencies;
const sandbox = new SandboxProvider({ now: () => now, pageSize: 150 });

withServiceTier((tier) => {
  ({ db, build } = tier);
  deps = { orm: db.orm, cipher: db.cipher, provider: async () => sandbox };
});

/** A sandbox, except that its transaction pages come from `syncTransactions`. */
function withPages(provider: SandboxProvider, syncTransactions: SandboxProvider['syncTransactions']): Provider {
  return new Proxy(provider, {
    get(target, property) {
      if (property === 'syncTransactions') return syncTransactions;
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A sandbox connection made through the service but never enqueued, and synced once (its LINK run). */
async function syncedConnection(): Promise<{ id: string; profileId: string }> {
  const service = new ConnectionService(db.em(), db.cipher, { environmentId: db.environmentId });
  const linked = await sandbox.completeLink({ institutionId: 'ins_tattersall_fcu', username: 'user_good', password: 'pass_good', products: undefined, webhookUrl: '' });
  const connection = await service.create(await build.profile(), sandbox.name, linked);
  await syncConnection(deps, connection.id);
  return { id: connection.id, profileId: connection.profile.id };
}

/** The connection's history, oldest first, as stored. */
async function history(connectionId: string) {
  return db.sql(
    `select id, trigger, outcome, status, error_code, error_message, provider_request_id, added, modified, removed, started_at, ended_at
       from connection_sync where connection_id = $1 order by id`,
    [connectionId],
  );
}

async function connectionRow(connectionId: string) {
  const [row] = await db.sql('select status, sync_run, sync_changes from connection where id = $1', [connectionId]);
  return row;
}

/** The counts of the connection's `connection.synced.successful` events, oldest first. */
async function eventCounts(connectionId: string) {
  const rows = await db.sql(`select e.payload from event e join connection c on c.profile_id = e.profile_id where c.id = $1 and e.type = 'connection.synced.successful' order by e.id`, [connectionId]);
  return rows.map((row) => row.payload.metadata.changes);
}

/** Moves the sandbox's clock on, so the next sync finds new activity; back after `body`. */
async function daysLater<T>(days: number, body: () => Promise<T>): Promise<T> {
  const start = now;
  now = new Date(start.getTime() + days * DAY);
  try {
    return await body();
  } finally {
    now = start;
  }
}

describe('the sync history', () => {
  it('records each run when it ends, with the counts its event reported, and clears the run from the connection', async () => {
    const connection = await syncedConnection();
    await daysLater(3, () => syncConnection(deps, connection.id, { sentFor: 'WEBHOOK' }));

    const runs = await history(connection.id);
    expect(runs.map(({ trigger, outcome, status }) => `${trigger} ${outcome} ${status}`)).toEqual(['LINK SUCCEEDED SYNCED', 'WEBHOOK SUCCEEDED SYNCED']);
    expect(runs.map(({ added, modified, removed }) => ({ added, modified, removed }))).toEqual(await eventCounts(connection.id));
    expect(runs[1].added).toBeGreaterThan(0);
    expect(runs[1].started_at.getTime()).toBeLessThanOrEqual(runs[1].ended_at.getTime());
    expect(await connectionRow(connection.id)).toMatchObject({ status: 'SYNCED', sync_run: null });
  });

  it('goes on with the run a dead worker left, records it once when the retry ends it, and ignores the dead worker waking later', async () => {
    const connection = await syncedConnection();
    let left: { id: string } | undefined;
    await daysLater(3, async () => {
      // The first worker hangs on its first page, as one whose process died would (its run stays on the connection).
      const { promise: fetching, resolve: fetched } = Promise.withResolvers<void>();
      const { promise: hung, reject: wake } = Promise.withResolvers<never>();
      const dead = syncConnection({ ...deps, provider: async () => withPages(sandbox, () => (fetched(), hung)) }, connection.id);
      await fetching;
      left = (await connectionRow(connection.id)).sync_run;
      expect(left).toMatchObject({ trigger: 'SCHEDULED' });

      // The job's retry.
      await syncConnection(deps, connection.id, { sentFor: 'RETRY' });
      wake(new Error('worker killed'));
      await expect(dead).rejects.toThrow('worker killed');
    });

    const runs = await history(connection.id);
    expect(runs).toHaveLength(2);
    // The run the dead worker began, ended by the retry: its id, start and trigger, the retry's outcome.
    expect(runs[1]).toMatchObject({ id: left!.id, trigger: 'SCHEDULED', outcome: 'SUCCEEDED', status: 'SYNCED' });
    expect({ added: runs[1].added, modified: runs[1].modified, removed: runs[1].removed }).toEqual((await eventCounts(connection.id))[1]);
    // The dead worker's late failure ended nothing: the connection is as the retry left it.
    expect(await connectionRow(connection.id)).toMatchObject({ status: 'SYNCED', sync_run: null });
  });

  it('writes one row and one end when a run’s final step is run again', async () => {
    const connection = await syncedConnection();
    const key = { id: connection.id, profileId: connection.profileId };
    const run = (await beginRun(db.em(), key, startingRun('SCHEDULED', new Date()), { syncing: true }))!;
    await finishRun(db.em(), key, run, null, new Date(), 'SYNCED');
    // Again, as a worker that took its commit for a failure would, with what it then reports.
    await finishRun(db.em(), key, run, new ProviderError('ERROR_SERVICE', 'the sync failed inside Tributary'), new Date(), 'SYNCED');

    const runs = await history(connection.id);
    expect(runs.map(({ id, outcome }) => `${id === run.id ? 'this run' : 'link'} ${outcome}`)).toEqual(['link SUCCEEDED', 'this run SUCCEEDED']);
    expect(await connectionRow(connection.id)).toMatchObject({ status: 'SYNCED', sync_run: null });
  });

  it('records a failure with the status it entered, the reason and the provider’s request id, and no counts', async () => {
    const connection = await syncedConnection();
    const refusing = withPages(sandbox, async () => {
      throw new ProviderError('ERROR_PROVIDER', 'Plaid API_ERROR INTERNAL_SERVER_ERROR', { upstreamRequestId: 'm8MDnv9okwxFNBV' });
    });
    await syncConnection({ ...deps, provider: async () => refusing }, connection.id);

    const [, failed] = await history(connection.id);
    expect(failed).toMatchObject({
      trigger: 'SCHEDULED',
      outcome: 'FAILED',
      status: 'ERROR_PROVIDER',
      error_code: null,
      error_message: 'Plaid API_ERROR INTERNAL_SERVER_ERROR',
      provider_request_id: 'm8MDnv9okwxFNBV',
      added: null,
      modified: null,
      removed: null,
    });
    expect((await connectionRow(connection.id)).status).toBe('ERROR_PROVIDER');
  });

  it('records a put-off run as DEFERRED with the connection’s status back, and the next run reports what it applied', async () => {
    const connection = await syncedConnection();
    await daysLater(10, async () => {
      // Small pages, the second refused as rate limited: the first one's changes are applied.
      const small = new SandboxProvider({ now: () => now, pageSize: 5 });
      let pages = 0;
      const limited = withPages(small, async (token, cursor) => {
        if (++pages === 2) throw new ProviderBusy('Plaid RATE_LIMIT_EXCEEDED', 60);
        return small.syncTransactions(token, cursor);
      });
      await expect(syncConnection({ ...deps, provider: async () => limited }, connection.id)).rejects.toThrow('RATE_LIMIT_EXCEEDED');
      const applied = (await connectionRow(connection.id)).sync_changes;
      expect(applied.added + applied.modified + applied.removed).toBeGreaterThan(0);
      await syncConnection(deps, connection.id, { sentFor: 'RETRY' });
    });

    const [, deferred, retried] = await history(connection.id);
    expect(deferred).toMatchObject({ trigger: 'SCHEDULED', outcome: 'DEFERRED', status: 'SYNCED', error_message: 'Plaid RATE_LIMIT_EXCEEDED', added: null });
    expect(retried).toMatchObject({ trigger: 'RETRY', outcome: 'SUCCEEDED', status: 'SYNCED' });
    expect({ added: retried.added, modified: retried.modified, removed: retried.removed }).toEqual((await eventCounts(connection.id))[1]);
  });

  it('records a run its ended consent decides, and one a disconnection cut short', async () => {
    const consent = await syncedConnection();
    await db.sql(`update connection set consent_expires_at = now() - interval '1 minute' where id = $1`, [consent.id]);
    await syncConnection(deps, consent.id);
    expect((await history(consent.id))[1]).toMatchObject({ outcome: 'FAILED', status: 'ERROR_REPAIRABLE', error_code: 'CONSENT_EXPIRED', added: null });

    const cut = await syncedConnection();
    const { promise: fetching, resolve: fetched } = Promise.withResolvers<void>();
    const { promise: held, resolve: release } = Promise.withResolvers<void>();
    const disconnected = withPages(sandbox, async (token, cursor) => (fetched(), await held, sandbox.syncTransactions(token, cursor)));
    const running = syncConnection({ ...deps, provider: async () => disconnected }, cut.id);
    await fetching;
    await db.sql(`update connection set status = 'DISCONNECTING' where id = $1`, [cut.id]);
    release();
    await running;
    expect((await history(cut.id))[1]).toMatchObject({ outcome: 'CANCELLED', status: 'DISCONNECTING', error_message: null, added: null });
  });
});
