import { createServer, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId } from '../../src/lib/ids.ts';
import { dueForSync } from '../../src/modules/connection/connection.store.ts';
import type { FakeEnableBanking } from '../fakes/enablebanking/index.ts';
import { configureEnableBanking, startEnableBankingApp } from '../support/enablebanking-app.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { createProfile, sessionFor } from '../support/factories.ts';
import { callBack, startRedirect } from '../support/redirect-links.ts';
import { syncJobsDone } from '../support/sync-jobs.ts';
import type { TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

/*
 * Enable Banking through the HTTPS front door, against the fake configured as an operator would
 * (`providers set … enablebanking --base-url`): institution search, a link through the callback, and
 * the bank's four reads a day without the end-user present. The connect page's own flow is in
 * connector-enablebanking.test.ts.
 */

let app: TestApp;
let fake: FakeEnableBanking;
let callbackUrl: string;
/** The service's log lines (from `info`), as JSON. */
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const log = new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()) });
  ({ app, fake, callbackUrl } = await startEnableBankingApp({ LOG_LEVEL: 'info', METRICS_PORT: '0' }, { log }));
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await fake?.stop();
});

async function connectionRow(connectionId: string) {
  const [row] = await app.sql('select status, sync_cursor, upstream_requests, upstream_refuses_until, refresh_presence_encrypted from connection where id = $1', [decodeId('connection', connectionId)]);
  return row;
}

/**
 * A new profile links `bankName` the way its browser would: search, startLink, approve at the bank,
 * back to the callback (with `userAgent`: a browser's; without, a client that sends none, whose
 * first read is an unattended one).
 */
async function linkAt(bankName: string, country: string, userAgent?: string, browserHeaders: Record<string, string> = {}): Promise<string> {
  const token = await sessionFor(app, (await createProfile(app)).id);
  const search = await app.http.get(`/v1/institutions?country=${country}&name=${encodeURIComponent(bankName)}`, { auth: token });
  const institution = search.body.find((candidate: { provider: string }) => candidate.provider === 'enablebanking');
  const link = await startRedirect(app, token, { provider: 'enablebanking', institutionId: institution.id });
  const back = await fake.atBank(link.url.toString(), 'approve');
  expect(`${back.origin}${back.pathname}`).toBe(callbackUrl);
  const outcome = await callBack(app, Object.fromEntries(back.searchParams), link.cookie, userAgent, browserHeaders);
  expect(outcome.get('institution')).toBe(bankName);
  return outcome.get('linked')!;
}

/** Waits for a sync after `cursor` (the one a link, refresh or schedule queued) to finish SYNCED. */
async function syncedAfter(connectionId: string, cursor: string | null) {
  return waitFor(async () => {
    const row = await connectionRow(connectionId);
    return row.status === 'SYNCED' && row.sync_cursor !== cursor ? row : undefined;
  }, `connection ${connectionId} to sync`, 60_000);
}

/** The transactions refresh an app asks for, with the environment's API key. */
function refresh(connectionId: string) {
  return app.http.post(`/v1/connections/${connectionId}/transactions/refresh`, { auth: app.apiKey });
}

/** Four hours on, as far as the refresh's spacing is concerned: the next refresh may be claimed. */
async function refreshSpacingOver(connectionId: string): Promise<void> {
  await app.sql(`update connection set last_refresh_at = now() - interval '5 hours', refresh_started_at = null where id = $1`, [decodeId('connection', connectionId)]);
}

describe('Enable Banking institutions', () => {
  it("lists the fake's banks by country and name, with their logos, for an API key or a session", async () => {
    const finland = await app.http.get('/v1/institutions?country=FI&name=suomi', { auth: app.apiKey });
    expect(finland.status).toBe(200);
    expect(finland.body).toEqual([
      {
        id: expect.stringMatching(/^eb_FI_[A-Za-z0-9_-]{16}$/),
        name: 'Fake Bank Suomi',
        provider: 'enablebanking',
        countries: ['FI'],
        logoUrl: 'https://enablebanking.com/brands/FI/Fake%20Bank%20Suomi/',
        products: ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_OWNERS'],
      },
    ]);
    const token = await sessionFor(app, (await createProfile(app)).id);
    const sweden = await app.http.get('/v1/institutions?country=SE&provider=enablebanking', { auth: token });
    expect(sweden.body.map((institution: { name: string }) => institution.name)).toEqual(['Fake Bank Sverige']);
  });

  it('starts no link for an institution id Enable Banking does not know', async () => {
    const token = await sessionFor(app, (await createProfile(app)).id);
    const unknown = await app.http.post('/v1/connect/link', { auth: token, json: { provider: 'enablebanking', institutionId: `eb_FI_${'x'.repeat(16)}` } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ requestId: expect.any(String), errorId: expect.any(String) });
  });
});

describe("the bank's four reads a day without the end-user", () => {
  it('keeps within them, and a read the bank refuses anyway changes no connection', async () => {
    // A country nobody searched yet: the adapter keeps each country's list of banks for hours.
    const bank = fake.addBank('Fake Bank Limit', 'DK', [{ key: 'current', currency: 'EUR', opening: '100.00' }]);
    fake.addEntry(bank, 'current', { amount: '4.20', counterpart: 'Kiosk' });
    const first = await linkAt('Fake Bank Limit', 'DK');
    let row = await syncedAfter(first, null);
    const [{ remote_id: uid }] = await app.sql('select remote_id from account where connection_id = $1', [decodeId('connection', first)]);
    const detailsReads = () => fake.requests.filter((record) => record.path === `/accounts/${uid}/details`);

    // The link's first sync and three refreshes: the bank's four reads of the day, Tributary's budget with them.
    for (let refreshes = 0; refreshes < 3; refreshes++) {
      if (refreshes > 0) await refreshSpacingOver(first);
      expect((await refresh(first)).status).toBe(202);
      row = await syncedAfter(first, row.sync_cursor);
    }
    expect(detailsReads().map((record) => [record.status, record.psu])).toEqual(Array(4).fill([200, false]));
    expect(row.upstream_requests).toMatchObject({ count: 4 });

    await refreshSpacingOver(first);
    const refused = await refresh(first);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'PROVIDER_BUDGET_USED', requestId: expect.any(String), errorId: expect.any(String) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // A scheduled sync asks the bank nothing more today, and the connection stays as it was.
    await app.service.connectionJobs.sync(decodeId('connection', first)!);
    await syncJobsDone(app, first);
    expect((await connectionRow(first)).status).toBe('SYNCED');
    expect(detailsReads()).toHaveLength(4);

    // The same account linked again (the same application at the bank): the bank refuses its first sync's read.
    const second = await linkAt('Fake Bank Limit', 'DK');
    const requeued = await waitFor(async () => {
      const [job] = await app.sql(`select start_after from pgboss.job where name = 'connection.sync' and singleton_key = $1 and state = 'created' and start_after > now()`, [decodeId('connection', second)]);
      return job;
    }, 'the refused sync to be queued again for later');
    expect(detailsReads().map((record) => [record.status, record.error]).at(-1)).toEqual([429, 'ASPSP_RATE_LIMIT_EXCEEDED']);
    const bankDayTurns = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1);
    expect(new Date(requeued.start_after).getTime()).toBeGreaterThanOrEqual(bankDayTurns - 60_000);
    expect((await connectionRow(second)).status).toBe('INITIALIZING');
    expect((await connectionRow(first)).status).toBe('SYNCED');
  });
});

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

/** The reads of one account's resources at the fake, in order. */
function accountReads(uid: string) {
  return fake.requests.filter((record) => record.path.startsWith(`/accounts/${uid}/`));
}

async function accountUid(connectionId: string): Promise<string> {
  const [{ remote_id: uid }] = await app.sql('select remote_id from account where connection_id = $1', [decodeId('connection', connectionId)]);
  return uid;
}

describe("the end-user's presence on the first read after a link", () => {
  it("reads with the PSU headers of the browser the bank sent back, once, spending none of the bank's unattended reads", async () => {
    const bank = fake.addBank('Fake Bank Norge', 'NO', [{ key: 'current', currency: 'NOK', opening: '100.00' }]);
    fake.addEntry(bank, 'current', { amount: '39.00', counterpart: 'Narvesen' });
    const connectionId = await linkAt('Fake Bank Norge', 'NO', BROWSER);
    let row = await syncedAfter(connectionId, null);
    const uid = await accountUid(connectionId);
    const first = accountReads(uid);
    expect(first.map((record) => [record.status, record.psu, record.psuUserAgent])).toEqual(first.map(() => [200, true, BROWSER]));
    expect(first.length).toBeGreaterThanOrEqual(3);
    // The address the service saw the browser come from (the test connects over loopback).
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1']).toContain(first[0]!.psuIpAddress);
    expect(row.upstream_requests).toBeNull();
    // The job forgets the presence after the sync's outcome commits: read at SYNCED, it was still there now and then.
    await syncJobsDone(app, connectionId);
    expect((await connectionRow(connectionId)).refresh_presence_encrypted).toBeNull();

    // Used once: the next read without the end-user is an unattended one, counted by the bank and by Tributary.
    expect((await refresh(connectionId)).status).toBe(202);
    row = await syncedAfter(connectionId, row.sync_cursor);
    expect(accountReads(uid).slice(first.length).map((record) => record.psu)).toEqual([false, false, false]);
    expect(row.upstream_requests).toMatchObject({ count: 1 });
  });
});

describe('after the bank refuses a read as over its limit', () => {
  it("answers refreshes 429 until the time the bank gave, and the scheduler waits for it too", async () => {
    const bank = fake.addBank('Fake Bank Eesti', 'EE', [{ key: 'current', currency: 'EUR', opening: '50.00' }], { unattendedReadsPerDay: 0 });
    fake.addEntry(bank, 'current', { amount: '2.50', counterpart: 'Rimi' });
    // The link's first read is the end-user's: the bank answers it.
    const connectionId = await linkAt('Fake Bank Eesti', 'EE', BROWSER);
    let row = await syncedAfter(connectionId, null);
    const uid = await accountUid(connectionId);

    // A refresh without the end-user: the bank refuses the read and says when to come back.
    expect((await refresh(connectionId)).status).toBe(202);
    const refusal = await waitFor(async () => accountReads(uid).find((record) => record.status === 429), 'the bank to refuse a read');
    expect(refusal.error).toBe('ASPSP_RATE_LIMIT_EXCEEDED');
    row = await waitFor(async () => {
      const current = await connectionRow(connectionId);
      return current.upstream_refuses_until ? current : undefined;
    }, 'the refusal to be stored');
    expect(row.status).toBe('SYNCED');
    const bankDayTurns = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1);
    const refusesUntil = new Date(row.upstream_refuses_until).getTime();
    expect(Math.abs(refusesUntil - bankDayTurns)).toBeLessThan(60_000);

    await refreshSpacingOver(connectionId);
    const refused = await refresh(connectionId);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'PROVIDER_BUDGET_USED', requestId: expect.any(String), errorId: expect.any(String) });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Math.abs(Date.now() + retryAfter * 1000 - refusesUntil)).toBeLessThan(60_000);

    // The scheduler leaves the login alone until then, even once its sync is due, and picks it up after.
    await app.sql(`update connection set last_synced_at = now() - interval '7 hours', next_read_at = null where id = $1`, [decodeId('connection', connectionId)]);
    const due = async (at: Date) => (await dueForSync(app.orm.em.fork(), 6, at)).map((key) => key.id);
    expect(await due(new Date())).not.toContain(decodeId('connection', connectionId));
    expect(await due(new Date(refusesUntil + 1000))).toContain(decodeId('connection', connectionId));
    expect(accountReads(uid).filter((record) => record.status === 429)).toHaveLength(1);

    // The end-user asks at the app: the bank does not count their read, so it runs now, not at the
    // bank's next day with the sync the refusal queued (cancelled for it), and lifts nothing else.
    await app.sql(`update connection set last_synced_at = now() where id = $1`, [decodeId('connection', connectionId)]);
    await refreshSpacingOver(connectionId);
    const before = accountReads(uid).length;
    const attended = await app.http.post(`/v1/connections/${connectionId}/transactions/refresh`, { auth: app.apiKey, json: { endUser: { ipAddress: '203.0.113.7', userAgent: BROWSER } } });
    expect(attended.status, attended.text).toBe(202);
    row = await syncedAfter(connectionId, row.sync_cursor);
    expect(accountReads(uid).slice(before).map((record) => [record.status, record.psu, record.psuIpAddress])).toEqual(accountReads(uid).slice(before).map(() => [200, true, '203.0.113.7']));
    await syncJobsDone(app, connectionId);
    expect(new Date((await connectionRow(connectionId)).upstream_refuses_until).getTime()).toBe(refusesUntil);
  });
});

/** One metric's value, from the service's `GET /metrics`. */
async function metric(line: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${app.service.metricsPort}/metrics`)).text();
  const found = text.split('\n').find((candidate) => candidate.startsWith(`${line} `));
  return found === undefined ? 0 : Number(found.slice(line.length + 1));
}

describe('amounts as the API reference allows them', () => {
  it('stores a signed debit and trailing zeros exactly; an amount it cannot store is left out, logged and counted, and the sync succeeds', async () => {
    const bank = fake.addBank('Fake Bank Belgique', 'BE', [{ key: 'current', currency: 'EUR', opening: '100.00' }]);
    fake.addEntry(bank, 'current', { amount: '-12.50', counterpart: 'Signed debit' });
    fake.addEntry(bank, 'current', { amount: '7.250000', direction: 'CRDT', counterpart: 'Trailing zeros' });
    fake.addEntry(bank, 'current', { amount: '0.12345', direction: 'CRDT', counterpart: 'Five decimals' });
    const leftOutBefore = await metric('tributary_sync_left_out_total{provider="enablebanking",what="transaction"}');
    const connectionId = await linkAt('Fake Bank Belgique', 'BE');
    await syncedAfter(connectionId, null);
    const stored = await app.sql('select amount::text as amount from transaction where connection_id = $1 order by amount', [decodeId('connection', connectionId)]);
    expect(stored.map((row) => row.amount)).toEqual(['-12.5000', '7.2500']);

    const warning = lines.find((line) => line.connectionId === decodeId('connection', connectionId) && line.leftOut)!;
    expect(warning).toMatchObject({ level: 40, provider: 'enablebanking', leftOut: { transaction: 1, balance: 2, original_amount: 0 }, reasons: ['BALANCE: the amount has more than 4 fraction digits', 'TRANSACTION: the amount has more than 4 fraction digits'] });
    expect(JSON.stringify(warning)).not.toMatch(/12345|Five decimals|Alex Example/);
    expect(await metric('tributary_sync_left_out_total{provider="enablebanking",what="transaction"}')).toBe(leftOutBefore + 1);
  });
});

describe("the bank's required PSU headers", () => {
  it("are sent from the browser back from the bank, and from a refresh's endUser, when they hold every one the bank lists", async () => {
    const bank = fake.addBank('Fake Bank Lietuva', 'LT', [{ key: 'current', currency: 'EUR', opening: '20.00' }], { requiredPsuHeaders: ['Psu-Ip-Address', 'Psu-User-Agent', 'Psu-Accept-language'], unattendedReadsPerDay: 0 });
    fake.addEntry(bank, 'current', { amount: '1.10', counterpart: 'Maxima' });
    const connectionId = await linkAt('Fake Bank Lietuva', 'LT', BROWSER, { 'Accept-Language': 'lt-LT,lt;q=0.9', Accept: 'text/html' });
    const row = await syncedAfter(connectionId, null);
    const uid = await accountUid(connectionId);
    const first = accountReads(uid);
    expect(first.map((record) => [record.status, record.psu, record.psuHeaders['psu-accept-language'], record.psuHeaders['psu-accept']])).toEqual(first.map(() => [200, true, 'lt-LT,lt;q=0.9', 'text/html']));

    const endUser = { ipAddress: '203.0.113.9', userAgent: BROWSER, acceptLanguage: 'en-GB', acceptEncoding: 'gzip, br', geoLocation: '54.6872,25.2797' };
    const refreshed = await app.http.post(`/v1/connections/${connectionId}/transactions/refresh`, { auth: app.apiKey, json: { endUser } });
    expect(refreshed.status, refreshed.text).toBe(202);
    await syncedAfter(connectionId, row.sync_cursor);
    const second = accountReads(uid).slice(first.length);
    expect(second.map((record) => [record.status, record.psuHeaders])).toEqual(
      second.map(() => [200, { 'psu-ip-address': '203.0.113.9', 'psu-user-agent': BROWSER, 'psu-accept-language': 'en-GB', 'psu-accept-encoding': 'gzip, br', 'psu-geo-location': '54.6872,25.2797' }]),
    );
  });
});

describe('institution search with Enable Banking unreachable', () => {
  it("answers the sandbox's institutions and names enablebanking unavailable, logged in one line without a stack", async () => {
    const environment = await createEnvironmentWithKey(app, 'SANDBOX');
    await configureEnableBanking(app, environment.environmentId, fake.registerApplication([callbackUrl]), 'https://127.0.0.1:1');
    const from = lines.length;
    const search = await app.http.get('/v1/institutions?name=bank', { auth: environment.apiKey });
    expect(search.status, search.text).toBe(200);
    expect(search.headers['unavailable-providers']).toBe('enablebanking');
    expect(search.body.length).toBeGreaterThan(0);
    expect(new Set(search.body.map((institution: { provider: string }) => institution.provider))).toEqual(new Set(['sandbox']));
    expect(Number(search.headers['total-count'])).toBe(search.body.length);

    // Asked alone, it is the answer's whole: a 503.
    const alone = await app.http.get('/v1/institutions?provider=enablebanking', { auth: environment.apiKey });
    expect(alone.status).toBe(503);
    expect(alone.body).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', errorId: expect.any(String) });
    expect(Number(alone.headers['retry-after'])).toBeGreaterThan(0);

    const logged = lines.slice(from).filter((line) => (line.level as number) >= 40);
    expect(logged.map((line) => [line.level, line.provider ?? line.code])).toEqual([
      [40, 'enablebanking'],
      [50, 'PROVIDER_UNAVAILABLE'],
    ]);
    expect(JSON.stringify(logged)).not.toContain('stack');
  });
});

describe('institution search with Enable Banking silent', () => {
  it('leaves it out the same way once it has not answered in time, without waiting for its own timeout', async () => {
    // Accepts connections and never says a word: a firewall that drops the answers.
    const held: Socket[] = [];
    const silent = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const environment = await createEnvironmentWithKey(app, 'SANDBOX');
      await configureEnableBanking(app, environment.environmentId, fake.registerApplication([callbackUrl]), `https://127.0.0.1:${(silent.address() as { port: number }).port}`);
      const search = await app.http.get('/v1/institutions?name=bank', { auth: environment.apiKey });
      expect(search.status, search.text).toBe(200);
      expect(search.headers['unavailable-providers']).toBe('enablebanking');
      expect(search.body.length).toBeGreaterThan(0);
      expect(held.length).toBeGreaterThan(0);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('a redirect URL the Enable Banking application does not allow', () => {
  it("is 503 PROVIDER_MISCONFIGURED for the end-user, and the operator's log line names the setting to fix", async () => {
    const environment = await createEnvironmentWithKey(app, 'PRODUCTION');
    await configureEnableBanking(app, environment.environmentId, fake.registerApplication(['https://elsewhere.test/v1/connect/callback']), fake.url);
    const token = await sessionFor(app, (await createProfile(app, {}, environment.apiKey)).id, environment.apiKey);
    const [institution] = (await app.http.get('/v1/institutions?country=FI', { auth: token })).body;
    const from = lines.length;
    const refused = await app.http.post('/v1/connect/link', { auth: token, json: { provider: 'enablebanking', institutionId: institution.id } });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'PROVIDER_MISCONFIGURED', requestId: expect.any(String), errorId: expect.any(String) });
    expect(refused.headers['retry-after']).toBe('300');
    expect(JSON.stringify(refused.body)).not.toContain(callbackUrl);
    const operator = lines.slice(from).find((line) => line.setting);
    expect(operator).toMatchObject({ level: 50, provider: 'enablebanking', setting: expect.stringContaining(`add ${callbackUrl} to the application's allowed redirect URLs`) });
    expect(JSON.stringify(lines.slice(from))).not.toContain('stack');
  });
});
