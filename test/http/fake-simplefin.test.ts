import { request as httpRequest } from 'node:http';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSimplefin, WINDOW_ADVICE, WINDOW_CAPPED, type BridgeHolding, type FakeSimplefin, type SimplefinTransaction } from '../fakes/simplefin/index.ts';

const DAY = 86_400;

let fake: FakeSimplefin;

beforeAll(async () => {
  fake = await startFakeSimplefin({ seed: 'fake-simplefin-test', today: '2026-03-10' });
});
afterAll(async () => {
  await fake?.stop();
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One HTTPS request trusting the fake's certificate, as a client with the bridge's CA would make it. */
function call(method: string, url: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers, ca: fake.ca }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Decodes the setup token and claims it: the Access URL. */
async function claim(setupToken: string): Promise<string> {
  const reply = await call('POST', Buffer.from(setupToken, 'base64').toString('utf8'), { 'Content-Length': '0' });
  expect(reply.status).toBe(200);
  return reply.text;
}

type Query = Record<string, string | number | (string | number)[]>;

/** A client of one Access URL: credentials from its userinfo (percent-decoded) as Basic auth, never in the request URL. */
function clientOf(accessUrl: string) {
  const parsed = new URL(accessUrl);
  const authorization = `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}`;
  const root = `${parsed.origin}${parsed.pathname}`;
  const get = async (query: Query = {}, headers: Record<string, string> = { authorization }) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) for (const each of [value].flat()) params.append(name, String(each));
    const reply = await call('GET', `${root}/accounts?${params.toString()}`, headers);
    return { ...reply, body: reply.headers['content-type'] === 'application/json' ? (JSON.parse(reply.text) as AccountSet) : undefined };
  };
  return { root, authorization, get };
}

interface AccountSet {
  errors?: string[];
  errlist?: { code: string; msg: string; conn_id?: string; account_id?: string }[];
  connections?: { conn_id: string; name: string; org_id: string; sfin_url: string }[];
  accounts: { id: string; name: string; conn_id?: string; org?: { domain: string; name: string; 'sfin-url': string }; currency: string; balance: string; 'available-balance': string; 'balance-date': number; transactions: (SimplefinTransaction & Record<string, unknown>)[]; holdings: unknown[] }[];
}

/** A new bridge user with a claimed Access URL (each test its own: the request budget is per token). */
async function connect(options: Parameters<FakeSimplefin['createSetupToken']>[0] = {}) {
  const { setupToken, connectionId } = fake.createSetupToken(options);
  const accessUrl = await claim(setupToken);
  return { connectionId, accessUrl, client: clientOf(accessUrl) };
}

const idsOf = (set: AccountSet) => new Set(set.accounts.flatMap((account) => account.transactions.map((transaction) => transaction.id)));
const transactionsOf = (set: AccountSet) => set.accounts.flatMap((account) => account.transactions);
const cents = (amount: string) => Math.round(Number(amount) * 100);
const decimal = (value: number) => `${value < 0 ? '-' : ''}${Math.floor(Math.abs(value) / 100)}.${String(Math.abs(value) % 100).padStart(2, '0')}`;

describe('setup tokens and claiming', () => {
  it('a setup token is the base64 of a claim URL; the claim answers an Access URL with Basic credentials once, then 403', async () => {
    const { setupToken } = fake.createSetupToken();
    const claimUrl = Buffer.from(setupToken, 'base64').toString('utf8');
    expect(claimUrl).toMatch(new RegExp(`^${fake.sfinUrl}/claim/[0-9a-f]{64}$`));

    const first = await call('POST', claimUrl);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toMatch(/^text\/plain/);
    const accessUrl = new URL(first.text);
    expect(accessUrl.protocol).toBe('https:');
    expect(accessUrl.username).toMatch(/^[0-9a-f]{64}$/);
    expect(accessUrl.password).toMatch(/^[0-9a-f]{64}$/);
    expect(`${accessUrl.origin}${accessUrl.pathname}`).toBe(fake.sfinUrl);

    const second = await call('POST', claimUrl);
    expect(second).toMatchObject({ status: 403, text: 'Forbidden (was it already claimed?)' });
    expect((await call('POST', `${fake.sfinUrl}/claim/${'0'.repeat(64)}`)).status).toBe(403);
    expect((await call('GET', claimUrl)).status).toBe(405);

    const log = JSON.stringify(fake.requests);
    expect(log).not.toContain(claimUrl.split('/').at(-1));
    expect(log).not.toContain(accessUrl.password);
    expect(fake.requests.filter((record) => record.path === '/simplefin/claim/[redacted]').map((record) => record.status)).toEqual(expect.arrayContaining([200, 403, 403, 405]));
  });

  it('GET /info lists the versions the bridge advertises', async () => {
    const reply = await call('GET', `${fake.sfinUrl}/info`);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toEqual({ versions: ['1.0'] });
  });
});

describe('authentication', () => {
  it('answers /accounts only to the Basic credentials the Access URL carries, percent-decoded', async () => {
    const { accessUrl, client } = await connect({ username: 'app user', password: 'p@ss:w/rd%41' });
    expect(accessUrl).toContain('app%20user:p%40ss%3Aw%2Frd%2541@');
    expect((await client.get({ version: 2 })).status).toBe(200);

    const missing = await client.get({ version: 2 }, {});
    expect(missing.status).toBe(403);
    expect(missing.body?.errlist).toEqual([{ code: 'gen.auth', msg: 'No credentials provided' }]);
    const stillEncoded = `Basic ${Buffer.from('app%20user:p%40ss%3Aw%2Frd%2541').toString('base64')}`;
    const wrong = await client.get({ version: 2 }, { authorization: stillEncoded });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ errlist: [{ code: 'gen.auth', msg: 'Forbidden' }], connections: [], accounts: [] });
    expect((await client.get({}, { authorization: stillEncoded })).body).toEqual({ errors: ['Forbidden'], accounts: [] });
  });

  it('speaks HTTPS only: plain HTTP to its port gets no answer', async () => {
    const port = new URL(fake.url).port;
    const plain = new Promise((resolve, reject) => {
      const outgoing = httpRequest(`http://127.0.0.1:${port}/simplefin/info`, (response) => resolve(response.statusCode));
      outgoing.on('error', reject);
      outgoing.end();
    });
    await expect(plain).rejects.toThrow();
  });
});

describe('the Account Set', () => {
  it('answers the version 1 shape by default and version 2 (errlist, connections, conn_id, payee) when asked', async () => {
    const { connectionId, client } = await connect();
    const v1 = (await client.get({ 'start-date': fake.now() - 30 * DAY })).body!;
    expect(Object.keys(v1).sort()).toEqual(['accounts', 'errors']);
    expect(v1.errors).toEqual([]);
    expect(v1.accounts.map((account) => account.org?.name)).toEqual(['Riverbend Federal Credit Union', 'Riverbend Federal Credit Union', 'Meridian Card Services']);
    expect(v1.accounts[0]!.org?.['sfin-url']).toBe(fake.sfinUrl);
    expect(transactionsOf(v1).every((transaction) => !('payee' in transaction) && !('mcc' in transaction))).toBe(true);

    const v2 = (await client.get({ version: 2, 'start-date': fake.now() - 30 * DAY })).body!;
    expect(Object.keys(v2).sort()).toEqual(['accounts', 'connections', 'errlist']);
    expect(v2.connections!.map((connection) => connection.name)).toEqual(['Riverbend Federal Credit Union', 'Meridian Card Services']);
    expect(v2.accounts.map((account) => account.conn_id)).toEqual([v2.connections![0]!.conn_id, v2.connections![0]!.conn_id, v2.connections![1]!.conn_id]);
    expect(v2.accounts.every((account) => account.org === undefined)).toBe(true);
    expect(transactionsOf(v2).every((transaction) => typeof transaction.payee === 'string' && 'mcc' in transaction)).toBe(true);

    const [checking, savings, card] = v2.accounts;
    expect(v2.accounts.map((account) => account.name)).toEqual(['Everyday Checking', 'High Yield Savings', 'Rewards Visa Signature']);
    for (const account of v2.accounts) {
      expect(account.currency).toBe('USD');
      expect(account.balance).toMatch(/^-?\d+\.\d{2}$/);
      expect(account['available-balance']).toMatch(/^-?\d+\.\d{2}$/);
      expect(account['balance-date']).toBe(fake.now());
      expect(account.holdings).toEqual([]);
    }
    // Signs are the account holder's: money in is positive, a card's owed balance negative.
    expect(cents(checking!.balance)).toBeGreaterThan(0);
    expect(cents(savings!.balance)).toBeGreaterThan(0);
    expect(cents(card!.balance)).toBeLessThan(0);
    expect(transactionsOf(v2).every((transaction) => /^-?\d+\.\d{2}$/.test(transaction.amount))).toBe(true);
    expect(card!.transactions.some((transaction) => cents(transaction.amount) < 0)).toBe(true);
    expect(checking!.transactions.some((transaction) => transaction.description.startsWith('ACME CORP PAYROLL') && cents(transaction.amount) > 0)).toBe(true);
    expect(fake.accounts(connectionId).map((account) => account.balance)).toEqual(v2.accounts.map((account) => account.balance));

    const oneOrg = await connect({ orgs: 1 });
    const single = (await oneOrg.client.get({ version: 2 })).body!;
    expect(single.connections!.map((connection) => connection.name)).toEqual(['Riverbend Federal Credit Union']);
    expect(new Set(single.accounts.map((account) => account.conn_id))).toEqual(new Set([single.connections![0]!.conn_id]));
  });

  it('filters by account= (repeatable), answers balances only with balances-only=1, ignores unknown parameters', async () => {
    const { client } = await connect();
    const all = (await client.get({ version: 2 })).body!;
    const [checking, , card] = all.accounts;
    const filtered = (await client.get({ version: 2, account: [checking!.id, card!.id], shoe: 'size' })).body!;
    expect(filtered.accounts.map((account) => account.id)).toEqual([checking!.id, card!.id]);
    expect(filtered.accounts[0]!.transactions).toEqual(checking!.transactions);
    const balances = (await client.get({ version: 2, 'balances-only': 1, 'start-date': fake.now() - 10 * DAY })).body!;
    expect(balances.accounts.map((account) => [account.balance, account.transactions.length])).toEqual(all.accounts.map((account) => [account.balance, 0]));
    expect((await client.get({ version: 2, 'start-date': '2026-03-01' })).status).toBe(400);
  });
});

describe('holdings', () => {
  const holdingsOf = (set: AccountSet) => set.accounts.map((account) => account.holdings as BridgeHolding[]);

  it('reports a brokerage account at its own institution with its holdings, the same in both versions, valued from the day prices', async () => {
    const { connectionId, client } = await connect({ brokerage: true });
    const v1 = (await client.get()).body!;
    const v2 = (await client.get({ version: 2 })).body!;
    expect(v1.accounts.map((account) => account.name)).toEqual(['Everyday Checking', 'High Yield Savings', 'Rewards Visa Signature', 'Individual Brokerage']);
    expect(v1.accounts[3]!.org?.name).toBe('Summit Brokerage');
    expect(v2.connections!.map((connection) => connection.name)).toContain('Summit Brokerage');
    expect(holdingsOf(v1)).toEqual(holdingsOf(v2));
    const [checking, savings, card, brokerage] = holdingsOf(v2);
    expect([checking, savings, card]).toEqual([[], [], []]);
    expect(brokerage).toEqual(fake.holdings(connectionId));
    expect(brokerage!.map((holding) => holding.symbol)).toEqual(['VTI', 'AAPL', 'BTC', 'VMFXX']);
    for (const holding of brokerage!) {
      expect(holding.id).toMatch(/^HOL-/);
      expect(holding.shares).toMatch(/^\d+(\.\d+)?$/);
      expect(holding.market_value).toMatch(/^\d+\.\d{2}$/);
    }
    const bySymbol = new Map(brokerage!.map((holding) => [holding.symbol, holding]));
    // Fractional shares (crypto to eight places), a position without cost basis, one without currency.
    expect(bySymbol.get('BTC')!.shares).toBe('0.01234567');
    expect(bySymbol.get('BTC')!.currency).toBeUndefined();
    expect(bySymbol.get('AAPL')!.cost_basis).toBeUndefined();
    expect(bySymbol.get('VTI')).toMatchObject({ currency: 'USD', cost_basis: '2750.00', purchase_price: '220.00', shares: '12.5' });
    // The balance is the cash plus the positions' value.
    const holdingsCents = brokerage!.reduce((total, holding) => total + cents(holding.market_value), 0);
    expect(cents(v2.accounts[3]!.balance)).toBe(120_475 + holdingsCents);
    expect((await client.get({ version: 2, 'balances-only': 1 })).body!.accounts[3]!.holdings).toEqual(brokerage);

    fake.advanceClock(1);
    const tomorrow = new Map(fake.holdings(connectionId).map((holding) => [holding.symbol, holding]));
    expect(tomorrow.get('VMFXX')!.market_value).toBe('1520.37');
    expect(['VTI', 'AAPL', 'BTC'].some((symbol) => tomorrow.get(symbol)!.market_value !== bySymbol.get(symbol)!.market_value)).toBe(true);
  });

  it('sells a whole position into cash: gone from the holdings, the balance unchanged that moment', async () => {
    const { connectionId, client } = await connect({ brokerage: true });
    const before = (await client.get({ version: 2 })).body!.accounts[3]!;
    fake.sellPosition(connectionId, 'AAPL');
    const after = (await client.get({ version: 2 })).body!.accounts[3]!;
    expect((after.holdings as BridgeHolding[]).map((holding) => holding.symbol)).toEqual(['VTI', 'BTC', 'VMFXX']);
    expect(after.balance).toBe(before.balance);
    expect(() => fake.sellPosition(connectionId, 'AAPL')).toThrow('no AAPL');
  });
});

describe('windows', () => {
  it('answers transactions posted in [start-date, end-date), pending ones (by transaction time) only with pending=1', async () => {
    const { connectionId, client } = await connect();
    fake.addTransactions(connectionId, 3, { pending: true, account: 'card' });
    const posted = fake.currentTransactions(connectionId, { includePending: false }).filter((transaction) => transaction.posted > fake.now() - 40 * DAY);
    const start = posted[3]!.posted;
    const end = posted.at(-4)!.posted;
    const expected = posted.filter((transaction) => transaction.posted >= start && transaction.posted < end).map((transaction) => transaction.id);
    const answer = (await client.get({ version: 2, 'start-date': start, 'end-date': end })).body!;
    expect([...idsOf(answer)].sort()).toEqual([...expected].sort());
    expect(idsOf(answer).has(posted[3]!.id)).toBe(true);
    expect(idsOf(answer).has(posted.at(-4)!.id)).toBe(false);

    const pending = fake.currentTransactions(connectionId).filter((transaction) => transaction.pending);
    expect(pending.length).toBeGreaterThanOrEqual(3);
    const recent = { version: 2, 'start-date': fake.now() - 5 * DAY };
    expect(transactionsOf((await client.get(recent)).body!).some((transaction) => transaction.pending)).toBe(false);
    const withPending = transactionsOf((await client.get({ ...recent, pending: 1 })).body!).filter((transaction) => transaction.pending);
    expect(withPending.map((transaction) => transaction.id).sort()).toEqual(pending.map((transaction) => transaction.id).sort());
    expect(withPending.every((transaction) => transaction.posted === 0 && transaction.transacted_at! <= fake.now())).toBe(true);
  });

  it('caps a window of 90 days or more to its most recent 90 days with a gen.api warning, and advises from 45 days', async () => {
    const { client } = await connect();
    const now = fake.now();
    const year = (await client.get({ version: 2, 'start-date': now - 365 * DAY })).body!;
    expect(year.errlist).toEqual([{ code: 'gen.api', msg: WINDOW_CAPPED }]);
    const postedTimes = transactionsOf(year).map((transaction) => transaction.posted);
    expect(Math.min(...postedTimes)).toBeGreaterThanOrEqual(now - 90 * DAY);
    expect(Math.min(...postedTimes)).toBeLessThan(now - 80 * DAY);

    expect((await client.get({ version: 2, 'start-date': now - 60 * DAY })).body!.errlist).toEqual([{ code: 'gen.api', msg: WINDOW_ADVICE }]);
    expect((await client.get({ version: 2, 'start-date': now - 44 * DAY })).body!.errlist).toEqual([]);
    expect((await client.get({ 'start-date': now - 100 * DAY })).body!.errors).toEqual([WINDOW_CAPPED]);
  });

  it('reaches two years of history (over 1,000 transactions) by walking back in windows, each with the balance as of its end-date', async () => {
    const { connectionId, client } = await connect();
    const everything = fake.currentTransactions(connectionId, { includePending: false });
    expect(everything.length).toBeGreaterThanOrEqual(1_000);
    expect(fake.now() - everything[0]!.posted).toBeGreaterThan(700 * DAY);

    const seen = new Set<string>();
    let end = fake.now() + 1;
    for (let window = 0; window < 10; window++, end -= 80 * DAY) {
      const answer = (await client.get({ version: 2, 'start-date': end - 80 * DAY, 'end-date': end })).body!;
      for (const id of idsOf(answer)) seen.add(id);
      if (window === 3) {
        const checking = answer.accounts[0]!;
        const later = everything.filter((transaction) => transaction.account_id === checking.id && transaction.posted >= end);
        const current = cents(fake.accounts(connectionId)[0]!.balance);
        expect(checking['balance-date']).toBe(end);
        expect(cents(checking.balance)).toBe(current - later.reduce((sum, transaction) => sum + cents(transaction.amount), 0));
      }
    }
    expect([...seen].sort()).toEqual(everything.map((transaction) => transaction.id).sort());
  });
});

describe('a bank that evolves on the bridge clock', () => {
  it('posts pending card purchases under new ids, a tip changing the amount, with no link to the pending one', async () => {
    const { connectionId, client } = await connect();
    const added = fake.addTransactions(connectionId, 3, { pending: true, account: 'card' });
    expect(added.every((transaction) => transaction.pending && transaction.posted === 0)).toBe(true);
    const [tipped, ...others] = added;
    const window = { version: 2, pending: 1, 'start-date': fake.now() - 10 * DAY };
    const before = (await client.get(window)).body!;
    expect(added.every((transaction) => idsOf(before).has(transaction.id))).toBe(true);
    const availableBefore = cents(before.accounts[2]!['available-balance']);

    const withTip = decimal(cents(tipped!.amount) - 7_35);
    const posted = fake.postPending(connectionId, { transactionId: tipped!.id, amount: withTip });
    expect(posted.id).not.toBe(tipped!.id);
    expect(posted).toMatchObject({ amount: withTip, posted: fake.now(), transacted_at: tipped!.transacted_at });
    expect(posted).not.toHaveProperty('pending');
    const after = (await client.get(window)).body!;
    expect(idsOf(after).has(tipped!.id)).toBe(false);
    const settled = transactionsOf(after).find((transaction) => transaction.id === posted.id)!;
    expect(settled).toEqual(posted);
    expect(cents(after.accounts[2]!.balance)).toBe(cents(before.accounts[2]!.balance) + cents(posted.amount));
    expect(cents(after.accounts[2]!['available-balance'])).toBe(availableBefore - cents(tipped!.amount) + cents(posted.amount));

    fake.advanceClock(4);
    const later = (await client.get(window)).body!;
    const laterIds = idsOf(later);
    expect(others.every((transaction) => !laterIds.has(transaction.id))).toBe(true);
    const reposted = transactionsOf(later).filter((transaction) => !transaction.pending && transaction.transacted_at !== undefined && others.some((other) => other.transacted_at === transaction.transacted_at && other.payee === transaction.payee));
    expect(reposted).toHaveLength(others.length);
  });

  it('settles card purchases after 1 to 3 days under new ids, restaurants with a tip, the place added to the description', async () => {
    const { connectionId, client } = await connect();
    const added = fake.addTransactions(connectionId, 40, { pending: true, account: 'card' });
    const window = { version: 2, pending: 1, 'start-date': fake.now() - DAY };
    fake.advanceClock(1);
    const pendingAfterADay = transactionsOf((await client.get(window)).body!).filter((transaction) => transaction.pending);
    expect(pendingAfterADay.length).toBeGreaterThan(0);
    expect(pendingAfterADay.length).toBeLessThan(added.length);
    fake.advanceClock(3);
    const settled = transactionsOf((await client.get(window)).body!);
    const pairs = added.map((pending) => ({ pending, posted: settled.find((transaction) => transaction.transacted_at === pending.transacted_at)! }));
    expect(pairs.every(({ posted }) => posted !== undefined && !posted.pending && posted.posted > 0)).toBe(true);
    expect(pairs.every(({ pending, posted }) => posted.id !== pending.id && posted.payee === pending.payee)).toBe(true);
    const tipped = pairs.filter(({ pending, posted }) => posted.amount !== pending.amount);
    expect(tipped.length).toBeGreaterThan(0);
    expect(tipped.every(({ pending, posted }) => cents(posted.amount) < cents(pending.amount) && cents(posted.amount) >= Math.round(cents(pending.amount) * 1.23))).toBe(true);
    expect(pairs.some(({ pending, posted }) => posted.description !== pending.description && posted.description.startsWith(pending.description))).toBe(true);
  });

  it('brings new days of activity as the clock moves, and the balance date with them', async () => {
    const { connectionId, client } = await connect();
    const before = fake.currentTransactions(connectionId).length;
    fake.advanceClock(10);
    const answer = (await client.get({ version: 2, pending: 1, 'start-date': fake.now() - 10 * DAY })).body!;
    expect(fake.currentTransactions(connectionId).length).toBeGreaterThan(before + 5);
    expect(transactionsOf(answer).some((transaction) => transaction.posted > fake.now() - 10 * DAY)).toBe(true);
    expect(answer.accounts.every((account) => account['balance-date'] === fake.now())).toBe(true);
  });

  it('re-issues the ids of every transaction in a block of dates: same data, new ids', async () => {
    const { connectionId, client } = await connect();
    const window = { version: 2, 'start-date': fake.now() - 30 * DAY };
    const before = transactionsOf((await client.get(window)).body!);
    const from = new Date((fake.now() - 20 * DAY) * 1000).toISOString().slice(0, 10);
    const to = new Date((fake.now() - 15 * DAY) * 1000).toISOString().slice(0, 10);
    const reissued = fake.reissueIds(connectionId, { from, to });
    expect(reissued.length).toBeGreaterThan(2);
    const after = transactionsOf((await client.get(window)).body!);
    const afterById = new Map(after.map((transaction) => [transaction.id, transaction]));
    for (const { oldId, newId } of reissued) {
      expect(afterById.has(oldId)).toBe(false);
      expect(afterById.get(newId)).toEqual({ ...before.find((transaction) => transaction.id === oldId), id: newId });
    }
    const moved = new Set(reissued.map(({ oldId }) => oldId));
    expect(before.filter((transaction) => !moved.has(transaction.id)).every((transaction) => afterById.has(transaction.id))).toBe(true);
    expect(after).toHaveLength(before.length);
  });

  it('reports modified transactions as modified and drops removed ones, balances following', async () => {
    const { connectionId, client } = await connect();
    const window = { version: 2, 'start-date': fake.now() - 20 * DAY };
    const before = (await client.get(window)).body!;
    const [first, second] = before.accounts[0]!.transactions.filter((transaction) => cents(transaction.amount) < 0);
    fake.modifyTransaction(connectionId, first!.id, { amount: '-1.00', description: 'CORRECTED' });
    fake.removeTransaction(connectionId, second!.id);
    const after = (await client.get(window)).body!;
    expect(after.accounts[0]!.transactions.find((transaction) => transaction.id === first!.id)).toMatchObject({ amount: '-1.00', description: 'CORRECTED' });
    expect(idsOf(after).has(second!.id)).toBe(false);
    expect(cents(after.accounts[0]!.balance)).toBe(cents(before.accounts[0]!.balance) - cents(first!.amount) - 1_00 - cents(second!.amount));
  });

  it('generates the same data from the same seed and date', async () => {
    const twin = await startFakeSimplefin({ seed: 'determinism', today: '2026-03-10' });
    const other = await startFakeSimplefin({ seed: 'determinism', today: '2026-03-10' });
    try {
      const a = twin.currentTransactions(twin.createSetupToken().connectionId);
      const b = other.currentTransactions(other.createSetupToken().connectionId);
      expect(a).toEqual(b);
    } finally {
      await twin.stop();
      await other.stop();
    }
  });
});

describe('connection health', () => {
  it('reports a connection needing attention in errlist (con.auth, conn_id) and errors (v1), alongside the data', async () => {
    const { connectionId, client } = await connect();
    const error = fake.needsAttention(connectionId, 'card');
    const login = fake.accounts(connectionId).find((account) => account.key === 'card')!;
    expect(error).toEqual({ code: 'con.auth', msg: 'Connection to Meridian Card Services may need attention', conn_id: login.connId });
    const v2 = (await client.get({ version: 2 })).body!;
    expect(v2.errlist).toEqual([error]);
    expect(v2.accounts).toHaveLength(3);
    expect((await client.get()).body!.errors).toEqual(['Connection to Meridian Card Services may need attention']);
    fake.setErrors(connectionId, []);
    expect((await client.get({ version: 2 })).body!.errlist).toEqual([]);
  });

  it('answers 402 while the subscription is lapsed, 403 once access is revoked, and serves a new setup token for the same data', async () => {
    const { connectionId, client } = await connect();
    fake.lapseSubscription(connectionId);
    const lapsed = await client.get({ version: 2 });
    expect(lapsed.status).toBe(402);
    expect(lapsed.body!.accounts).toEqual([]);
    fake.renewSubscription(connectionId);
    expect((await client.get({ version: 2 })).status).toBe(200);

    fake.revoke(connectionId);
    expect((await client.get({ version: 2 })).status).toBe(403);
    const repaired = clientOf(await claim(fake.createSetupToken({ connectionId }).setupToken));
    const answer = await repaired.get({ version: 2 });
    expect(answer.status).toBe(200);
    expect(answer.body!.accounts.map((account) => account.id)).toEqual(fake.accounts(connectionId).map((account) => account.id));
    expect((await client.get({ version: 2 })).status).toBe(403);
  });
});

describe('the request budget', () => {
  it('warns past the daily budget, then disables the access token for good', async () => {
    const { connectionId, client } = await connect();
    fake.setBudget(3, { disableAfter: 5 });
    try {
      const statuses: number[] = [];
      const messages: string[][] = [];
      for (let i = 0; i < 7; i++) {
        const reply = await client.get({ version: 2, 'balances-only': 1 });
        statuses.push(reply.status);
        messages.push(reply.body!.errlist!.map((error) => error.msg));
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 403, 403]);
      expect(messages.slice(0, 3)).toEqual([[], [], []]);
      expect(messages[3]).toEqual([expect.stringMatching(/4 requests in the last 24 hours/)]);
      expect(messages[5]).toEqual(['Forbidden']);
      fake.advanceClock(1.5);
      expect((await client.get({ version: 2 })).status).toBe(403);
      const renewed = clientOf(await claim(fake.createSetupToken({ connectionId }).setupToken));
      expect((await renewed.get({ version: 2 })).status).toBe(200);
    } finally {
      fake.setBudget(24);
    }
  });

  it('can refuse with 429 and Retry-After instead, replenished over a rolling 24 hours of the bridge clock', async () => {
    const { client } = await connect();
    fake.setBudget(2, { onExceeded: 'reject-429' });
    try {
      expect((await client.get({ version: 2 })).status).toBe(200);
      fake.advanceClock(0.5);
      expect((await client.get({ version: 2 })).status).toBe(200);
      const refused = await client.get({ version: 2 });
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe(String(DAY / 2));
      fake.advanceClock(0.5);
      expect((await client.get({ version: 2 })).status).toBe(200);
      expect((await client.get({ version: 2 })).status).toBe(429);
    } finally {
      fake.setBudget(24, { onExceeded: 'warn-then-disable' });
    }
  });
});
