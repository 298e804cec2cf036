import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { sweepConsents } from '../../src/modules/connection/consent-sweeper.ts';
import type { FakeEnableBanking } from '../fakes/enablebanking/index.ts';
import { launchChromium, openConnector as openConnectorAt } from '../support/browser.ts';
import { configureEnableBanking, startEnableBankingApp } from '../support/enablebanking-app.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { createProfile, sessionFor } from '../support/factories.ts';
import { syncJobsDone } from '../support/sync-jobs.ts';
import type { TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

/*
 * The connect page with Enable Banking, in headless Chromium: the end-user picks a country and a bank
 * of the fake, leaves for the fake's own sign-in page, approves (or cancels, or the bank fails), and
 * comes back to the page; the connection syncs and GraphQL shows what the bank holds.
 */

let app: TestApp;
let fake: FakeEnableBanking;
let browser: Browser;

beforeAll(async () => {
  ({ app, fake } = await startEnableBankingApp());
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await fake?.stop();
});

/** The connect page for the end-user of `token`; `connection` opens it in repair mode for that connection. */
function openConnector(token: string, connection?: string) {
  return openConnectorAt(browser, app.service.port, `token=${token}${connection ? `&connection=${connection}` : ''}`);
}

async function connectionsOf(profileId: string) {
  return app.sql('select id, status, institution_id, institution_name from connection where profile_id = $1 order by id', [decodeId('profile', profileId)]);
}

async function syncedConnections(profileId: string, count: number) {
  return waitFor(async () => {
    const rows = await connectionsOf(profileId);
    return rows.length === count && rows.every((row) => row.status === 'SYNCED') ? rows : undefined;
  }, `${count} synced connection(s)`, 60_000);
}

interface Account {
  name: string;
  kind: string;
  currencyCode: string;
  balance: Record<string, string | null>;
  connection: { institution: { name: string } };
}

interface Transaction {
  date: string;
  description: string;
  amount: string;
  status: string;
  currencyCode: string;
  remoteData: { enablebanking: Record<string, unknown> };
  account: { currencyCode: string };
}

const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true }).waitFor();

/** Picks the country, finds the bank by a fragment of its name, and leaves for the fake's sign-in page. */
async function goToBank(page: Page, country: string, fragment: string, bankName: string) {
  await heading(page, 'Pick your bank');
  await page.getByLabel('Country').selectOption({ label: country });
  await page.getByLabel('Search banks').fill(fragment);
  await waitFor(async () => ((await page.getByRole('listitem').allTextContents()).join('|') === `${bankName}${country}` ? true : undefined), `the list to narrow to ${bankName}`);
  await page.getByRole('button', { name: new RegExp(bankName) }).click();
  await heading(page, `Sign in at ${bankName}`);
  await page.getByRole('button', { name: 'Continue to your bank' }).click();
  await page.waitForURL(new RegExp(`^${fake.url}/bank/authorize\\?`));
  await heading(page, bankName);
}

/** The end-user connects `bankName` through the connect page and is told so. */
async function connectThroughPage(token: string, country: string, fragment: string, bankName: string) {
  const { page, errors, close } = await openConnector(token);
  await goToBank(page, country, fragment, bankName);
  await page.getByRole('button', { name: 'Approve' }).click();
  await heading(page, 'Connected');
  await page.getByText(`${bankName} is connected. Your accounts will appear in a moment.`).waitFor();
  expect(new URL(page.url()).hash).toBe('');
  expect(errors).toEqual([]);
  await close();
}

const ACCOUNTS = `{ accounts { name kind currencyCode balance { current available limit currencyCode } connection { institution { name } } } }`;
const TRANSACTIONS = `{ transactions(first: 50, sort: DATE_ASC) { count nodes { date description amount status currencyCode remoteData account { currencyCode } } } }`;

/**
 * A GraphQL query as the profile's end-user; its Decimals read as their exact JSON digits (source
 * text access, as a decimal-aware client parses them), never through a float.
 */
async function graphql<T>(token: string, query: string): Promise<T> {
  const response = await app.http.post('/v1/graphql', { auth: token, json: { query } });
  expect(response.status, response.text).toBe(200);
  const exact = (_key: string, value: unknown, context?: { source?: string }) => (typeof value === 'number' ? context!.source : value);
  const body = JSON.parse(response.text, exact as (key: string, value: unknown) => unknown) as { data: T; errors?: unknown };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

describe('the connect page with Enable Banking', () => {
  it('links a Finnish and a Swedish bank at their sign-in pages; GraphQL shows EUR and SEK accounts, pending and booked, exact', async () => {
    const profile = await createProfile(app);
    const token = await sessionFor(app, profile.id);
    await connectThroughPage(token, 'Finland', 'suomi', 'Fake Bank Suomi');
    await connectThroughPage(token, 'Sweden', 'sverige', 'Fake Bank Sverige');
    const connections = await syncedConnections(profile.id, 2);
    expect(connections.map((row) => [row.institution_name, row.institution_id.slice(0, 6)])).toEqual([
      ['Fake Bank Suomi', 'eb_FI_'],
      ['Fake Bank Sverige', 'eb_SE_'],
    ]);

    const { accounts } = await graphql<{ accounts: Account[] }>(token, ACCOUNTS);
    expect(accounts.map((account) => [account.connection.institution.name, account.name, account.kind, account.currencyCode, account.balance])).toEqual([
      ['Fake Bank Suomi', 'Current account', 'DEPOSITORY', 'EUR', { current: '4694.93', available: '4686.53', limit: null, currencyCode: 'EUR' }],
      ['Fake Bank Sverige', 'Current account', 'DEPOSITORY', 'SEK', { current: '43151', available: '43151', limit: null, currencyCode: 'SEK' }],
      ['Fake Bank Sverige', 'Kreditkort', 'CREDIT', 'SEK', { current: '-1043.75', available: '18956.25', limit: '-20000', currencyCode: 'SEK' }],
    ]);

    const { transactions } = await graphql<{ transactions: { count: string; nodes: Transaction[] } }>(token, TRANSACTIONS);
    expect(transactions.count).toBe('8');
    expect(transactions.nodes.map((node) => [node.description, node.amount, node.status, node.currencyCode, node.account.currencyCode])).toEqual([
      ['Salary', '3200', 'POSTED', 'EUR', 'EUR'],
      ['Rent', '-950', 'POSTED', 'EUR', 'EUR'],
      ['Lön', '28500', 'POSTED', 'SEK', 'SEK'],
      ['K-Market Kamppi', '-42.17', 'POSTED', 'EUR', 'EUR'],
      ['Spotify P1A2B3', '-12.9', 'POSTED', 'EUR', 'EUR'],
      ['ICA MAXI STOCKHOLM', '-349', 'POSTED', 'SEK', 'SEK'],
      ['AMAZON.COM SEATTLE', '-1043.75', 'POSTED', 'SEK', 'SEK'],
      ['CARD 1234 Cafe Regatta', '-8.4', 'PENDING', 'EUR', 'EUR'],
    ]);
    const [pending] = transactions.nodes.filter((node) => node.status === 'PENDING');
    expect(pending?.date).toBe(fake.today());
    // The card payment made in dollars: the bank's SEK amount, and what was paid in USD as the bank reported it.
    const card = transactions.nodes.find((node) => node.description === 'AMAZON.COM SEATTLE');
    expect(card?.remoteData.enablebanking).toMatchObject({
      transaction_amount: { amount: '1043.75', currency: 'SEK' },
      exchange_rate: { unit_currency: 'USD', exchange_rate: '10.5429', instructed_amount: { amount: '99.00', currency: 'USD' } },
    });
  });

  it('says so when the end-user cancels at the bank, connects nothing, and lets them try again', async () => {
    const profile = await createProfile(app);
    const { page, close } = await openConnector(await sessionFor(app, profile.id));
    await goToBank(page, 'Finland', 'suomi', 'Fake Bank Suomi');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await heading(page, 'Not connected');
    await page.getByText('You cancelled at your bank. Nothing was connected.').waitFor();
    expect(await connectionsOf(profile.id)).toEqual([]);

    await page.getByRole('button', { name: 'Try again' }).click();
    await goToBank(page, 'Finland', 'suomi', 'Fake Bank Suomi');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Fake Bank Suomi is connected. Your accounts will appear in a moment.').waitFor();
    await close();
    await syncedConnections(profile.id, 1);
  });

  it('says so when the bank reports an error, connecting nothing', async () => {
    const profile = await createProfile(app);
    const { page, close } = await openConnector(await sessionFor(app, profile.id));
    await goToBank(page, 'Sweden', 'sverige', 'Fake Bank Sverige');
    await page.getByRole('button', { name: 'Simulate a bank error' }).click();
    await heading(page, 'Not connected');
    await page.getByText('Your bank reported an error. Nothing was connected.').waitFor();
    expect(await page.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
    await close();
    expect(await connectionsOf(profile.id)).toEqual([]);
  });
});

describe('an Enable Banking application that does not allow the callback as a redirect URL', () => {
  it("tells the end-user connecting is unavailable because of the service's setup, connecting nothing", async () => {
    const environment = await createEnvironmentWithKey(app, 'PRODUCTION');
    await configureEnableBanking(app, environment.environmentId, fake.registerApplication(['https://elsewhere.test/v1/connect/callback']), fake.url);
    const profile = await createProfile(app, {}, environment.apiKey);
    const { page, close } = await openConnector(await sessionFor(app, profile.id, environment.apiKey));
    await heading(page, 'Pick your bank');
    await page.getByLabel('Country').selectOption({ label: 'Finland' });
    await page.getByLabel('Search banks').fill('suomi');
    await page.getByRole('button', { name: /Fake Bank Suomi/ }).click();
    await page.getByText("Connecting banks is unavailable right now because of a problem with this service's setup, not with your bank or your details. Nothing was connected; please try again later.").waitFor();
    await close();
    expect(await connectionsOf(profile.id)).toEqual([]);
  });
});

describe('a consent that expires at a bank that reissues account uids', () => {
  const DAY = 86_400_000;

  async function connectionRow(connectionId: string) {
    const [row] = await app.sql('select status, error_code, consent_expires_at, sync_cursor, refresh_presence_encrypted from connection where id = $1', [decodeId('connection', connectionId)]);
    return row;
  }

  async function accountsOf(connectionId: string) {
    return app.sql('select id, remote_id, currency_code, name_override, metadata from account where connection_id = $1 order by id', [decodeId('connection', connectionId)]);
  }

  async function transactionIds(connectionId: string) {
    return (await app.sql('select id, remote_id from transaction where connection_id = $1 order by id', [decodeId('connection', connectionId)])).map((row) => `${row.id} ${row.remote_id}`);
  }

  async function eventTypes(profileId: string) {
    return (await app.sql('select type from event where profile_id = $1 order by id', [decodeId('profile', profileId)])).map((row) => row.type as string);
  }

  it('is renewed at the bank from the connect page, keeping the connection, its accounts, their metadata and every transaction id', async () => {
    // Derived ids only (no entry_reference), identical twins, pending and booked, in EUR and USD; a consent of 5 days.
    const bank = fake.addBank('Fake Bank Nederland', 'NL', [{ key: 'current', currency: 'EUR', opening: '900.00' }, { key: 'dollars', currency: 'USD', opening: '300.00' }], {
      reissueUids: true,
      omitEntryReference: true,
      maximumConsentValidity: 5 * 86_400,
    });
    const day = (offset: number) => new Date(fake.now() + offset * DAY).toISOString().slice(0, 10);
    fake.addEntry(bank, 'current', { amount: '2100.00', direction: 'CRDT', counterpart: 'Werkgever BV', remittance: ['Salaris'], date: day(-12) });
    fake.addEntry(bank, 'current', { amount: '3.10', counterpart: 'Koffiebar', remittance: ['Koffie'], date: day(-4) });
    fake.addEntry(bank, 'current', { amount: '3.10', counterpart: 'Koffiebar', remittance: ['Koffie'], date: day(-4) });
    fake.addEntry(bank, 'current', { amount: '61.25', counterpart: 'Albert Heijn', status: 'PDNG' });
    fake.addEntry(bank, 'dollars', { amount: '19.99', counterpart: 'App Store', remittance: ['APPLE.COM/BILL'], date: day(-6) });
    const profile = await createProfile(app);
    const token = await sessionFor(app, profile.id);

    await connectThroughPage(token, 'Netherlands', 'nederland', 'Fake Bank Nederland');
    const [{ id: connectionUuid }] = await syncedConnections(profile.id, 1);
    const connectionId = encodeId('connection', connectionUuid);
    const [first] = fake.sessionsAt(bank);
    let row = await connectionRow(connectionId);
    expect(new Date(row.consent_expires_at).getTime()).toBe(first!.validUntil);
    // The first read came with the browser that came back from the bank: its PSU headers, then forgotten.
    const uids = fake.sessionAccounts(first!.id);
    const firstReads = fake.requests.filter((record) => record.path.startsWith(`/accounts/${uids.get('current')}/`));
    expect(firstReads.length).toBeGreaterThanOrEqual(3);
    expect(firstReads.every((record) => record.status === 200 && record.psu)).toBe(true);
    expect(firstReads[0]!.psuUserAgent).toMatch(/Chrome/);
    // The job forgets the presence after the sync's outcome commits, so after SYNCED shows.
    await syncJobsDone(app, connectionId);
    expect((await connectionRow(connectionId)).refresh_presence_encrypted).toBeNull();

    const accountsBefore = await accountsOf(connectionId);
    expect(accountsBefore.map((account) => account.currency_code).sort()).toEqual(['EUR', 'USD']);
    const transactionsBefore = await transactionIds(connectionId);
    expect(transactionsBefore).toHaveLength(5);
    const euros = accountsBefore.find((account) => account.currency_code === 'EUR');
    const update = await graphql<{ accountUpdate: { success: boolean } }>(
      token,
      `mutation { accountUpdate(input: { id: "${encodeId('account', euros.id)}", name: "Household", metadata: { budget: "groceries" } }) { success } }`,
    );
    expect(update.accountUpdate.success).toBe(true);

    // Five days left: the hourly sweep warns; then the bank's consent reaches its end and the next sync finds it so.
    await sweepConsents({ orm: app.orm, warningDays: 7 });
    fake.expireSession(first!.id);
    await app.service.connectionJobs.sync(connectionUuid);
    row = await waitFor(async () => {
      const current = await connectionRow(connectionId);
      return current.status === 'ERROR_REPAIRABLE' ? current : undefined;
    }, 'the expired consent to show', 60_000);
    expect(row.error_code).toBe('CONSENT_EXPIRED');
    expect(new Date(row.consent_expires_at).getTime()).toBeLessThanOrEqual(Date.now());
    const types = await eventTypes(profile.id);
    expect(types.filter((type) => type === 'connection.consent_expiring' || type.startsWith('connection.synced.errored'))).toEqual(['connection.consent_expiring', 'connection.synced.errored.ERROR_REPAIRABLE']);

    // The end-user renews from the connect page in repair mode: straight to the bank, approve.
    const { page, errors, close } = await openConnector(token, connectionId);
    await heading(page, 'Sign in to Fake Bank Nederland again');
    await page.getByRole('button', { name: 'Continue to your bank' }).click();
    await page.waitForURL(new RegExp(`^${fake.url}/bank/authorize\\?`));
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Fake Bank Nederland is connected. Your accounts will appear in a moment.').waitFor();
    expect(errors).toEqual([]);
    await close();
    row = await waitFor(async () => {
      const current = await connectionRow(connectionId);
      return current.status === 'SYNCED' ? current : undefined;
    }, 'the renewed connection to sync', 60_000);
    const [, second] = fake.sessionsAt(bank);
    expect(row.error_code).toBeNull();
    expect(new Date(row.consent_expires_at).getTime()).toBe(second!.validUntil);
    expect(fake.sessionStatus(first!.id)).toBe('CLOSED');

    // The same accounts under the bank's new uids (matched by IBAN), their metadata kept; every transaction id kept, none added.
    const accountsAfter = await accountsOf(connectionId);
    expect(accountsAfter.map((account) => account.id)).toEqual(accountsBefore.map((account) => account.id));
    const newUids = [...fake.sessionAccounts(second!.id).values()].sort();
    expect(accountsAfter.map((account) => account.remote_id).sort()).toEqual(newUids);
    expect(newUids.some((uid) => [...uids.values()].includes(uid))).toBe(false);
    expect(accountsAfter.find((account) => account.id === euros.id)).toMatchObject({ name_override: 'Household', metadata: { budget: 'groceries' } });
    expect(await transactionIds(connectionId)).toEqual(transactionsBefore);

    // The sync goes on: what the bank adds comes in beside the rest.
    fake.addEntry(bank, 'dollars', { amount: '4.99', counterpart: 'App Store', remittance: ['APPLE.COM/BILL'] });
    await app.service.connectionJobs.sync(connectionUuid);
    await waitFor(async () => ((await connectionRow(connectionId)).sync_cursor !== row.sync_cursor ? true : undefined), 'the next sync', 60_000);
    const transactionsLater = await transactionIds(connectionId);
    expect(transactionsLater.slice(0, transactionsBefore.length)).toEqual(transactionsBefore);
    expect(transactionsLater).toHaveLength(transactionsBefore.length + 1);
  });
});
