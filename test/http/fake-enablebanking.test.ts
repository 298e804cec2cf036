import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { request } from 'node:https';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEnableBanking, type FakeBank, type FakeEnableBanking } from '../fakes/enablebanking/index.ts';

/*
 * The fake Enable Banking itself, as a client sees it over HTTPS: it must be as strict as the real
 * API (a lenient fake lets adapter bugs through) and keep the state the adapter's tests rely on.
 */

const REDIRECT = 'https://tributary.test/v1/connect/callback';
let fake: FakeEnableBanking;
let app: { applicationId: string; privateKeyPem: string };
let banks = 0;

beforeAll(async () => {
  fake = await startFakeEnableBanking({ today: '2026-05-04', pageSize: 2 });
  app = fake.registerApplication([REDIRECT]);
});
afterAll(async () => {
  await fake?.stop();
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  text: string;
}

function call(method: string, path: string, options: { token?: string | null; body?: object; headers?: Record<string, string> } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    void (async () => {
      const token = options.token === undefined ? await jwt() : options.token;
      const payload = options.body ? JSON.stringify(options.body) : undefined;
      const headers = { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(payload ? { 'Content-Type': 'application/json' } : {}), ...options.headers };
      const outgoing = request(`${path.startsWith('https://') ? '' : fake.url}${path}`, { method, headers, ca: fake.ca }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const json = String(response.headers['content-type']).startsWith('application/json');
          resolve({ status: response.statusCode!, headers: response.headers, text, body: json ? (JSON.parse(text) as Record<string, unknown>) : {} });
        });
      });
      outgoing.on('error', reject);
      outgoing.end(payload);
    })().catch(reject);
  });
}

/** An application token; `change` alters what a correct client would send. */
async function jwt(change: { kid?: string; audience?: string; issuer?: string; lifetime?: number; issuedAt?: number; key?: string } = {}): Promise<string> {
  const iat = change.issuedAt ?? Math.floor(fake.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', kid: change.kid ?? app.applicationId })
    .setIssuer(change.issuer ?? 'enablebanking.com')
    .setAudience(change.audience ?? 'api.enablebanking.com')
    .setIssuedAt(iat)
    .setExpirationTime(iat + (change.lifetime ?? 3600))
    .sign(createPrivateKey(change.key ?? app.privateKeyPem));
}

/** Starts an authorization at `bank` and approves it at the sign-in page: the code, via the redirect. */
async function approvedCode(bank: FakeBank, state = 'st'): Promise<string> {
  const validUntil = new Date(fake.now() + 30 * 86_400_000).toISOString();
  const started = await call('POST', '/auth', { body: { access: { valid_until: validUntil, balances: true, transactions: true }, aspsp: { name: bank.name, country: bank.country }, state, redirect_url: REDIRECT, psu_type: 'personal' } });
  expect(started.status).toBe(200);
  const page = await call('GET', String(started.body.url), { token: null });
  const approve = /id="approve" role="button" href="([^"]+)"/.exec(page.text)![1]!;
  const back = await call('GET', approve.replaceAll('&amp;', '&'), { token: null });
  expect(back.status).toBe(302);
  const location = new URL(String(back.headers.location));
  expect(location.origin + location.pathname).toBe(REDIRECT);
  expect(location.searchParams.get('state')).toBe(state);
  return location.searchParams.get('code')!;
}

async function session(bank: FakeBank): Promise<{ id: string; uids: string[] }> {
  const authorized = await call('POST', '/sessions', { body: { code: await approvedCode(bank) } });
  expect(authorized.status).toBe(200);
  return { id: String(authorized.body.session_id), uids: (authorized.body.accounts as { uid: string }[]).map((account) => account.uid) };
}

function newBank(behaviour: Parameters<FakeEnableBanking['addBank']>[3] = {}): FakeBank {
  return fake.addBank(`Fake Test Bank ${++banks}`, 'NL', [{ key: 'current', currency: 'EUR', opening: '100.00' }], behaviour);
}

const PSU = { 'Psu-Ip-Address': '198.51.100.4', 'Psu-User-Agent': 'Mozilla/5.0' };

describe('application tokens', () => {
  it.each([
    ['no token', null],
    ['an unknown kid', 'kid'],
    ['another audience', 'audience'],
    ['another issuer', 'issuer'],
    ['a lifetime over 24 hours', 'lifetime'],
    ['an expired token', 'expired'],
    ['a key other than the registered one', 'key'],
  ] as const)('refuses %s with 401 in EB’s error shape', async (_label, fault) => {
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const now = Math.floor(fake.now() / 1000);
    const tokens = {
      kid: await jwt({ kid: crypto.randomUUID() }),
      audience: await jwt({ audience: 'api.example.com' }),
      issuer: await jwt({ issuer: 'example.com' }),
      lifetime: await jwt({ lifetime: 86_401 }),
      expired: await jwt({ issuedAt: now - 7200, lifetime: 3600 }),
      key: await jwt({ key: otherKey }),
    };
    const reply = await call('GET', '/aspsps', { token: fault === null ? null : tokens[fault] });
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ code: 401, error: 'UNAUTHORIZED_ACCESS', message: expect.any(String) });
  });

  it('accepts a token of exactly 24 hours', async () => {
    expect((await call('GET', '/aspsps?country=FI', { token: await jwt({ lifetime: 86_400 }) })).status).toBe(200);
  });
});

describe('banks and authorization', () => {
  it('lists banks per country with their consent validity and PSU headers', async () => {
    const reply = await call('GET', '/aspsps?country=SE&psu_type=personal');
    expect(reply.body.aspsps).toEqual([expect.objectContaining({ name: 'Fake Bank Sverige', country: 'SE', maximum_consent_validity: 15_552_000, required_psu_headers: ['Psu-Ip-Address', 'Psu-User-Agent'] })]);
  });

  it('refuses a redirect URL the application did not register, an unknown bank and a consent longer than the bank allows', async () => {
    const body = (change: object) => ({ access: { valid_until: new Date(fake.now() + 86_400_000).toISOString(), balances: true, transactions: true }, aspsp: { name: 'Fake Bank Suomi', country: 'FI' }, state: 's', redirect_url: REDIRECT, ...change });
    expect((await call('POST', '/auth', { body: body({ redirect_url: 'https://evil.test/cb' }) })).body).toMatchObject({ error: 'REDIRECT_URI_NOT_ALLOWED' });
    expect((await call('POST', '/auth', { body: body({ aspsp: { name: 'Nope', country: 'FI' } }) })).body).toMatchObject({ error: 'WRONG_ASPSP_PROVIDED' });
    const tooLong = { access: { valid_until: new Date(fake.now() + 181 * 86_400_000).toISOString(), balances: true, transactions: true } };
    expect((await call('POST', '/auth', { body: body(tooLong) })).status).toBe(422);
    expect((await call('POST', '/auth', { body: body({ access: { valid_until: '2030-01-01T00:00:00', balances: true, transactions: true } }) })).status).toBe(422);
  });

  it('sends a cancel and a bank error back with the state and no code', async () => {
    const validUntil = new Date(fake.now() + 86_400_000).toISOString();
    const started = await call('POST', '/auth', { body: { access: { valid_until: validUntil, balances: true, transactions: true }, aspsp: { name: 'Fake Bank Suomi', country: 'FI' }, state: 'abc', redirect_url: REDIRECT } });
    const page = await call('GET', String(started.body.url), { token: null });
    expect(page.text).toContain('Fake Bank Suomi');
    for (const [button, error] of [['cancel', 'access_denied'], ['error', 'server_error']] as const) {
      const href = new RegExp(`id="${button}" role="button" href="([^"]+)"`).exec(page.text)![1]!;
      const location = new URL(String((await call('GET', href.replaceAll('&amp;', '&'), { token: null })).headers.location));
      expect(Object.fromEntries(location.searchParams)).toMatchObject({ error, state: 'abc' });
      expect(location.searchParams.has('code')).toBe(false);
    }
  });

  it('a code opens one session, once, within ten minutes, for the application that asked', async () => {
    const bank = newBank();
    const code = await approvedCode(bank);
    const other = fake.registerApplication([REDIRECT]);
    const stranger = await call('POST', '/sessions', { body: { code }, token: await jwt({ kid: other.applicationId, key: other.privateKeyPem }) });
    expect(stranger.body).toMatchObject({ error: 'WRONG_AUTHORIZATION_CODE' });
    const opened = await call('POST', '/sessions', { body: { code } });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ aspsp: { name: bank.name, country: 'NL' }, accounts: [expect.objectContaining({ currency: 'EUR', identification_hash: expect.any(String) })] });
    expect((await call('POST', '/sessions', { body: { code } })).body).toMatchObject({ error: 'WRONG_AUTHORIZATION_CODE' });
    const late = await approvedCode(bank);
    fake.advance(11 / 1440);
    expect((await call('POST', '/sessions', { body: { code: late } })).body).toMatchObject({ error: 'EXPIRED_AUTHORIZATION_CODE' });
  });
});

describe('sessions and account data', () => {
  it('pages transactions by continuation key and checks its parameters', async () => {
    const bank = newBank({ unattendedReadsPerDay: null });
    for (let index = 1; index <= 5; index++) fake.addEntry(bank, 'current', { amount: `${index}.00`, counterpart: 'Shop' });
    const { uids } = await session(bank);
    const path = `/accounts/${uids[0]}/transactions`;
    const amounts: string[] = [];
    let key: string | undefined;
    do {
      const reply = await call('GET', `${path}?date_from=${fake.today()}${key ? `&continuation_key=${key}` : ''}`);
      expect(reply.status).toBe(200);
      amounts.push(...(reply.body.transactions as { transaction_amount: { amount: string } }[]).map((entry) => entry.transaction_amount.amount));
      key = reply.body.continuation_key as string | undefined;
    } while (key);
    expect(amounts).toEqual(['1.00', '2.00', '3.00', '4.00', '5.00']);
    expect((await call('GET', `${path}?continuation_key=forged`)).body).toMatchObject({ error: 'WRONG_CONTINUATION_KEY' });
    expect((await call('GET', `${path}?date_to=${fake.today()}`)).body).toMatchObject({ error: 'DATE_TO_WITHOUT_DATE_FROM' });
    expect((await call('GET', `${path}?date_from=2099-01-01`)).body).toMatchObject({ error: 'DATE_FROM_IN_FUTURE' });
    expect((await call('GET', `${path}?from=2026-01-01`)).body).toMatchObject({ error: 'WRONG_REQUEST_PARAMETERS' });
  });

  it('answers 429 past four unattended reads of an account a day; reads with both PSU headers are not counted, one alone is refused', async () => {
    const bank = newBank();
    const { uids } = await session(bank);
    const path = `/accounts/${uids[0]}/balances`;
    for (let read = 0; read < 4; read++) expect((await call('GET', path)).status).toBe(200);
    expect((await call('GET', path, { headers: PSU })).status).toBe(200);
    const limited = await call('GET', path);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: 'ASPSP_RATE_LIMIT_EXCEEDED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await call('GET', `/accounts/${uids[0]}/details`)).status).toBe(200);
    expect((await call('GET', path, { headers: { 'Psu-Ip-Address': '198.51.100.4' } })).body).toMatchObject({ error: 'PSU_HEADER_NOT_PROVIDED' });
  });

  it("takes the PSU headers its bank lists as required, all or none, and refuses a malformed position", async () => {
    const addressOnly = newBank({ requiredPsuHeaders: ['Psu-Ip-Address'], unattendedReadsPerDay: 0 });
    expect((await call('GET', `/aspsps?country=NL`)).body.aspsps).toContainEqual(expect.objectContaining({ name: addressOnly.name, required_psu_headers: ['Psu-Ip-Address'] }));
    const first = (await session(addressOnly)).uids[0];
    expect((await call('GET', `/accounts/${first}/details`, { headers: { 'Psu-Ip-Address': '198.51.100.4' } })).status).toBe(200);
    expect((await call('GET', `/accounts/${first}/details`)).body).toMatchObject({ error: 'ASPSP_RATE_LIMIT_EXCEEDED' });

    const more = newBank({ requiredPsuHeaders: ['Psu-Ip-Address', 'Psu-User-Agent', 'Psu-Accept-language'] });
    const second = (await session(more)).uids[0];
    expect((await call('GET', `/accounts/${second}/details`, { headers: PSU })).body).toMatchObject({ error: 'PSU_HEADER_NOT_PROVIDED' });
    expect((await call('GET', `/accounts/${second}/details`, { headers: { ...PSU, 'Psu-Accept-Language': 'fi' } })).status).toBe(200);
    expect((await call('GET', `/accounts/${second}/details`, { headers: { ...PSU, 'Psu-Accept-Language': 'fi', 'Psu-Geo-Location': '60.17 24.94' } })).body).toMatchObject({ error: 'PSU_HEADER_INVALID' });
    expect(fake.requests.filter((record) => record.path === `/accounts/${second}/details`).map((record) => record.psu)).toEqual([false, true, false]);
  });

  it('serves amounts as the reference allows (a signed debit, any decimals) and keeps its balances exact', async () => {
    const bank = newBank({ unattendedReadsPerDay: null });
    fake.addEntry(bank, 'current', { amount: '-12.50', counterpart: 'Shop' });
    fake.addEntry(bank, 'current', { amount: '0.00001', direction: 'CRDT', counterpart: 'Interest' });
    const { uids } = await session(bank);
    const entries = (await call('GET', `/accounts/${uids[0]}/transactions?date_from=${fake.today()}`)).body.transactions as { transaction_amount: { amount: string } }[];
    expect(entries.map((entry) => entry.transaction_amount.amount)).toEqual(['-12.50', '0.00001']);
    const balances = (await call('GET', `/accounts/${uids[0]}/balances`)).body.balances as { balance_type: string; balance_amount: { amount: string } }[];
    expect(balances.find((balance) => balance.balance_type === 'ITBD')!.balance_amount.amount).toBe('87.50001');
  });

  it('an expired session answers 401 EXPIRED_SESSION and reports EXPIRED; a deleted one CLOSED_SESSION', async () => {
    const bank = newBank();
    const expiring = await session(bank);
    fake.expireSession(expiring.id);
    expect((await call('GET', `/accounts/${expiring.uids[0]}/details`)).body).toMatchObject({ code: 401, error: 'EXPIRED_SESSION' });
    expect((await call('GET', `/sessions/${expiring.id}`)).body).toMatchObject({ status: 'EXPIRED' });
    const deleted = await session(bank);
    expect((await call('DELETE', `/sessions/${deleted.id}`)).body).toEqual({ message: 'OK' });
    expect((await call('GET', `/accounts/${deleted.uids[0]}/details`)).body).toMatchObject({ error: 'CLOSED_SESSION' });
  });

  it('a bank that reissues uids gives each session new ones with the same identification hash; others keep them', async () => {
    const reissuing = newBank({ reissueUids: true });
    const first = await session(reissuing);
    const second = await session(reissuing);
    expect(second.uids[0]).not.toBe(first.uids[0]);
    const hashOf = async (uid: string) => (await call('GET', `/accounts/${uid}/details`)).body.identification_hash;
    expect(await hashOf(second.uids[0]!)).toBe(await hashOf(first.uids[0]!));
    const steady = newBank();
    expect((await session(steady)).uids).toEqual((await session(steady)).uids);
  });

  it('serves a pending entry booked later under the bank’s new reference, or none when it omits them', async () => {
    const bank = newBank({ unattendedReadsPerDay: null, bookedReference: 'new' });
    const entry = fake.addEntry(bank, 'current', { amount: '9.99', counterpart: 'Store', status: 'PDNG' });
    const { uids } = await session(bank);
    const read = async () => (await call('GET', `/accounts/${uids[0]}/transactions?date_from=${fake.today()}`)).body.transactions as { status: string; entry_reference?: string; booking_date?: string }[];
    const [pending] = await read();
    fake.book(bank, entry);
    const [booked] = await read();
    expect(pending).toMatchObject({ status: 'PDNG', entry_reference: expect.any(String) });
    expect(booked).toMatchObject({ status: 'BOOK', booking_date: fake.today(), entry_reference: expect.any(String) });
    expect(booked!.entry_reference).not.toBe(pending!.entry_reference);
    fake.setBehaviour(bank, { omitEntryReference: true });
    expect((await read())[0]).not.toHaveProperty('entry_reference');
  });
});
