import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId } from '../../src/lib/ids.ts';
import { launchChromium, openConnector as openConnectorAt } from '../support/browser.ts';
import { createProfile, sessionFor } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const openConnector = (fragment: string) => openConnectorAt(browser, app.service.port, fragment);

async function connectionsOf(profileId: string) {
  return app.sql('select id, status, institution_id from connection where profile_id = $1 order by id', [decodeId('profile', profileId)]);
}

async function connectionIn(profileId: string, status: string) {
  return waitFor(async () => {
    const rows = await connectionsOf(profileId);
    return rows.length === 1 && rows[0].status === status ? rows[0] : undefined;
  }, `the connection to be ${status}`);
}

const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true }).waitFor();

/** Picks Germany, narrows the list to the German sandbox bank by name, and goes on to its sign-in page. */
async function goToTheGermanBank(page: Page) {
  await heading(page, 'Pick your bank');
  await page.getByLabel('Country').selectOption({ label: 'Germany' });
  await page.getByLabel('Search banks').fill('sverige');
  await page.getByText('No bank matches. Try another country or name.').waitFor();
  await page.getByLabel('Search banks').fill('deutsch');
  await waitFor(async () => ((await page.getByRole('listitem').allTextContents()).join('|') === 'Sandbox Bank DeutschlandGermany' ? true : undefined), 'the list to narrow to the German bank');
  await page.getByRole('button', { name: /Sandbox Bank Deutschland/ }).click();
  await heading(page, 'Sign in at Sandbox Bank Deutschland');
  await page.getByRole('button', { name: 'Continue to your bank' }).click();
  await page.waitForURL(/\/v1\/sandbox\/bank\?/);
  await heading(page, 'Sandbox Bank Deutschland');
}

describe('the connect page with a redirect bank', () => {
  it('lets the end-user pick a country, search, sign in at the bank, approve, and come back connected', async () => {
    const profile = await createProfile(app);
    const { page, errors, close } = await openConnector(`token=${await sessionFor(app, profile.id)}`);
    await goToTheGermanBank(page);
    await page.getByRole('link', { name: 'Approve' }).click();
    await heading(page, 'Connected');
    await page.getByText('Sandbox Bank Deutschland is connected. Your accounts will appear in a moment.').waitFor();
    expect(new URL(page.url()).hash).toBe('');
    expect(await page.evaluate(() => sessionStorage.getItem('tributary.token'))).toBeNull();
    expect(errors).toEqual([]);
    await close();
    expect((await connectionIn(profile.id, 'SYNCED')).institution_id).toBe('ins_sandbox_bank_de');
  });

  it('says so when the end-user cancels at the bank, connects nothing, and lets them try again', async () => {
    const profile = await createProfile(app);
    const { page, close } = await openConnector(`token=${await sessionFor(app, profile.id)}`);
    await goToTheGermanBank(page);
    await page.getByRole('link', { name: 'Cancel' }).click();
    await heading(page, 'Not connected');
    await page.getByText('You cancelled at your bank. Nothing was connected.').waitFor();
    expect(await connectionsOf(profile.id)).toEqual([]);

    await page.getByRole('button', { name: 'Try again' }).click();
    await goToTheGermanBank(page);
    await page.getByRole('link', { name: 'Approve' }).click();
    await page.getByText('Sandbox Bank Deutschland is connected. Your accounts will appear in a moment.').waitFor();
    await close();
    await connectionIn(profile.id, 'SYNCED');
  });

  it('shows a bank error, and a reload of the way back as expired, connecting nothing', async () => {
    const profile = await createProfile(app);
    const { page, close } = await openConnector(`token=${await sessionFor(app, profile.id)}`);
    await goToTheGermanBank(page);
    const bankError = await page.getByRole('link', { name: 'Bank error' }).getAttribute('href');
    await page.getByRole('link', { name: 'Bank error' }).click();
    await page.getByText('Your bank reported an error. Nothing was connected.').waitFor();
    await page.goto(`https://localhost:${app.service.port}${bankError!}`);
    await page.getByText('This sign-in expired or was used already. Nothing was connected.').waitFor();
    expect(await page.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
    await close();
    expect(await connectionsOf(profile.id)).toEqual([]);
  });

  it('repairs a redirect bank\'s connection by going straight to its bank', async () => {
    const profile = await createProfile(app);
    const created = await app.http.post('/v1/sandbox/connections', {
      auth: app.apiKey,
      json: { profileId: profile.id, institutionId: 'ins_sandbox_bank_se', username: 'user_bad_login', password: 'any' },
    });
    await connectionIn(profile.id, 'ERROR_REPAIRABLE');
    const { page, close } = await openConnector(`token=${await sessionFor(app, profile.id)}&connection=${created.body.id}`);
    await heading(page, 'Sign in to Sandbox Bank Sverige again');
    expect(await page.getByRole('button', { name: 'Back' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Continue to your bank' }).click();
    await page.getByRole('link', { name: 'Approve' }).click();
    await page.getByText('Sandbox Bank Sverige is connected. Your accounts will appear in a moment.').waitFor();
    await close();
    await connectionIn(profile.id, 'SYNCED');
  });
});
