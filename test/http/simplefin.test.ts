import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import type { FakeSimplefin } from '../fakes/simplefin/index.ts';
import { builders } from '../support/builders.ts';
import { basicAuth, createProfile } from '../support/factories.ts';
import { connectionRowOf, connectSimplefin, sessionTokenOf, startSimplefinApp } from '../support/simplefin-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

let app: TestApp;
let bridge: FakeSimplefin;

beforeAll(async () => {
  let cliOutput: string;
  ({ app, bridge, cliOutput } = await startSimplefinApp());
  expect(cliOutput).toContain('simplefin configured');
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await bridge?.stop();
});

const sessionToken = (profileId: string) => sessionTokenOf(app, profileId);
const connectionRow = (connectionId: string) => connectionRowOf(app, connectionId);

/** Queues a sync (as the scheduler or a refresh would) and waits for it to end. */
async function syncNow(connectionId: string, status = 'SYNCED') {
  const before = (await connectionRow(connectionId)).sync_cursor;
  await app.service.connectionJobs.sync(decodeId('connection', connectionId)!);
  return waitFor(async () => {
    const row = await connectionRow(connectionId);
    return row.status === status && (row.sync_cursor !== before || status !== 'SYNCED') ? row : undefined;
  }, `connection ${connectionId} to be ${status} again`, 60_000);
}

async function stored(connectionId: string) {
  return app.sql<{ id: string; remote_id: string; amount: string; status: string; metadata: unknown; date: string }>(
    "select id, remote_id, amount::text, status, metadata, to_char(date, 'YYYY-MM-DD') as date from transaction where connection_id = $1",
    [decodeId('connection', connectionId)],
  );
}

/** The bridge's current transactions that the connection's windows have covered, as Tributary stores their ids. */
function bridgeView(bridgeConnection: string, since: string) {
  return bridge
    .currentTransactions(bridgeConnection)
    .map((transaction) => ({
      remoteId: `${transaction.account_id}:${transaction.id}`,
      date: new Date(((transaction.pending ? (transaction.transacted_at ?? transaction.posted) : transaction.posted) || 0) * 1000).toISOString().slice(0, 10),
      amount: transaction.amount,
      pending: Boolean(transaction.pending),
    }))
    .filter((transaction) => transaction.date >= since);
}

/** Stored transactions from `since` on equal the bridge's view: each once, same amount and status. */
async function expectSameAsBridge(connectionId: string, bridgeConnection: string, since: string) {
  const rows = (await stored(connectionId)).filter((row) => row.date >= since);
  expect(new Set(rows.map((row) => row.remote_id)).size).toBe(rows.length);
  const view = bridgeView(bridgeConnection, since);
  expect(rows.map((row) => row.remote_id).sort()).toEqual(view.map((transaction) => transaction.remoteId).sort());
  const byId = new Map(rows.map((row) => [row.remote_id, row]));
  for (const transaction of view) {
    expect(Number(byId.get(transaction.remoteId)!.amount)).toBe(Number(transaction.amount));
    expect(byId.get(transaction.remoteId)!.status).toBe(transaction.pending ? 'PENDING' : 'POSTED');
  }
}

function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

const connectWithSetupToken = () => connectSimplefin(app, bridge);

describe('SimpleFIN connections', () => {
  let shared: Awaited<ReturnType<typeof connectWithSetupToken>>;
  let since: string;

  beforeAll(async () => {
    shared = await connectWithSetupToken();
    since = (await app.sql(`select to_char(min(date), 'YYYY-MM-DD') as since from transaction where connection_id = $1`, [shared.row.id]))[0].since;
  }, 120_000);

  it('claims the Setup Token once and syncs the window: every transaction once, signs as SimpleFIN sends them', async () => {
    const { connection, bridgeConnection, token, setupToken, profile } = shared;
    await expectSameAsBridge(connection.id, bridgeConnection, since);
    const again = await app.http.post('/v1/connect/connections', { auth: token, json: { provider: 'simplefin', setupToken } });
    expect(again.status).toBe(422);
    expect(again.body.errors.setupToken[0]).toMatch(/already claimed/);
    const { body } = await app.http.post('/v1/graphql', { auth: basicAuth(profile.id, app.apiKey), json: { query: '{ accounts { kind balance { current } } }' } });
    const card = body.data.accounts.find((account: { kind: string }) => account.kind === 'CREDIT');
    expect(Number(card.balance.current)).toBeLessThan(0);
  });

  it('a pending charge that posts under a new id with a tip takes over its row: same id and metadata, never two rows', async () => {
    const { connection, bridgeConnection } = shared;
    const pendingRow = (await stored(connection.id)).find((row) => row.status === 'PENDING' && Number(row.amount) < 0);
    expect(pendingRow).toBeDefined();
    const note = await app.http.post('/v1/graphql', {
      auth: basicAuth(shared.profile.id, app.apiKey),
      json: { query: 'mutation($input: TransactionUpdateInput!) { transactionUpdate(input: $input) { success } }', variables: { input: { id: encodeId('transaction', pendingRow!.id), metadata: { note: 'team lunch' } } } },
    });
    expect(note.body.data.transactionUpdate.success).toBe(true);
    const pendingId = pendingRow!.remote_id.split(':').slice(1).join(':');
    const posted = bridge.postPending(bridgeConnection, { transactionId: pendingId, amount: (Number(pendingRow!.amount) * 1.18).toFixed(2) });
    await syncNow(connection.id);
    const rows = await stored(connection.id);
    const takenOver = rows.find((row) => row.id === pendingRow!.id)!;
    expect(takenOver).toMatchObject({ status: 'POSTED', metadata: { note: 'team lunch' } });
    expect(takenOver.remote_id.endsWith(`:${posted.id}`)).toBe(true);
    expect(rows.some((row) => row.remote_id === pendingRow!.remote_id)).toBe(false);
    await expectSameAsBridge(connection.id, bridgeConnection, since);
  });

  it('keeps ids and metadata when the bank re-issues transaction ids for a block of dates', async () => {
    const { connection, bridgeConnection } = shared;
    const before = await stored(connection.id);
    // Within the span every later sync reads again (its window starts 30 days before the last sync).
    const from = daysBefore(bridge.today(), 20);
    const reissued = bridge.reissueIds(bridgeConnection, { from, to: bridge.today() });
    expect(reissued.length).toBeGreaterThan(0);
    await syncNow(connection.id);
    const after = await stored(connection.id);
    expect(new Set(after.map((row) => row.id))).toEqual(new Set(before.map((row) => row.id)));
    expect(after.find((row) => row.metadata !== null)?.metadata).toEqual({ note: 'team lunch' });
    await expectSameAsBridge(connection.id, bridgeConnection, from);
  });

  it('follows the bank over weeks, never deleting history older than the window', async () => {
    const { connection, bridgeConnection } = shared;
    const history = await stored(connection.id);
    for (let week = 0; week < 3; week++) {
      bridge.advanceClock(7);
      await syncNow(connection.id);
    }
    const rows = await stored(connection.id);
    expect(rows.length).toBeGreaterThan(history.length);
    expect(new Set(rows.map((row) => row.remote_id)).size).toBe(rows.length);
    // The last window started 30 days before the sync before it: what it covered equals the bank's view…
    const windowStart = daysBefore(bridge.today(), 37);
    await expectSameAsBridge(connection.id, bridgeConnection, windowStart);
    // …and posted history it no longer covers is all still there.
    const older = history.filter((row) => row.date < daysBefore(windowStart, 1) && row.status === 'POSTED').map((row) => row.id);
    const kept = new Set(rows.map((row) => row.id));
    expect(older.length).toBeGreaterThan(0);
    expect(older.every((id) => kept.has(id))).toBe(true);
  });

  it('offers no ACH numbers or real-time balances: 403 with an instruction', async () => {
    const [account] = await app.sql('select id from account where connection_id = $1 limit 1', [decodeId('connection', shared.connection.id)]);
    const accountId = encodeId('account', account.id);
    const refresh = await app.http.post(`/v1/accounts/${accountId}/balances/refresh`, { auth: app.apiKey });
    expect(refresh.status).toBe(403);
    expect(refresh.body).toMatchObject({ code: 'CAPABILITY_NOT_OFFERED', instruction: expect.any(String) });
  });

  it('answers a transactions refresh the daily request budget cannot pay for with 429 and Retry-After', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const spent = await builders(app).connection({ provider: 'simplefin', institutionId: 'simplefin-bank', credential: 'https://user:secret@127.0.0.1:1/simplefin', upstreamRequests: { day: today, count: 24 } });
    const refresh = await app.http.post(`/v1/connections/${encodeId('connection', spent.id)}/transactions/refresh`, { auth: app.apiKey });
    expect(refresh.status).toBe(429);
    expect(refresh.body.code).toBe('PROVIDER_BUDGET_USED');
    expect(refresh.body.message).toMatch(/allows 24 upstream requests a day, and today's are used/);
    expect(Number(refresh.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('SimpleFIN errors and repair', () => {
  it('a login needing attention at the bridge → ERROR_REPAIRABLE with its event; a revoked one too; a new Setup Token repairs it', async () => {
    const { connection, bridgeConnection, token, profile } = await connectWithSetupToken();
    bridge.needsAttention(bridgeConnection, 'bank');
    await syncNow(connection.id, 'ERROR_REPAIRABLE');
    const events = await app.sql(`select 1 from event where profile_id = $1 and type = 'connection.synced.errored.ERROR_REPAIRABLE'`, [decodeId('profile', profile.id)]);
    expect(events).toHaveLength(1);
    bridge.setErrors(bridgeConnection, []);
    bridge.revoke(bridgeConnection);
    await syncNow(connection.id, 'ERROR_REPAIRABLE');

    const link = await app.http.post('/v1/connect/link', { auth: token, json: { connectionId: connection.id } });
    expect(link.body.kind).toBe('SETUP_TOKEN');
    const fresh = bridge.createSetupToken({ connectionId: bridgeConnection });
    const repaired = await app.http.post(`/v1/connect/connections/${connection.id}/reconnect`, { auth: token, json: { setupToken: fresh.setupToken } });
    expect(repaired.status).toBe(200);
    await waitFor(async () => ((await connectionRow(connection.id)).status === 'SYNCED' ? true : undefined), 'the repaired connection to sync', 60_000);
  });

  it('refuses a Setup Token that points anywhere but an allowed SimpleFIN server', async () => {
    const profile = await createProfile(app);
    const token = await sessionToken(profile.id);
    const elsewhere = Buffer.from('https://169.254.169.254/simplefin/claim/abc').toString('base64');
    const refused = await app.http.post('/v1/connect/connections', { auth: token, json: { provider: 'simplefin', setupToken: elsewhere } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.setupToken[0]).toMatch(/not at an allowed SimpleFIN server/);
  });
});
