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
  return app.sql('select id, status from connection where profile_id = $1 order by id', [decodeId('profile', profileId)]);
}

/** Waits until the profile's only connection is in `status`; returns it. */
async function connectionIn(profileId: string, status: string) {
  return waitFor(async () => {
    const rows = await connectionsOf(profileId);
    return rows.length === 1 && rows[0].status === status ? rows[0] : undefined;
  }, `the connection to be ${status}`);
}

async function signIn(page: Page, username: string, password: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Connect' }).click();
}

/** What Chromium logs for a request answered 422 (the page's own script logs nothing). */
const REFUSED_REQUEST = 'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)';

const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true }).waitFor();

describe('the hosted connect page', () => {
  it('lets an end-user pick a sandbox bank, sign in, and get a synced connection, the title following each step', async () => {
    const profile = await createProfile(app);
    const { page, errors, close } = await openConnector(`token=${await sessionFor(app, profile.id)}`);
    await heading(page, 'Pick your bank');
    await page.getByRole('button', { name: /First Platypus Bank/ }).click();
    await heading(page, 'Sign in to First Platypus Bank');
    await signIn(page, 'user_good', 'pass_good');
    await heading(page, 'Connected');
    await page.getByText('First Platypus Bank is connected. Your accounts will appear in a moment.').waitFor();
    expect(await page.locator('main').textContent()).not.toMatch(/conn_/);
    expect(errors).toEqual([]);
    await close();
    await connectionIn(profile.id, 'SYNCED');
  });

  it('shows the bank\'s rejection of a wrong password in place, makes no connection, and connects on a retry with the right one', async () => {
    const profile = await createProfile(app);
    const { page, errors, close } = await openConnector(`token=${await sessionFor(app, profile.id)}`);
    await page.getByRole('button', { name: /Tattersall/ }).click();
    await signIn(page, 'user_good', 'wrong password');
    await page.getByRole('alert').getByText('Tattersall Federal Credit Union refused the sign-in: the username or password is wrong').waitFor();
    await heading(page, 'Sign in to Tattersall Federal Credit Union');
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    expect(await connectionsOf(profile.id)).toEqual([]);

    await signIn(page, 'user_good', 'pass_good');
    await page.getByText('Tattersall Federal Credit Union is connected. Your accounts will appear in a moment.').waitFor();
    expect(errors).toEqual([REFUSED_REQUEST]);
    await close();
    await connectionIn(profile.id, 'SYNCED');
  });

  it('goes back from the sign-in to the bank list', async () => {
    const profile = await createProfile(app);
    const { page, close } = await openConnector(`token=${await sessionFor(app, profile.id)}`);
    await page.getByRole('button', { name: /Tattersall/ }).click();
    await heading(page, 'Sign in to Tattersall Federal Credit Union');
    await page.getByRole('button', { name: 'Back' }).click();
    await heading(page, 'Pick your bank');
    expect(await page.getByLabel('Username').isVisible()).toBe(false);
    await page.getByRole('button', { name: /Houndstooth/ }).click();
    await heading(page, 'Sign in to Houndstooth Bank');
    await signIn(page, 'user_good', 'pass_good');
    await page.getByText('Houndstooth Bank is connected. Your accounts will appear in a moment.').waitFor();
    await close();
    const [connection] = await app.sql('select institution_id from connection where profile_id = $1', [decodeId('profile', profile.id)]);
    expect(connection.institution_id).toBe('ins_houndstooth');
  });

  it('repairs a connection whose login stopped working, naming its bank, and leaves it as it was after a wrong password', async () => {
    const profile = await createProfile(app);
    const created = await app.http.post('/v1/sandbox/connections', {
      auth: app.apiKey,
      json: { profileId: profile.id, institutionId: 'ins_tattersall_fcu', username: 'user_bad_login', password: 'any' },
    });
    expect(created.status).toBe(201);
    await connectionIn(profile.id, 'ERROR_REPAIRABLE');

    const repair = await openConnector(`token=${await sessionFor(app, profile.id)}&connection=${created.body.id}`);
    await heading(repair.page, 'Sign in to Tattersall Federal Credit Union again');
    expect(await repair.page.getByRole('button', { name: 'Back' }).isVisible()).toBe(false);
    await signIn(repair.page, 'user_good', 'wrong password');
    await repair.page.getByRole('alert').getByText(/refused the sign-in/).waitFor();
    expect(await connectionsOf(profile.id)).toEqual([expect.objectContaining({ status: 'ERROR_REPAIRABLE' })]);
    await signIn(repair.page, 'user_good', 'pass_good');
    await repair.page.getByText('Tattersall Federal Credit Union is connected. Your accounts will appear in a moment.').waitFor();
    expect(repair.errors).toEqual([REFUSED_REQUEST]);
    await repair.close();
    await connectionIn(profile.id, 'SYNCED');
  });

  it('says what is wrong without a valid session token, and serves the page with a strict CSP', async () => {
    const missing = await openConnector('');
    await missing.page.getByText(/needs a session token/).waitFor();
    await missing.close();
    const invalid = await openConnector('token=not-a-token');
    await invalid.page.getByText(/not valid/).waitFor();
    await invalid.close();
    const response = await app.http.get('/connector');
    expect(response.status).toBe(200);
    expect(response.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'sha256-/);
  });

  it('acts only on the session profile: another profile\'s connection reads 404', async () => {
    const owner = await createProfile(app);
    const ownerConnection = await app.http.post('/v1/sandbox/connections', {
      auth: app.apiKey,
      json: { profileId: owner.id, institutionId: 'ins_houndstooth', username: 'user_good', password: 'pass_good' },
    });
    const intruder = await createProfile(app);
    const response = await app.http.post(`/v1/connect/connections/${ownerConnection.body.id}/reconnect`, {
      auth: await sessionFor(app, intruder.id),
      json: { username: 'user_good', password: 'pass_good' },
    });
    expect(response.status).toBe(404);
    expect((await app.http.post('/v1/connect/connections', { auth: app.apiKey, json: { institutionId: 'ins_houndstooth', username: 'a', password: 'b' } })).status).toBe(403);
  });
});
