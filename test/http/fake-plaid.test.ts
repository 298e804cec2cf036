import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { AccountType, Configuration, CountryCode, InvestmentTransactionType, PlaidApi, Products, SandboxItemFireWebhookRequestWebhookCodeEnum, WebhookType, type RemovedTransaction, type Transaction } from 'plaid';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFakePlaid, type FakePlaid } from '../fakes/plaid/index.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

let fake: FakePlaid;
let plaid: PlaidApi;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
  fake = await startFakePlaid({ seed: 'fake-plaid-test', today: '2026-03-10', webhookCa: readFileSync(inject('tls').certFile) });
  plaid = clientFor(fake.secret);
});
afterAll(async () => {
  await fake?.stop();
  await receiver?.close();
});

function clientFor(secret: string) {
  return new PlaidApi(new Configuration({
    basePath: fake.url,
    baseOptions: { httpsAgent: new Agent({ ca: fake.ca }), headers: { 'PLAID-CLIENT-ID': fake.clientId, 'PLAID-SECRET': secret } },
  }));
}

/** The status and Plaid error body of a call expected to fail. */
async function failure(call: Promise<unknown>): Promise<{ status: number; data: Record<string, unknown> }> {
  try {
    await call;
  } catch (error) {
    const response = (error as { response?: { status: number; data: Record<string, unknown> } }).response;
    if (response) return response;
    throw error;
  }
  throw new Error('the call succeeded');
}

/** A raw POST, for bodies the SDK would never send. */
function post(path: string, body: unknown, headers: Record<string, string> = { 'Content-Type': 'application/json' }): Promise<{ status: number; data: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(`${fake.url}${path}`, { method: 'POST', headers, ca: fake.ca }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, data: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    outgoing.on('error', reject);
    outgoing.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

async function linkItem(options: { institutionId?: string; webhook?: string; products?: Products[] } = {}) {
  const { data: created } = await plaid.sandboxPublicTokenCreate({
    institution_id: options.institutionId ?? 'ins_109508',
    initial_products: options.products ?? [Products.Transactions],
    options: options.webhook ? { webhook: options.webhook } : {},
  });
  const { data } = await plaid.itemPublicTokenExchange({ public_token: created.public_token });
  return { accessToken: data.access_token, itemId: data.item_id };
}

interface Walk {
  added: Transaction[];
  modified: Transaction[];
  removed: RemovedTransaction[];
  cursor: string;
  pages: number;
}

/** Follows `has_more` from `cursor` to the end of the updates, as a client must. */
async function walk(accessToken: string, cursor: string | undefined, count?: number): Promise<Walk> {
  const result: Walk = { added: [], modified: [], removed: [], cursor: cursor ?? '', pages: 0 };
  for (;;) {
    const { data } = await plaid.transactionsSync({ access_token: accessToken, cursor: result.cursor || undefined, count });
    result.added.push(...data.added);
    result.modified.push(...data.modified);
    result.removed.push(...data.removed);
    result.cursor = data.next_cursor;
    result.pages++;
    if (!data.has_more) return result;
  }
}

const addDays = (isoDate: string, days: number) => new Date(Date.parse(isoDate) + days * 86_400_000).toISOString().slice(0, 10);

/** A client's copy of an Item's transactions, kept up to date from sync walks. */
function applyTo(local: Map<string, Transaction>, changes: Walk) {
  for (const transaction of [...changes.added, ...changes.modified]) local.set(transaction.transaction_id, transaction);
  for (const { transaction_id } of changes.removed) local.delete(transaction_id);
}

const sameTransactions = (local: Map<string, Transaction>, itemId: string) =>
  expect([...local.values()].map((t) => ({ ...t, original_description: null })).sort((a, b) => a.transaction_id.localeCompare(b.transaction_id)))
    .toEqual(fake.currentTransactions(itemId).sort((a, b) => a.transaction_id.localeCompare(b.transaction_id)));

describe('linking', () => {
  it('creates link tokens, including update mode for an existing Item', async () => {
    const { data } = await plaid.linkTokenCreate({ client_name: 'Tributary', language: 'en', country_codes: [CountryCode.Us], user: { client_user_id: 'user-1' }, products: [Products.Transactions], webhook: receiver.url });
    expect(data.link_token).toMatch(/^link-sandbox-/);
    expect(Date.parse(data.expiration)).toBeGreaterThan(Date.now());
    const { accessToken } = await linkItem();
    const update = await plaid.linkTokenCreate({ client_name: 'Tributary', language: 'en', country_codes: [CountryCode.Us], user: { client_user_id: 'user-1' }, access_token: accessToken });
    expect(update.data.link_token).toMatch(/^link-sandbox-/);
    const unknown = await failure(plaid.linkTokenCreate({ client_name: 'Tributary', language: 'en', country_codes: [CountryCode.Us], user: { client_user_id: 'user-1' }, access_token: 'access-sandbox-nope' }));
    expect(unknown.data).toMatchObject({ error_type: 'INVALID_INPUT', error_code: 'INVALID_ACCESS_TOKEN' });
    const noProducts = await failure(plaid.linkTokenCreate({ client_name: 'Tributary', language: 'en', country_codes: [CountryCode.Us], user: { client_user_id: 'user-1' } }));
    expect(noProducts.data).toMatchObject({ error_code: 'INVALID_FIELD' });
  });

  it('exchanges a sandbox public token once for an access token, with user_good/pass_good only', async () => {
    const { data: created } = await plaid.sandboxPublicTokenCreate({ institution_id: 'ins_109508', initial_products: [Products.Transactions] });
    const { data } = await plaid.itemPublicTokenExchange({ public_token: created.public_token });
    expect(data.access_token).toMatch(/^access-sandbox-/);
    expect(data.item_id).toHaveLength(37);
    expect((await failure(plaid.itemPublicTokenExchange({ public_token: created.public_token }))).data).toMatchObject({ error_code: 'INVALID_PUBLIC_TOKEN' });
    const wrongPassword = await failure(plaid.sandboxPublicTokenCreate({ institution_id: 'ins_109508', initial_products: [Products.Transactions], options: { override_username: 'user_good', override_password: 'pass_bad' } }));
    expect(wrongPassword).toMatchObject({ status: 400, data: { error_type: 'ITEM_ERROR', error_code: 'INVALID_CREDENTIALS' } });
    expect((await failure(plaid.sandboxPublicTokenCreate({ institution_id: 'ins_0', initial_products: [Products.Transactions] }))).data).toMatchObject({ error_code: 'INVALID_INSTITUTION' });
  });

  it("reports the Item's four accounts with Plaid's balance conventions", async () => {
    const { accessToken, itemId } = await linkItem();
    const { data } = await plaid.accountsGet({ access_token: accessToken });
    expect(data.item.item_id).toBe(itemId);
    expect(data.accounts.map((a) => `${a.type}/${a.subtype}`)).toEqual(['depository/checking', 'depository/savings', 'credit/credit card', 'loan/student']);
    const [checking, , credit, loan] = data.accounts;
    expect(checking!.balances).toMatchObject({ current: 2410.35, iso_currency_code: 'USD', limit: null });
    expect(credit!.balances).toMatchObject({ current: 1240.18, limit: 10000 });
    expect(credit!.balances.available).toBeLessThanOrEqual(10000 - 1240.18);
    expect(loan!.balances).toMatchObject({ current: 18520, available: null });
    const balances = await plaid.accountsBalanceGet({ access_token: accessToken, options: { account_ids: [checking!.account_id] } });
    expect(balances.data.accounts).toHaveLength(1);
    expect(balances.data.accounts[0]!.balances.last_updated_datetime).toEqual(expect.any(String));
  });
});

describe('transactions sync', () => {
  it('returns the whole history as added, in pages, then nothing new from the final cursor', async () => {
    const { accessToken, itemId } = await linkItem();
    const first = await walk(accessToken, undefined, 500);
    expect(first.pages).toBe(Math.ceil(2_200 / 500));
    expect(first.added).toHaveLength(2_200);
    expect(first.modified).toEqual([]);
    expect(first.removed).toEqual([]);
    const local = new Map(first.added.map((t) => [t.transaction_id, t]));
    sameTransactions(local, itemId);
    const dates = first.added.map((t) => t.date).sort();
    const twoYearsAgo = new Date(Date.parse(fake.today()) - 729 * 86_400_000).toISOString().slice(0, 10);
    expect([dates[0]! >= twoYearsAgo, dates[0]! < addDays(twoYearsAgo, 7), dates.at(-1)! <= fake.today()]).toEqual([true, true, true]);
    for (const transaction of first.added) expect(Math.round(transaction.amount * 100) / 100).toBe(transaction.amount);
    expect(first.added.some((t) => t.pending)).toBe(true);
    expect(first.added.find((t) => t.merchant_name === 'Walmart')).toMatchObject({ payment_channel: 'in store', personal_finance_category: { primary: 'GENERAL_MERCHANDISE' }, counterparties: [{ name: 'Walmart', type: 'merchant' }] });
    const again = await plaid.transactionsSync({ access_token: accessToken, cursor: first.cursor });
    expect(again.data).toMatchObject({ added: [], modified: [], removed: [], has_more: false, next_cursor: first.cursor, transactions_update_status: 'HISTORICAL_UPDATE_COMPLETE' });
  });

  it("reports with each page only its transactions' accounts, one /accounts/get leaves out included", async () => {
    const { accessToken, itemId } = await linkItem();
    const { cursor } = await walk(accessToken, undefined, 500);
    const unlisted = fake.openAccount(itemId, 'other', { listed: false });
    const [purchase] = await fake.addTransactions(itemId, 1, { account: 'other', notify: false });
    const { data } = await plaid.transactionsSync({ access_token: accessToken, cursor });
    expect(data.added.map((t) => t.account_id)).toEqual([unlisted]);
    expect(data.added[0]!.transaction_id).toBe(purchase!.transaction_id);
    expect(data.accounts.map((a) => a.account_id)).toEqual([unlisted]);
    expect(data.accounts[0]).toMatchObject({ type: 'other', subtype: 'other', mask: '5555' });
    expect((await plaid.accountsGet({ access_token: accessToken })).data.accounts.map((a) => a.account_id)).not.toContain(unlisted);
    expect((await failure(plaid.accountsBalanceGet({ access_token: accessToken, options: { account_ids: [unlisted] } }))).data).toMatchObject({ error_code: 'INVALID_ACCOUNT_ID' });
  });

  it('shows new days after the clock moves: new activity added, pending posted as removed + added', async () => {
    const { accessToken, itemId } = await linkItem({ webhook: receiver.url });
    const local = new Map<string, Transaction>();
    const initial = await walk(accessToken, undefined, 500);
    applyTo(local, initial);
    const pendingBefore = initial.added.filter((t) => t.pending).map((t) => t.transaction_id);
    const hooksBefore = receiver.received.length;

    await fake.advanceClock(6);
    const changes = await walk(accessToken, initial.cursor, 7);
    expect(changes.pages).toBeGreaterThan(1);
    expect(changes.added.length).toBeGreaterThan(0);
    expect(changes.removed.map((r) => r.transaction_id)).toEqual(expect.arrayContaining(pendingBefore));
    const posted = changes.added.find((t) => t.pending_transaction_id === pendingBefore[0]);
    expect(posted).toMatchObject({ pending: false });
    applyTo(local, changes);
    sameTransactions(local, itemId);
    const hooks = receiver.received.slice(hooksBefore).map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(hooks).toContainEqual(expect.objectContaining({ webhook_type: 'TRANSACTIONS', webhook_code: 'SYNC_UPDATES_AVAILABLE', item_id: itemId }));
  });

  it('reports a pending transaction posting under a new id, with a tip, across page boundaries', async () => {
    const { accessToken, itemId } = await linkItem();
    const local = new Map<string, Transaction>();
    const initial = await walk(accessToken, undefined, 500);
    applyTo(local, initial);
    const [pending] = await fake.addTransactions(itemId, 1, { pending: true });
    const afterAuth = await walk(accessToken, initial.cursor);
    expect(afterAuth.added).toEqual([expect.objectContaining({ transaction_id: pending!.transaction_id, pending: true })]);
    applyTo(local, afterAuth);

    const posted = await fake.postPending(itemId, { transactionId: pending!.transaction_id, amount: pending!.amount + 4.5 });
    const pages: Walk[] = [];
    let cursor = afterAuth.cursor;
    for (let more = true; more; ) {
      const { data } = await plaid.transactionsSync({ access_token: accessToken, cursor, count: 1 });
      pages.push({ added: data.added, modified: data.modified, removed: data.removed, cursor: data.next_cursor, pages: 1 });
      cursor = data.next_cursor;
      more = data.has_more;
    }
    expect(pages.map((p) => [p.removed.map((r) => r.transaction_id), p.added.map((t) => t.transaction_id)])).toEqual([[[pending!.transaction_id], []], [[], [posted.transaction_id]]]);
    expect(pages[1]!.added[0]).toMatchObject({ pending: false, pending_transaction_id: pending!.transaction_id, amount: Math.round((pending!.amount + 4.5) * 100) / 100 });
    for (const page of pages) applyTo(local, page);
    sameTransactions(local, itemId);
  });

  it('reports modifications and removals relative to a stored cursor, netting out what the client never saw', async () => {
    const { accessToken, itemId } = await linkItem();
    const local = new Map<string, Transaction>();
    const initial = await walk(accessToken, undefined, 500);
    applyTo(local, initial);
    const [victim, changed] = initial.added.filter((t) => !t.pending);
    await fake.modifyTransaction(itemId, changed!.transaction_id, { merchant_name: 'Renamed Merchant', amount: 12.34 });
    await fake.removeTransaction(itemId, victim!.transaction_id);
    const [fleeting] = await fake.addTransactions(itemId, 1, { pending: false });
    await fake.removeTransaction(itemId, fleeting!.transaction_id);

    const changes = await walk(accessToken, initial.cursor);
    expect(changes.modified).toEqual([expect.objectContaining({ transaction_id: changed!.transaction_id, merchant_name: 'Renamed Merchant', amount: 12.34 })]);
    expect(changes.removed).toEqual([{ transaction_id: victim!.transaction_id, account_id: victim!.account_id }]);
    expect(changes.added).toEqual([]);
    applyTo(local, changes);
    sameTransactions(local, itemId);
    const fromScratch = await walk(accessToken, undefined, 500);
    expect(fromScratch.added.find((t) => t.transaction_id === changed!.transaction_id)).toMatchObject({ merchant_name: 'Renamed Merchant' });
  });

  it('fails a page walk with TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION; restarting from the first cursor completes it', async () => {
    const { accessToken, itemId } = await linkItem();
    fake.injectMutationDuringPagination(itemId);
    const { data: firstPage } = await plaid.transactionsSync({ access_token: accessToken, count: 100 });
    expect(firstPage.has_more).toBe(true);
    const broken = await failure(plaid.transactionsSync({ access_token: accessToken, cursor: firstPage.next_cursor, count: 100 }));
    expect(broken).toMatchObject({ status: 400, data: { error_type: 'TRANSACTIONS_ERROR', error_code: 'TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION', request_id: expect.any(String) } });
    const restarted = await walk(accessToken, undefined, 100);
    expect(restarted.added).toHaveLength(2_201);
    sameTransactions(new Map(restarted.added.map((t) => [t.transaction_id, t])), itemId);
  });

  it('limits the history to days_requested, from the link token or the sandbox options', async () => {
    const { data: created } = await plaid.sandboxPublicTokenCreate({ institution_id: 'ins_109508', initial_products: [Products.Transactions], options: { transactions: { days_requested: 90 } } });
    const { data: item } = await plaid.itemPublicTokenExchange({ public_token: created.public_token });
    const history = fake.currentTransactions(item.item_id);
    expect(history).toHaveLength(Math.round((2_200 * 90) / 730));
    expect(history.every((t) => t.authorized_date! > addDays(fake.today(), -90))).toBe(true);

    const { data: link } = await plaid.linkTokenCreate({ client_name: 'Tributary', language: 'en', country_codes: [CountryCode.Us], user: { client_user_id: 'user-1' }, products: [Products.Transactions], transactions: { days_requested: 30 } });
    const { itemId } = await fake.completeLink(link.link_token);
    expect(fake.currentTransactions(itemId)).toHaveLength(Math.round((2_200 * 30) / 730));
  });

  it('answers NOT_READY with empty pages and an empty cursor', async () => {
    const { accessToken, itemId } = await linkItem();
    fake.setUpdateStatus(itemId, 'NOT_READY' as never);
    const { data } = await plaid.transactionsSync({ access_token: accessToken });
    expect(data).toMatchObject({ transactions_update_status: 'NOT_READY', added: [], next_cursor: '', has_more: false });
  });

  it('makes activity visible on /transactions/refresh when the clock moved without an update', async () => {
    const { accessToken } = await linkItem({ webhook: receiver.url });
    const initial = await walk(accessToken, undefined, 500);
    await fake.advanceClock(3, { update: false });
    expect((await walk(accessToken, initial.cursor)).added).toEqual([]);
    await plaid.transactionsRefresh({ access_token: accessToken });
    expect((await walk(accessToken, initial.cursor)).added.length).toBeGreaterThan(0);
  });
});

describe('item errors and repair', () => {
  it('puts an Item into ITEM_LOGIN_REQUIRED and repairs it through update mode', async () => {
    const { accessToken, itemId } = await linkItem({ webhook: receiver.url });
    const hooksBefore = receiver.received.length;
    await plaid.sandboxItemResetLogin({ access_token: accessToken });
    for (const call of [plaid.transactionsSync({ access_token: accessToken }), plaid.accountsGet({ access_token: accessToken }), plaid.authGet({ access_token: accessToken })]) {
      expect(await failure(call)).toMatchObject({ status: 400, data: { error_type: 'ITEM_ERROR', error_code: 'ITEM_LOGIN_REQUIRED' } });
    }
    expect((await plaid.itemGet({ access_token: accessToken })).data.item.error).toMatchObject({ error_code: 'ITEM_LOGIN_REQUIRED' });
    await fake.webhooksSettled();
    expect(receiver.received.slice(hooksBefore).map((r) => JSON.parse(r.body))).toContainEqual(expect.objectContaining({ webhook_type: 'ITEM', webhook_code: 'ERROR', item_id: itemId, error: expect.objectContaining({ error_code: 'ITEM_LOGIN_REQUIRED' }) }));

    const { data: link } = await plaid.linkTokenCreate({ client_name: 'Tributary', language: 'en', country_codes: [CountryCode.Us], user: { client_user_id: 'user-1' }, access_token: accessToken });
    await fake.completeLink(link.link_token);
    expect((await plaid.transactionsSync({ access_token: accessToken, count: 1 })).data.added).toHaveLength(1);
    expect((await plaid.itemGet({ access_token: accessToken })).data.item.error).toBeNull();
  });

  it('sends LOGIN_REPAIRED when the login is repaired outside update mode', async () => {
    const { itemId } = await linkItem({ webhook: receiver.url });
    await fake.resetLogin(itemId);
    await fake.repairLogin(itemId);
    expect(receiver.received.map((r) => JSON.parse(r.body))).toContainEqual(expect.objectContaining({ webhook_code: 'LOGIN_REPAIRED', item_id: itemId }));
  });

  it('answers planned failures once: 429 rate limit, 500 internal error, 400 institution down', async () => {
    const { accessToken } = await linkItem();
    fake.failNext('RATE_LIMIT_EXCEEDED', { endpoint: '/transactions/sync' });
    expect(await failure(plaid.transactionsSync({ access_token: accessToken }))).toMatchObject({ status: 429, data: { error_type: 'RATE_LIMIT_EXCEEDED', error_code: 'TRANSACTIONS_SYNC_LIMIT' } });
    expect((await plaid.transactionsSync({ access_token: accessToken, count: 1 })).status).toBe(200);
    fake.failNext('INTERNAL_SERVER_ERROR');
    expect(await failure(plaid.accountsGet({ access_token: accessToken }))).toMatchObject({ status: 500, data: { error_type: 'API_ERROR', error_code: 'INTERNAL_SERVER_ERROR' } });
    fake.failNext('INSTITUTION_DOWN', { times: 2 });
    for (let i = 0; i < 2; i++) expect(await failure(plaid.accountsGet({ access_token: accessToken }))).toMatchObject({ status: 400, data: { error_type: 'INSTITUTION_ERROR', error_code: 'INSTITUTION_DOWN' } });
    expect((await plaid.accountsGet({ access_token: accessToken })).status).toBe(200);
    fake.failNext('INVALID_REQUEST', { endpoint: '/auth/get' });
    const refused = await failure(plaid.authGet({ access_token: accessToken }));
    expect(refused).toMatchObject({ status: 400, data: { error_type: 'INVALID_REQUEST', error_code: 'INVALID_FIELD', request_id: expect.stringMatching(/^[A-Za-z0-9]{15}$/) } });
    expect(fake.requests.at(-1)).toMatchObject({ endpoint: '/auth/get', status: 400, errorCode: 'INVALID_FIELD', requestId: refused.data.request_id });
    expect((await plaid.authGet({ access_token: accessToken })).status).toBe(200);
  });

  it('removes an Item: later calls answer INVALID_ACCESS_TOKEN, and the request log shows the removal', async () => {
    const { accessToken, itemId } = await linkItem();
    await plaid.itemRemove({ access_token: accessToken });
    expect((await failure(plaid.accountsGet({ access_token: accessToken }))).data).toMatchObject({ error_type: 'INVALID_INPUT', error_code: 'INVALID_ACCESS_TOKEN' });
    expect(fake.requests.filter((r) => r.endpoint === '/item/remove' && r.itemId === itemId && r.status === 200)).toHaveLength(1);
    expect(JSON.stringify(fake.requests)).not.toContain(fake.secret);
    expect(JSON.stringify(fake.requests)).not.toContain(accessToken);
  });
});

describe('auth', () => {
  it('returns ACH numbers for depository accounts; a tokenized institution issues new numbers per link', async () => {
    const numbers = async (institutionId: string) => {
      const { accessToken } = await linkItem({ institutionId });
      return (await plaid.authGet({ access_token: accessToken })).data.numbers.ach;
    };
    const [plain, plainAgain, tokenized, tokenizedAgain] = [await numbers('ins_109508'), await numbers('ins_109508'), await numbers('ins_56'), await numbers('ins_56')];
    expect(plain).toHaveLength(2);
    expect(plain[0]).toMatchObject({ routing: '011401533', wire_routing: '021000021', is_tokenized_account_number: false, account: expect.stringMatching(/^\d{10}$/) });
    expect(plainAgain.map((n) => n.account)).toEqual(plain.map((n) => n.account));
    expect(tokenized[0]).toMatchObject({ is_tokenized_account_number: true });
    expect(tokenizedAgain.map((n) => n.account)).not.toEqual(tokenized.map((n) => n.account));
  });

  it('leaves out accounts that are not checking, savings or cash management; asked for one alone, answers NO_AUTH_ACCOUNTS', async () => {
    const { accessToken, itemId } = await linkItem();
    const other = fake.openAccount(itemId, 'other');
    expect((await plaid.accountsGet({ access_token: accessToken })).data.accounts.map((a) => a.account_id)).toContain(other);
    const { data } = await plaid.authGet({ access_token: accessToken });
    expect(data.numbers.ach.map((n) => n.account_id)).not.toContain(other);
    expect(data.numbers.ach).toHaveLength(2);
    const alone = await failure(plaid.authGet({ access_token: accessToken, options: { account_ids: [other] } }));
    expect(alone).toMatchObject({ status: 400, data: { error_type: 'ITEM_ERROR', error_code: 'NO_AUTH_ACCOUNTS' } });
  });

  it('reports balances a test sets, with their exact digits', async () => {
    const { accessToken, itemId } = await linkItem();
    fake.reportBalances(itemId, 'savings', { current: 23631.9805, available: null });
    const { data } = await plaid.accountsGet({ access_token: accessToken });
    expect(data.accounts[1]!.balances).toMatchObject({ current: 23631.9805, available: null, iso_currency_code: 'USD' });
  });
});

describe('webhooks', () => {
  /** Plaid's documented verification: ES256 JWT by the served key, at most five minutes old, over the body's SHA-256. */
  async function verify(body: string, jwt: string) {
    const { kid, alg } = decodeProtectedHeader(jwt);
    expect(alg).toBe('ES256');
    const { data } = await plaid.webhookVerificationKeyGet({ key_id: kid! });
    const { payload } = await jwtVerify(jwt, await importJWK(data.key, 'ES256'), { algorithms: ['ES256'], maxTokenAge: '5 min' });
    if (payload.request_body_sha256 !== createHash('sha256').update(body).digest('hex')) throw new Error('body hash mismatch');
    return data.key;
  }

  it('signs webhooks verifiably with the key served at /webhook_verification_key/get', async () => {
    const { accessToken, itemId } = await linkItem({ webhook: receiver.url });
    await plaid.sandboxItemFireWebhook({ access_token: accessToken, webhook_code: SandboxItemFireWebhookRequestWebhookCodeEnum.SyncUpdatesAvailable });
    await fake.webhooksSettled();
    const delivered = receiver.received.at(-1)!;
    expect(JSON.parse(delivered.body)).toEqual({ webhook_type: 'TRANSACTIONS', webhook_code: 'SYNC_UPDATES_AVAILABLE', item_id: itemId, initial_update_complete: true, historical_update_complete: true, environment: 'sandbox' });
    expect(delivered.body).toContain('\n  "webhook_type"');
    const key = await verify(delivered.body, delivered.headers['plaid-verification']!);
    expect(key).toMatchObject({ alg: 'ES256', kty: 'EC', crv: 'P-256', use: 'sig', expired_at: null, created_at: expect.any(Number) });
  });

  it('acknowledges a webhook URL change at the new URL', async () => {
    const { accessToken, itemId } = await linkItem({ webhook: 'https://127.0.0.1:9/unreachable' });
    const { data } = await plaid.itemWebhookUpdate({ access_token: accessToken, webhook: receiver.url });
    expect(data.item.webhook).toBe(receiver.url);
    await fake.webhooksSettled();
    expect(receiver.received.map((r) => JSON.parse(r.body))).toContainEqual(expect.objectContaining({ webhook_code: 'WEBHOOK_UPDATE_ACKNOWLEDGED', item_id: itemId, new_webhook_url: receiver.url }));
  });

  it('sends forged, stale and tampered webhooks that fail verification', async () => {
    const { itemId } = await linkItem({ webhook: receiver.url });
    for (const variant of ['forged', 'stale', 'tampered'] as const) {
      const delivery = await fake.fireWebhook(itemId, 'TRANSACTIONS', 'SYNC_UPDATES_AVAILABLE', {}, variant);
      expect(delivery.status).toBe(200);
      await expect(verify(delivery.body, delivery.headers['Plaid-Verification']!), variant).rejects.toThrow();
    }
  });

  it('keeps serving a rotated key with expired_at set; unknown key ids are refused', async () => {
    const { itemId } = await linkItem({ webhook: receiver.url });
    const before = await fake.fireWebhook(itemId, 'ITEM', 'NEW_ACCOUNTS_AVAILABLE');
    await fake.rotateWebhookKey();
    const oldKid = decodeProtectedHeader(before.headers['Plaid-Verification']!).kid!;
    expect((await plaid.webhookVerificationKeyGet({ key_id: oldKid })).data.key.expired_at).toEqual(expect.any(Number));
    const after = await fake.fireWebhook(itemId, 'ITEM', 'NEW_ACCOUNTS_AVAILABLE');
    expect(decodeProtectedHeader(after.headers['Plaid-Verification']!).kid).not.toBe(oldKid);
    expect((await failure(plaid.webhookVerificationKeyGet({ key_id: 'no-such-key' }))).data).toMatchObject({ error_code: 'INVALID_WEBHOOK_VERIFICATION_KEY_ID' });
  });
});

describe('investments and liabilities', () => {
  const everything = [Products.Transactions, Products.Investments, Products.Liabilities];
  const keys = () => ({ client_id: fake.clientId, secret: fake.secret });

  it('shares a brokerage and a mortgage only with an Item created with investments and liabilities', async () => {
    const plain = await linkItem();
    expect((await plaid.accountsGet({ access_token: plain.accessToken })).data.accounts.map((account) => account.subtype)).toEqual(['checking', 'savings', 'credit card', 'student']);
    expect((await failure(plaid.investmentsHoldingsGet({ access_token: plain.accessToken }))).data).toMatchObject({ error_type: 'ITEM_ERROR', error_code: 'NO_INVESTMENT_ACCOUNTS' });
    expect((await plaid.liabilitiesGet({ access_token: plain.accessToken })).data.liabilities.mortgage).toBeNull();

    const full = await linkItem({ products: everything });
    const { data } = await plaid.accountsGet({ access_token: full.accessToken });
    expect(data.accounts.map((account) => `${account.type}/${account.subtype}`)).toEqual(['depository/checking', 'depository/savings', 'credit/credit card', 'loan/student', 'investment/brokerage', 'loan/mortgage']);
  });

  it("reports holdings and their securities; the brokerage's balance is what they are worth, cash included", async () => {
    const { accessToken } = await linkItem({ products: everything });
    const { data } = await plaid.investmentsHoldingsGet({ access_token: accessToken });
    expect(data.accounts).toHaveLength(1);
    const [brokerage] = data.accounts;
    const cents = data.holdings.reduce((sum, holding) => sum + Math.round(holding.institution_value * 100), 0);
    expect(Math.round(brokerage!.balances.current! * 100)).toBe(cents);
    const cash = data.securities.find((security) => security.type === 'cash')!;
    expect(brokerage!.balances.available).toBe(data.holdings.find((holding) => holding.security_id === cash.security_id)!.institution_value);
    expect(new Set(data.holdings.map((holding) => holding.security_id))).toEqual(new Set(data.securities.map((security) => security.security_id)));
    expect(data.securities.map((security) => security.type).sort()).toEqual(['cash', 'cryptocurrency', 'cryptocurrency', 'equity', 'etf', 'fixed income', 'mutual fund']);
    expect(data.securities.some((security) => security.ticker_symbol === null && security.type === 'mutual fund')).toBe(true);
    const quantities = data.holdings.map((holding) => String(holding.quantity));
    expect(quantities).toContain('0.1234567891');
    expect(quantities).toContain('5e-7');
    const other = await linkItem({ products: everything });
    const otherSecurities = (await plaid.investmentsHoldingsGet({ access_token: other.accessToken })).data.securities;
    expect(otherSecurities.map((security) => security.security_id)).toEqual(data.securities.map((security) => security.security_id));
  });

  it('pages investment transactions by offset over a date window, newest first, with the securities each page names', async () => {
    const { accessToken, itemId } = await linkItem({ products: everything });
    const window = { start_date: '2024-03-11', end_date: '2026-03-10' };
    const expected = fake.investments(itemId).transactions.filter((transaction) => transaction.date >= window.start_date && transaction.date <= window.end_date);
    expect(expected.length).toBeGreaterThan(500);
    const seen = [];
    for (let offset = 0; offset < expected.length + 500 && seen.length < expected.length; offset += 500) {
      const { data } = await plaid.investmentsTransactionsGet({ access_token: accessToken, ...window, options: { count: 500, offset } });
      expect(data.total_investment_transactions).toBe(expected.length);
      const named = new Set(data.investment_transactions.map((transaction) => transaction.security_id).filter((id) => id !== null));
      expect(new Set(data.securities.map((security) => security.security_id))).toEqual(named);
      seen.push(...data.investment_transactions);
    }
    expect(seen).toEqual(expected);
    const types = new Set(seen.map((transaction) => `${transaction.type}/${transaction.subtype}`));
    for (const kind of ['buy/buy', 'sell/sell', 'fee/account fee', 'cash/interest', 'cash/deposit']) expect(types).toContain(kind);
    for (const sale of seen.filter((transaction) => transaction.type === InvestmentTransactionType.Sell)) expect(sale.quantity < 0 && sale.amount < 0).toBe(true);
    for (const buy of seen.filter((transaction) => transaction.type === InvestmentTransactionType.Buy)) expect(buy.quantity > 0 && buy.amount > 0).toBe(true);
    const { data: defaults } = await plaid.investmentsTransactionsGet({ access_token: accessToken, start_date: '2026-01-01', end_date: '2026-03-10' });
    expect(defaults.investment_transactions).toEqual(expected.filter((transaction) => transaction.date >= '2026-01-01').slice(0, 100));
  });

  it('refuses malformed investment transaction requests as Plaid does', async () => {
    const { accessToken } = await linkItem({ products: everything });
    const body = { ...keys(), access_token: accessToken, start_date: '2026-01-01', end_date: '2026-03-10' };
    expect((await post('/investments/transactions/get', { ...keys(), access_token: accessToken })).data).toMatchObject({ error_code: 'MISSING_FIELDS', error_message: 'the following required fields are missing: start_date, end_date' });
    expect((await post('/investments/transactions/get', { ...body, start_date: '2026-02-30' })).data).toMatchObject({ error_code: 'INVALID_FIELD', error_message: 'start_date must be a valid date in YYYY-MM-DD format' });
    expect((await post('/investments/transactions/get', { ...body, start_date: '2026-03-11' })).data).toMatchObject({ error_code: 'INVALID_FIELD' });
    expect((await post('/investments/transactions/get', { ...body, options: { count: 501 } })).data).toMatchObject({ error_code: 'INVALID_FIELD', error_message: 'options.count must be between 1 and 500' });
    expect((await post('/investments/transactions/get', { ...body, options: { page: 2 } })).data).toMatchObject({ error_code: 'UNKNOWN_FIELDS' });
    expect((await post('/investments/holdings/get', { ...keys(), access_token: accessToken, options: { account_ids: ['nope'] } })).data).toMatchObject({ error_code: 'INVALID_ACCOUNT_ID' });
    expect((await post('/liabilities/get', { ...keys(), access_token: accessToken, options: { account_ids: 'nope' } })).data).toMatchObject({ error_code: 'INVALID_FIELD' });
  });

  it("reports a card's APRs, the student loan and the mortgage, in Plaid's signs; account_ids narrows them", async () => {
    const { accessToken, itemId } = await linkItem({ products: everything });
    const { data } = await plaid.liabilitiesGet({ access_token: accessToken });
    const accounts = fake.accounts(itemId);
    const card = accounts.find((account) => account.type === AccountType.Credit)!;
    expect(data.liabilities.credit).toEqual([expect.objectContaining({ account_id: card.account_id, last_statement_balance: card.balances.current, minimum_payment_amount: 20 })]);
    expect(data.liabilities.credit![0]!.aprs.map((apr) => apr.apr_type)).toEqual(['purchase_apr', 'balance_transfer_apr', 'cash_apr']);
    expect(data.liabilities.student![0]).toMatchObject({ interest_rate_percentage: 5.25, origination_principal_amount: 25000 });
    expect(data.liabilities.mortgage![0]).toMatchObject({ interest_rate: { type: 'fixed', percentage: 3.99 }, next_monthly_payment: 3141.54 });
    expect(data.accounts.map((account) => account.type).sort()).toEqual(['credit', 'loan', 'loan']);
    const narrowed = await plaid.liabilitiesGet({ access_token: accessToken, options: { account_ids: [card.account_id] } });
    expect(narrowed.data.liabilities).toMatchObject({ credit: [expect.objectContaining({ account_id: card.account_id })], student: [], mortgage: [] });
  });

  it('announces changed holdings, new investment activity and new liability details with DEFAULT_UPDATE webhooks', async () => {
    const { accessToken, itemId } = await linkItem({ products: everything, webhook: receiver.url });
    const [first] = fake.investments(itemId).holdings;
    await fake.setHolding(itemId, first!.security_id, { quantity: 43.5, institution_value: 12041.24 });
    const [added] = await fake.addInvestmentTransactions(itemId, 1);
    await fake.updateLiability(itemId, 'credit', { is_overdue: true });
    await fake.webhooksSettled();
    const bodies = receiver.received.map((delivery) => JSON.parse(delivery.body)).filter((body) => body.item_id === itemId);
    expect(bodies.map((body) => `${body.webhook_type}:${body.webhook_code}`)).toEqual(['HOLDINGS:DEFAULT_UPDATE', 'INVESTMENTS_TRANSACTIONS:DEFAULT_UPDATE', 'LIABILITIES:DEFAULT_UPDATE']);
    expect((await plaid.investmentsHoldingsGet({ access_token: accessToken })).data.holdings[0]).toMatchObject({ quantity: 43.5, institution_value: 12041.24 });
    const { data } = await plaid.investmentsTransactionsGet({ access_token: accessToken, start_date: fake.today(), end_date: fake.today() });
    expect(data.investment_transactions.map((transaction) => transaction.investment_transaction_id)).toContain(added!.investment_transaction_id);
    expect((await plaid.liabilitiesGet({ access_token: accessToken })).data.liabilities.credit![0]!.is_overdue).toBe(true);

    await plaid.sandboxItemFireWebhook({ access_token: accessToken, webhook_type: WebhookType.Holdings, webhook_code: SandboxItemFireWebhookRequestWebhookCodeEnum.DefaultUpdate });
    const plain = await linkItem({ webhook: receiver.url });
    const refused = await failure(plaid.sandboxItemFireWebhook({ access_token: plain.accessToken, webhook_type: WebhookType.Holdings, webhook_code: SandboxItemFireWebhookRequestWebhookCodeEnum.DefaultUpdate }));
    expect(refused.data).toMatchObject({ error_code: 'SANDBOX_PRODUCT_NOT_ENABLED' });
  });
});

describe('strict requests', () => {
  const keys = () => ({ client_id: fake.clientId, secret: fake.secret });

  it('refuses unknown fields, missing fields and wrong types with Plaid’s INVALID_REQUEST errors', async () => {
    const { accessToken } = await linkItem();
    expect(await post('/transactions/sync', { ...keys(), access_token: accessToken, page: 2, options: { colour: 'red' } })).toMatchObject({
      status: 400,
      data: { error_type: 'INVALID_REQUEST', error_code: 'UNKNOWN_FIELDS', error_message: 'the following fields are not recognized by this endpoint: page, options.colour', display_message: null, request_id: expect.any(String) },
    });
    expect((await post('/transactions/sync', keys())).data).toMatchObject({ error_code: 'MISSING_FIELDS', error_message: 'the following required fields are missing: access_token' });
    expect((await post('/transactions/sync', { ...keys(), access_token: accessToken, count: '10' })).data).toMatchObject({ error_code: 'INVALID_FIELD', error_message: 'count must be an integer' });
    expect((await post('/transactions/sync', { ...keys(), access_token: accessToken, count: 501 })).data).toMatchObject({ error_code: 'INVALID_FIELD' });
    expect((await post('/sandbox/public_token/create', { ...keys(), institution_id: 'ins_109508', initial_products: ['bananas'] })).data).toMatchObject({ error_code: 'INVALID_FIELD' });
    expect((await post('/transactions/sync', '{"access_token":', { 'Content-Type': 'application/json' })).data).toMatchObject({ error_code: 'INVALID_BODY' });
    expect((await post('/transactions/nope', keys())).status).toBe(404);
  });

  it('requires client_id and secret (body or headers) and refuses wrong ones', async () => {
    const { accessToken } = await linkItem();
    expect((await post('/item/get', { access_token: accessToken })).data).toMatchObject({ error_code: 'MISSING_FIELDS', error_message: 'the following required fields are missing: client_id, secret' });
    expect((await post('/item/get', { ...keys(), access_token: accessToken })).status).toBe(200);
    expect(await failure(clientFor('wrong-secret').itemGet({ access_token: accessToken }))).toMatchObject({ status: 400, data: { error_type: 'INVALID_INPUT', error_code: 'INVALID_API_KEYS' } });
  });

  it('accepts the nulls the SDK sends for unset nullable fields', async () => {
    const { accessToken } = await linkItem();
    const { data } = await plaid.transactionsSync({ access_token: accessToken, count: 1, options: { include_original_description: null } });
    expect(data.added[0]!.original_description).toBeNull();
    const described = await plaid.transactionsSync({ access_token: accessToken, count: 1, options: { include_original_description: true } });
    expect(described.data.added[0]!.original_description).toBe(described.data.added[0]!.name);
  });
});

describe('data generation', () => {
  it('is deterministic for a seed and date, and honours the configured history size', async () => {
    const histories = [];
    for (let i = 0; i < 2; i++) {
      const other = await startFakePlaid({ seed: 'determinism', today: '2025-12-01', transactionCount: 300 });
      const client = new PlaidApi(new Configuration({ basePath: other.url, baseOptions: { httpsAgent: new Agent({ ca: other.ca }), headers: { 'PLAID-CLIENT-ID': other.clientId, 'PLAID-SECRET': other.secret } } }));
      const { data: created } = await client.sandboxPublicTokenCreate({ institution_id: 'ins_109508', initial_products: [Products.Transactions] });
      const { data: exchanged } = await client.itemPublicTokenExchange({ public_token: created.public_token });
      histories.push(other.currentTransactions(exchanged.item_id));
      await other.stop();
    }
    expect(histories[0]).toHaveLength(300);
    expect(histories[1]).toEqual(histories[0]);
  });
});
