import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcile } from '../../src/modules/sync/window-reconciliation.ts';
import type { StoredTransaction } from '../../src/modules/transaction/transaction-sync.store.ts';
import { enableBankingFactory } from '../../src/providers/enablebanking/enablebanking-factory.ts';
import type { EnableBankingProvider } from '../../src/providers/enablebanking/enablebanking-provider.ts';
import type { LinkedLogin, LinkStart } from '../../src/providers/link-flow.ts';
import { LinkRefused, ProviderBusy, ProviderError, ProviderMisconfigured } from '../../src/providers/provider-errors.ts';
import { startFakeEnableBanking, type FakeBank, type FakeEnableBanking } from '../fakes/enablebanking/index.ts';
import { DAY_MS } from '../../src/lib/dates.ts';

/*
 * The Enable Banking adapter against the stateful fake over loopback HTTPS: linking through the
 * bank's sign-in page, window reads, paging, stable ids, pending → booked, the banks' limits, ended
 * consents and the application token's lifetime. Each test uses banks of its own: limits count per
 * account and day.
 */

const REDIRECT = 'https://tributary.test/v1/connect/callback';

let fake: FakeEnableBanking;
let caFile: string;
let application: { applicationId: string; privateKeyPem: string };
let banks = 0;

beforeAll(async () => {
  fake = await startFakeEnableBanking({ today: '2026-03-10', pageSize: 3 });
  caFile = join(tmpdir(), `fake-enablebanking-${process.pid}.pem`);
  writeFileSync(caFile, fake.ca);
  application = fake.registerApplication([REDIRECT]);
});
afterAll(async () => {
  await fake?.stop();
});

/** The adapter as the directory builds it from stored settings, on the fake's clock (or its own). */
function adapter(now: () => number = () => fake.now(), app = application): EnableBankingProvider {
  const factory = enableBankingFactory({ caFile, now });
  const parsed = factory.parseSettings({ applicationId: app.applicationId, privateKey: app.privateKeyPem, baseUrl: fake.url }, 'SANDBOX');
  if ('problem' in parsed) throw new Error(parsed.problem);
  return factory.create(parsed.settings) as EnableBankingProvider;
}

/** Searches the bank, starts the link, approves at the bank and completes it: the linked login. */
async function link(provider: EnableBankingProvider, bank: FakeBank, existingCredential?: string): Promise<LinkedLogin> {
  const [institution] = await provider.searchInstitutions({ country: bank.country, name: bank.name });
  const session = await provider.startLink({ profileId: 'prf', products: ['TRANSACTIONS'], webhookUrl: null, institutionId: institution!.id, redirectUrl: REDIRECT, state: 'state-1', existingCredential });
  if (session.kind !== 'REDIRECT') throw new Error('not a redirect');
  const back = await fake.atBank(session.url, 'approve');
  expect(back.searchParams.get('state')).toBe('state-1');
  return provider.completeLink({ authorizationCode: back.searchParams.get('code')!, products: undefined, webhookUrl: null, existingCredential });
}

function newBank(accounts: Parameters<FakeEnableBanking['addBank']>[2], behaviour: Parameters<FakeEnableBanking['addBank']>[3] = {}): FakeBank {
  return fake.addBank(`Test Bank ${++banks}`, 'DE', accounts, behaviour);
}

const sessionIdOf = (login: LinkedLogin) => (JSON.parse(login.credential) as { sessionId: string }).sessionId;
const daysAgo = (days: number) => new Date(fake.now() - days * DAY_MS).toISOString().slice(0, 10);

describe('linking', () => {
  it('finds banks by country and name, sends the end-user to the bank and turns the code into a session with its consent end', async () => {
    const provider = adapter();
    const found = await provider.searchInstitutions({ country: 'fi', name: 'suomi' });
    expect(found).toEqual([expect.objectContaining({ name: 'Fake Bank Suomi', countries: ['FI'], logoUrl: expect.stringMatching(/^https:\/\//), products: ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_OWNERS'] })]);
    expect(await provider.searchInstitutions({ country: 'SE', name: 'suomi' })).toEqual([]);
    const before = fake.requests.filter((record) => record.path === '/aspsps').length;
    await provider.searchInstitutions({ country: 'FI' });
    expect(fake.requests.filter((record) => record.path === '/aspsps').length).toBe(before);

    const login = await link(provider, fake.finland);
    expect(login.institution).toEqual({ id: found[0]!.id, name: 'Fake Bank Suomi' });
    expect(Date.parse(login.consentExpiresAt!) - fake.now()).toBe(180 * DAY_MS);
    expect(fake.sessionStatus(sessionIdOf(login))).toBe('AUTHORIZED');
  });

  it("asks for the bank's shorter consent when it allows less than 180 days", async () => {
    const bank = newBank([{ key: 'current', currency: 'EUR' }], { maximumConsentValidity: 90 * 86_400 });
    const login = await link(adapter(), bank);
    expect(Date.parse(login.consentExpiresAt!) - fake.now()).toBe(90 * DAY_MS);
  });

  it('refuses a link without a bank, redirect URL or state, an unknown bank, and a used code', async () => {
    const provider = adapter();
    const base: LinkStart = { profileId: 'prf', products: [], webhookUrl: null, redirectUrl: REDIRECT, state: 's' };
    await expect(provider.startLink(base)).rejects.toMatchObject({ reason: 'INVALID', field: 'institutionId' });
    const [institution] = await provider.searchInstitutions({ country: 'FI' });
    await expect(provider.startLink({ ...base, institutionId: institution!.id, state: undefined })).rejects.toMatchObject({ reason: 'INVALID', field: 'state' });
    await expect(provider.startLink({ ...base, institutionId: 'eb_FI_AAAAAAAAAAAAAAAA' })).rejects.toMatchObject({ reason: 'NOT_FOUND' });
    await expect(provider.completeLink({ products: undefined, webhookUrl: null })).rejects.toBeInstanceOf(LinkRefused);

    const session = await provider.startLink({ ...base, institutionId: institution!.id });
    const code = (await fake.atBank((session as { url: string }).url, 'approve')).searchParams.get('code')!;
    await provider.completeLink({ authorizationCode: code, products: undefined, webhookUrl: null });
    await expect(provider.completeLink({ authorizationCode: code, products: undefined, webhookUrl: null })).rejects.toMatchObject({ reason: 'INVALID', field: 'authorizationCode' });
  });

  it("a redirect URL the application does not allow is the operator's setting to fix, named for the log", async () => {
    const provider = adapter();
    const [institution] = await provider.searchInstitutions({ country: 'FI' });
    const refused = await provider.startLink({ profileId: 'prf', products: [], webhookUrl: null, institutionId: institution!.id, redirectUrl: 'https://elsewhere.test/v1/connect/callback', state: 's' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProviderMisconfigured);
    expect(refused).toMatchObject({ status: 'ERROR_SERVICE', setting: expect.stringContaining("add https://elsewhere.test/v1/connect/callback to the application's allowed redirect URLs") });
    expect(fake.requests.at(-1)).toMatchObject({ path: '/auth', status: 422, error: 'REDIRECT_URI_NOT_ALLOWED' });
  });

  it('a cancel at the bank comes back as access_denied with the state', async () => {
    const provider = adapter();
    const [institution] = await provider.searchInstitutions({ country: 'SE' });
    const session = await provider.startLink({ profileId: 'prf', products: [], webhookUrl: null, institutionId: institution!.id, redirectUrl: REDIRECT, state: 'xyz' });
    const back = await fake.atBank((session as { url: string }).url, 'cancel');
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', state: 'xyz' });
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('a repair gets a new session and deletes the old one; disconnect deletes the session', async () => {
    const provider = adapter();
    const bank = newBank([{ key: 'current', currency: 'EUR' }]);
    const first = await link(provider, bank);
    const second = await link(provider, bank, first.credential);
    expect(sessionIdOf(second)).not.toBe(sessionIdOf(first));
    expect(fake.sessionStatus(sessionIdOf(first))).toBe('CLOSED');
    await provider.disconnect(second.credential);
    expect(fake.sessionStatus(sessionIdOf(second))).toBe('CLOSED');
    await expect(provider.readWindow(second.credential, daysAgo(30))).rejects.toMatchObject({ status: 'ERROR_REPAIRABLE' });
  });
});

describe('reading a window', () => {
  it('reads accounts in SEK, a card with its limit, and a USD card payment with its original amount', async () => {
    const provider = adapter();
    const login = await link(provider, fake.sweden);
    const snapshot = await provider.readWindow(login.credential, daysAgo(30));
    expect(snapshot).toMatchObject({ start: daysAgo(30), end: fake.today(), attention: null });
    const uids = fake.sessionAccounts(sessionIdOf(login));
    const current = snapshot.accounts.find((account) => account.remoteId === uids.get('current'))!;
    const card = snapshot.accounts.find((account) => account.remoteId === uids.get('card'))!;
    expect(current).toMatchObject({ kind: 'DEPOSITORY', subtype: 'checking', currencyCode: 'SEK', name: 'Current account', identifier: expect.stringMatching(/^SE00\d{16}$/) });
    expect(current.balance).toMatchObject({ current: '43151.00', available: '43151.00', limit: null });
    expect(card).toMatchObject({ kind: 'CREDIT', name: 'Kreditkort', currencyCode: 'SEK' });
    expect(card.balance).toMatchObject({ current: '-1043.75', limit: '-20000.00' });
    expect(snapshot.accounts.map((account) => account.name)).not.toContain('Alex Example');

    const payment = snapshot.transactions.find((transaction) => transaction.accountRemoteId === card.remoteId)!;
    expect(payment).toMatchObject({ amount: '-1043.75', originalAmount: '-99.00', originalCurrencyCode: 'USD', status: 'POSTED', description: 'AMAZON.COM SEATTLE', date: daysAgo(2) });
    expect(payment.enrichment).toMatchObject({ counterpartyName: 'Amazon.com' });
    const salary = snapshot.transactions.find((transaction) => transaction.amount === '28500.00')!;
    expect(salary).toMatchObject({ accountRemoteId: current.remoteId, originalAmount: null, originalCurrencyCode: null, description: 'Lön' });
  });

  it('reads EUR with a pending card payment, and leaves out what the window does not cover', async () => {
    const provider = adapter();
    const login = await link(provider, fake.finland);
    const snapshot = await provider.readWindow(login.credential, daysAgo(10));
    expect(snapshot.accounts).toEqual([expect.objectContaining({ currencyCode: 'EUR' })]);
    expect(snapshot.transactions.map((transaction) => [transaction.amount, transaction.status])).toEqual([
      ['-42.17', 'POSTED'],
      ['-12.90', 'POSTED'],
      ['-8.40', 'PENDING'],
    ]);
  });

  it("reads a current account's overdraft as a negative limit, as a card's credit limit", async () => {
    const provider = adapter();
    const bank = newBank([{ key: 'current', currency: 'EUR', opening: '10.00', creditLimit: '1.23' }]);
    const login = await link(provider, bank);
    const [account] = (await provider.readWindow(login.credential, daysAgo(5))).accounts;
    expect(account).toMatchObject({ kind: 'DEPOSITORY', subtype: 'checking' });
    expect(account!.balance).toMatchObject({ current: '10.00', available: '11.23', limit: '-1.23' });
  });

  it('stores amounts as the reference allows them, and leaves out (listed, never rounded) what numeric(19,4) cannot hold', async () => {
    const provider = adapter();
    const bank = newBank([{ key: 'current', currency: 'EUR', opening: '100.00' }], { unattendedReadsPerDay: null });
    fake.addEntry(bank, 'current', { amount: '-12.50', counterpart: 'Signed debit', date: daysAgo(4) });
    fake.addEntry(bank, 'current', { amount: '7.250000', direction: 'CRDT', counterpart: 'Trailing zeros', date: daysAgo(3) });
    fake.addEntry(bank, 'current', { amount: '0.12345', direction: 'CRDT', counterpart: 'Five decimals', date: daysAgo(3) });
    fake.addEntry(bank, 'current', { amount: '5.00', currency: 'euro', counterpart: 'No ISO currency', date: daysAgo(2) });
    fake.addEntry(bank, 'current', { amount: '10.00', counterpart: 'Abroad', date: daysAgo(1), instructed: { amount: '11.123456', currency: 'USD', rate: '0.899' } });
    const login = await link(provider, bank);
    const uid = fake.sessionAccounts(sessionIdOf(login)).get('current')!;
    const snapshot = await provider.readWindow(login.credential, daysAgo(10));
    expect(snapshot.transactions.map((transaction) => [transaction.enrichment?.counterpartyName, transaction.amount, transaction.originalAmount])).toEqual([
      ['Signed debit', '-12.50', null],
      ['Trailing zeros', '7.25', null],
      ['Abroad', '-10.00', null],
    ]);
    // The balances carry the five decimals too: unknown rather than rounded.
    expect(snapshot.accounts[0]!.balance).toMatchObject({ current: null, available: null });
    expect(snapshot.unreadable).toEqual([
      { accountRemoteId: uid, what: 'BALANCE', reason: 'the amount has more than 4 fraction digits' },
      { accountRemoteId: uid, what: 'BALANCE', reason: 'the amount has more than 4 fraction digits' },
      { accountRemoteId: uid, what: 'TRANSACTION', reason: 'the amount has more than 4 fraction digits' },
      { accountRemoteId: uid, what: 'TRANSACTION', reason: 'the currency is not an ISO 4217 code' },
      { accountRemoteId: uid, what: 'ORIGINAL_AMOUNT', reason: 'the amount has more than 4 fraction digits' },
    ]);
  });

  it('follows continuation keys to the last page', async () => {
    const provider = adapter();
    const bank = newBank([{ key: 'current', currency: 'EUR' }]);
    for (let day = 1; day <= 8; day++) fake.addEntry(bank, 'current', { amount: `${day}.00`, counterpart: `Shop ${day}`, date: daysAgo(day) });
    const login = await link(provider, bank);
    const uid = fake.sessionAccounts(sessionIdOf(login)).get('current')!;
    const before = fake.requests.length;
    const snapshot = await provider.readWindow(login.credential, daysAgo(30));
    expect(snapshot.transactions.map((transaction) => transaction.amount).sort()).toEqual(['-1.00', '-2.00', '-3.00', '-4.00', '-5.00', '-6.00', '-7.00', '-8.00']);
    const pages = fake.requests.slice(before).filter((record) => record.path === `/accounts/${uid}/transactions`);
    expect(pages.map((record) => record.status)).toEqual([200, 200, 200]);
  });
});

describe('transaction ids', () => {
  it('entries without references (identical twins too) keep their ids across reads, shifted windows and a re-consent with new account uids', async () => {
    const provider = adapter();
    const bank = newBank([{ key: 'current', currency: 'EUR' }], { omitEntryReference: true, reissueUids: true, unattendedReadsPerDay: null });
    fake.addEntry(bank, 'current', { amount: '3.20', counterpart: 'Kiosk', remittance: ['Coffee'], date: daysAgo(3) });
    fake.addEntry(bank, 'current', { amount: '3.20', counterpart: 'Kiosk', remittance: ['Coffee'], date: daysAgo(3) });
    fake.addEntry(bank, 'current', { amount: '20.00', direction: 'CRDT', counterpart: 'Friend', remittance: ['Pizza'], date: daysAgo(12) });
    const login = await link(provider, bank);
    const first = await provider.readWindow(login.credential, daysAgo(30));
    const ids = first.transactions.map((transaction) => transaction.remoteId);
    expect(new Set(ids).size).toBe(3);
    expect((await provider.readWindow(login.credential, daysAgo(30))).transactions.map((transaction) => transaction.remoteId)).toEqual(ids);
    expect((await provider.readWindow(login.credential, daysAgo(5))).transactions.map((transaction) => transaction.remoteId)).toEqual(ids.slice(0, 2));

    const again = await link(provider, bank, login.credential);
    const reconsented = await provider.readWindow(again.credential, daysAgo(30));
    expect(reconsented.accounts[0]!.remoteId).not.toBe(first.accounts[0]!.remoteId);
    expect(reconsented.accounts[0]!.identifier).toBe(first.accounts[0]!.identifier);
    expect(reconsented.transactions.map((transaction) => transaction.remoteId)).toEqual(ids);
  });

  it('a pending entry that books under a new reference and another text takes over its pending row', async () => {
    const provider = adapter();
    const bank = newBank([{ key: 'current', currency: 'EUR' }], { bookedReference: 'new', unattendedReadsPerDay: null });
    const entry = fake.addEntry(bank, 'current', { amount: '64.90', counterpart: 'Stockmann', remittance: ['CARD 9876 RESERVATION'], status: 'PDNG' });
    const login = await link(provider, bank);
    const pending = (await provider.readWindow(login.credential, daysAgo(10))).transactions;
    expect(pending).toEqual([expect.objectContaining({ status: 'PENDING', amount: '-64.90' })]);

    fake.advance(2);
    fake.book(bank, entry, { remittance_information: ['Stockmann Helsinki Keskusta'] });
    const snapshot = await provider.readWindow(login.credential, daysAgo(10));
    expect(snapshot.transactions).toEqual([expect.objectContaining({ status: 'POSTED', pendingRemoteId: pending[0]!.remoteId, description: 'Stockmann Helsinki Keskusta' })]);
    expect(snapshot.transactions[0]!.remoteId).not.toBe(pending[0]!.remoteId);

    // The engine's reconciliation: the posted entry takes over the stored pending row, no duplicate.
    const stored: StoredTransaction = { ...pending[0]!, pendingRemoteId: null } as unknown as StoredTransaction;
    const page = reconcile([stored], snapshot, snapshot.end, 'cursor');
    expect(page.added).toEqual([expect.objectContaining({ remoteId: snapshot.transactions[0]!.remoteId, pendingRemoteId: pending[0]!.remoteId })]);
    expect(page.removed).toEqual([]);
  });
});

describe('limits and ended consents', () => {
  it("past four unattended reads a day the bank's 429 is ProviderBusy; reads with the end-user present still work", async () => {
    const provider = adapter();
    const bank = newBank([{ key: 'current', currency: 'EUR' }]);
    const login = await link(provider, bank);
    for (let read = 0; read < 4; read++) await provider.readWindow(login.credential, daysAgo(5));
    const busy = await provider.readWindow(login.credential, daysAgo(5)).catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(ProviderBusy);
    expect((busy as ProviderBusy).retryAfterSeconds).toBe(12 * 3600);
    const attended = await provider.readWindow(login.credential, daysAgo(5), { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (test)' });
    expect(attended.accounts).toHaveLength(1);
    fake.advance(1);
    await expect(provider.readWindow(login.credential, daysAgo(5))).resolves.toMatchObject({ accounts: [expect.anything()] });
  });

  it("sends the end-user's headers when they include every one the bank requires, and none otherwise", async () => {
    const provider = adapter();
    const bank = newBank([{ key: 'current', currency: 'EUR' }], { requiredPsuHeaders: ['Psu-Ip-Address', 'Psu-User-Agent', 'Psu-Accept-language'], unattendedReadsPerDay: 0 });
    const login = await link(provider, bank);
    const uid = fake.sessionAccounts(sessionIdOf(login)).get('current')!;
    const reads = () => fake.requests.filter((record) => record.path.startsWith(`/accounts/${uid}/`));
    const endUser = { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (test)', accept: 'text/html', acceptLanguage: 'fi-FI,fi;q=0.9', acceptEncoding: 'gzip', geoLocation: '60.1699,24.9384' };
    await provider.readWindow(login.credential, daysAgo(5), endUser);
    expect(reads().map((record) => [record.status, record.psu])).toEqual([[200, true], [200, true], [200, true]]);
    expect(reads()[0]!.psuHeaders).toEqual({
      'psu-ip-address': '203.0.113.7',
      'psu-user-agent': 'Mozilla/5.0 (test)',
      'psu-accept': 'text/html',
      'psu-accept-encoding': 'gzip',
      'psu-accept-language': 'fi-FI,fi;q=0.9',
      'psu-geo-location': '60.1699,24.9384',
    });

    // Without the language the bank wants, nothing is sent: an unattended read, which this bank refuses.
    const before = reads().length;
    await expect(provider.readWindow(login.credential, daysAgo(5), { ...endUser, acceptLanguage: null })).rejects.toBeInstanceOf(ProviderBusy);
    expect(reads().slice(before).map((record) => [record.status, record.psuHeaders])).toEqual([[429, {}]]);

    // A bank that wants the address only takes a presence without a user agent.
    const addressOnly = newBank([{ key: 'current', currency: 'EUR' }], { requiredPsuHeaders: ['Psu-Ip-Address'], unattendedReadsPerDay: 0 });
    // (A new adapter: this one keeps the country's list of banks from before the bank was added.)
    const fresh = adapter();
    const second = await link(fresh, addressOnly);
    await expect(fresh.readWindow(second.credential, daysAgo(5), { ipAddress: '203.0.113.7', userAgent: null })).resolves.toMatchObject({ accounts: [expect.anything()] });
  });

  it('an expired consent is ERROR_REPAIRABLE saying the consent ended', async () => {
    const provider = adapter();
    const bank = newBank([{ key: 'current', currency: 'EUR' }]);
    const login = await link(provider, bank);
    fake.expireSession(sessionIdOf(login));
    const error = await provider.readWindow(login.credential, daysAgo(5)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 'ERROR_REPAIRABLE', message: expect.stringContaining('consent') });
  });
});

describe('the application token', () => {
  it('is signed once, reused, and replaced before it ends', async () => {
    const app = fake.registerApplication([REDIRECT]);
    const provider = adapter(undefined, app);
    const before = fake.tokensSeen.size;
    await provider.searchInstitutions({ country: 'FI' });
    await provider.searchInstitutions({ country: 'SE' });
    expect(fake.tokensSeen.size - before).toBe(1);
    fake.advance(21 / 24);
    await provider.searchInstitutions({ country: 'DE' });
    expect(fake.tokensSeen.size - before).toBe(1);
    fake.advance(2 / 24);
    await provider.searchInstitutions({ country: 'XX' });
    expect(fake.tokensSeen.size - before).toBe(2);
  });

  it('one the bank no longer accepts (expired) is ERROR_SERVICE, not the end-user to repair', async () => {
    const app = fake.registerApplication([REDIRECT]);
    const frozen = fake.now();
    const provider = adapter(() => frozen, app);
    await provider.searchInstitutions({ country: 'FI' });
    fake.advance(1);
    await expect(provider.searchInstitutions({ country: 'EE' })).rejects.toMatchObject({ status: 'ERROR_SERVICE' });
  });
});
