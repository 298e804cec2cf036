import { describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { CONNECTION_STATUSES, type ConnectionEntity, type ConnectionStatus } from '../../src/modules/connection/connection.entity.ts';
import { ConnectionService, REFRESH_INTERVAL_MS } from '../../src/modules/connection/connection.service.ts';
import type { LinkedLogin } from '../../src/providers/link-flow.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

const MINUTE = 60_000;
let db: TestDatabase;
let build: Builders;

withServiceTier((tier) => ({ db, build } = tier));

const service = (scope: { environmentId?: string; profileId?: string } = {}) => new ConnectionService(db.em(), db.cipher, { environmentId: db.environmentId, ...scope });
const publicId = (connection: ConnectionEntity) => encodeId('connection', connection.id);
const stored = async (connection: ConnectionEntity) => (await db.sql('select * from connection where id = $1', [connection.id]))[0];
const linked = (credential: string): LinkedLogin => ({ credential, remoteId: 'item-1', institution: { id: 'ins_houndstooth', name: 'Houndstooth Bank' }, products: ['TRANSACTIONS', 'BALANCES'] });
const failing = async () => {
  throw new Error('the job could not be queued');
};

describe('finding connections', () => {
  it('finds a connection only within its environment, its profile\'s scope, and while the profile is not being deleted', async () => {
    const connection = await build.connection();
    expect((await service().get(publicId(connection))).id).toBe(connection.id);
    expect((await service({ profileId: connection.profile.id }).get(publicId(connection))).id).toBe(connection.id);

    const otherProfile = await build.profile();
    const otherEnvironment = await build.environment();
    const deleting = await build.connection({ profile: await build.profile({ deletingAt: new Date() }) });
    for (const [scope, id] of [
      [{ profileId: otherProfile.id }, publicId(connection)],
      [{ environmentId: otherEnvironment.id }, publicId(connection)],
      [{}, publicId(deleting)],
      [{}, encodeId('account', connection.id)],
      [{}, 'conn_not-an-id'],
    ] as const) {
      await expect(service(scope).get(id)).rejects.toMatchObject({ status: 404, message: 'Connection not found' });
    }
  });

  it('finds the profile a new connection is for only in scope and not being deleted', async () => {
    const profile = await build.profile();
    const deleting = await build.profile({ deletingAt: new Date() });
    const other = await build.profile();
    expect((await service().profileFor(encodeId('profile', profile.id))).id).toBe(profile.id);
    await expect(service().profileFor(encodeId('profile', deleting.id))).rejects.toMatchObject({ status: 404 });
    await expect(service({ profileId: other.id }).profileFor(encodeId('profile', profile.id))).rejects.toMatchObject({ status: 404 });
  });
});

describe('creating a connection', () => {
  it('stores the login INITIALIZING with its credential encrypted, and records connection.created in the same transaction', async () => {
    const profile = await build.profile();
    const created = await service().create(profile, 'sandbox', linked('upstream-secret-token'));
    const row = await stored(created);
    expect(row).toMatchObject({ status: 'INITIALIZING', generation: 1, remote_id: 'item-1', institution_id: 'ins_houndstooth', products: ['TRANSACTIONS', 'BALANCES'] });
    expect(row.credential_encrypted).not.toContain('upstream-secret-token');
    expect(service().credentialOf(created)).toBe('upstream-secret-token');
    const events = await db.sql('select type, payload from event where profile_id = $1', [profile.id]);
    expect(events).toEqual([{ type: 'connection.created', payload: expect.objectContaining({ record: expect.objectContaining({ id: publicId(created), status: 'INITIALIZING' }) }) }]);
    expect(JSON.stringify(events)).not.toContain('upstream-secret-token');
  });

  it('keeps neither the connection nor its event when what follows in the transaction (queueing its sync) fails', async () => {
    const profile = await build.profile();
    await expect(service().create(profile, 'sandbox', linked('token'), failing)).rejects.toThrow('the job could not be queued');
    expect(await db.sql('select 1 from connection where profile_id = $1', [profile.id])).toEqual([]);
    expect(await db.sql('select 1 from event where profile_id = $1', [profile.id])).toEqual([]);
  });
});

describe('repairing a connection', () => {
  it('stores the new login, bumps the generation, and unverifies every account until verification runs again', async () => {
    const connection = await build.connection({ status: 'ERROR_REPAIRABLE', generation: 3, credential: 'old-token' });
    const accounts = [await build.account({ connection, verified: true }), await build.account({ connection, verified: true })];
    const untouched = await build.account({ verified: true });
    let queued = false;
    await service().relink(connection, linked('new-token'), async () => void (queued = true));
    expect(queued).toBe(true);
    const row = await stored(connection);
    expect(row).toMatchObject({ status: 'INITIALIZING', generation: 4 });
    expect(db.cipher.decrypt('credential', row, row.credential_encrypted)).toBe('new-token');
    expect(await db.sql('select verified from account where id = any($1::uuid[])', [accounts.map((account) => account.id)])).toEqual([{ verified: false }, { verified: false }]);
    expect(await db.sql('select verified from account where id = $1', [untouched.id])).toEqual([{ verified: true }]);
  });

  it('changes nothing when queueing the sync fails', async () => {
    const connection = await build.connection({ status: 'ERROR_REPAIRABLE', credential: 'old-token' });
    const account = await build.account({ connection, verified: true });
    await expect(service().relink(connection, linked('new-token'), failing)).rejects.toThrow();
    const row = await stored(connection);
    expect(row).toMatchObject({ status: 'ERROR_REPAIRABLE', generation: 1 });
    expect(db.cipher.decrypt('credential', row, row.credential_encrypted)).toBe('old-token');
    expect(await db.sql('select verified from account where id = $1', [account.id])).toEqual([{ verified: true }]);
  });

  it.each(['DISCONNECTING', 'DISCONNECTED'] as const)('refuses a %s connection with 403', async (status) => {
    const connection = await build.connection({ status });
    expect(() => service().assertRepairable(connection)).toThrow(expect.objectContaining({ status: 403, instruction: expect.stringContaining('new connection') }));
    await expect(service().relink(connection, linked('new-token'), async () => {})).rejects.toMatchObject({ status: 403 });
    expect((await stored(connection)).status).toBe(status);
  });
});

describe('disconnecting', () => {
  it.each(['SYNCED', 'INITIALIZING', 'ERROR_REPAIRABLE', 'ERROR_SERVICE'] as const)('moves a %s connection to DISCONNECTING and queues the job once', async (status) => {
    const connection = await build.connection({ status });
    let queued = 0;
    await service().disconnect(connection, async () => void queued++);
    expect(connection.status).toBe('DISCONNECTING');
    expect((await stored(connection)).status).toBe('DISCONNECTING');
    await service().disconnect(await service().get(publicId(connection)), async () => void queued++);
    expect(queued).toBe(1);
  });

  it('starts once when two requests disconnect at the same moment', async () => {
    const connection = await build.connection();
    let queued = 0;
    await Promise.all([0, 1, 2].map(async () => service().disconnect(await service().get(publicId(connection)), async () => void queued++)));
    expect(queued).toBe(1);
  });

  it('leaves a DISCONNECTED connection as it is, and rolls back when queueing the job fails', async () => {
    const gone = await build.connection({ status: 'DISCONNECTED' });
    await service().disconnect(gone, failing);
    expect((await stored(gone)).status).toBe('DISCONNECTED');
    const connection = await build.connection();
    await expect(service().disconnect(connection, failing)).rejects.toThrow();
    expect((await stored(connection)).status).toBe('SYNCED');
  });
});

describe('claiming a transactions refresh (one at a time, once every 4 hours)', () => {
  const claim = (connection: ConnectionEntity, now = new Date(), then = async () => {}) => service().claimTransactionsRefresh(connection, undefined, then, now);

  it.each(CONNECTION_STATUSES.filter((status) => status.startsWith('ERROR_') || status.startsWith('DISCONNECT')))('refuses a %s connection with 403 and claims nothing', async (status: ConnectionStatus) => {
    const connection = await build.connection({ status });
    await expect(claim(connection)).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining(status),
      instruction: status === 'ERROR_REPAIRABLE' ? expect.stringContaining('reconnect') : expect.stringContaining('SYNCED'),
    });
    expect((await stored(connection)).refresh_started_at).toBeNull();
  });

  it('claims a SYNCED connection: marks it running and refreshed now, and runs what follows in the same transaction', async () => {
    const connection = await build.connection();
    const now = new Date();
    let ran = false;
    await claim(connection, now, async () => void (ran = true));
    expect(ran).toBe(true);
    expect(await stored(connection)).toMatchObject({ refresh_started_at: now, last_refresh_at: now });
  });

  it('answers 409 while a refresh runs, but not for a claim abandoned over 15 minutes ago', async () => {
    const now = new Date();
    const running = await build.connection({ refreshStartedAt: new Date(now.getTime() - 14 * MINUTE), lastRefreshAt: new Date(now.getTime() - 5 * 60 * MINUTE) });
    await expect(claim(running, now)).rejects.toMatchObject({ status: 409 });
    const abandoned = await build.connection({ refreshStartedAt: new Date(now.getTime() - 16 * MINUTE), lastRefreshAt: new Date(now.getTime() - 5 * 60 * MINUTE) });
    await claim(abandoned, now);
    expect((await stored(abandoned)).refresh_started_at).toEqual(now);
  });

  it('answers 429 within 4 hours of the last refresh, with the seconds left in Retry-After, and claims again at 4 hours', async () => {
    const now = new Date();
    const connection = await build.connection({ lastRefreshAt: new Date(now.getTime() - REFRESH_INTERVAL_MS + 90_000) });
    await expect(claim(connection, now)).rejects.toMatchObject({ status: 429, code: 'REFRESH_TOO_SOON', headers: { 'Retry-After': '90' }, instruction: expect.stringContaining('retry in 90 seconds') });
    await claim(connection, new Date(now.getTime() + 90_000));
    expect((await stored(connection)).last_refresh_at).toEqual(new Date(now.getTime() + 90_000));
  });

  it('leaves the connection unclaimed when queueing the sync fails', async () => {
    const connection = await build.connection();
    await expect(claim(connection, new Date(), failing)).rejects.toThrow();
    expect(await stored(connection)).toMatchObject({ refresh_started_at: null, last_refresh_at: null });
  });

  it('lets exactly one of simultaneous claims through; the others meet it running (409)', async () => {
    const connection = await build.connection();
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => claim(connection)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason.status] : []))).toEqual([409, 409, 409, 409]);
  });
});
