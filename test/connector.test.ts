import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId } from '../src/lib/ids.ts';
import { launchChromium } from './support/browser.ts';
import { createProfile } from './support/factories.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { waitFor } from './support/wait.ts';

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

async function sessionFor(profileId: string): Promise<string> {
  const response = await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profileId } });
  expect(response.status).toBe(201);
  return response.body.token;
}

async function openConnector(fragment: string) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(`https://localhost:${app.service.port}/connector#${fragment}`);
  return { page, errors, close: () => context.close() };
}

async function connectionsOf(profileId: string) {
  return app.sql('select id, status from connection where profile_id = $1 order by id', [decodeId('profile', profileId)]);
}

describe('the hosted connect page', () => {
  it('lets an end-user pick a sandbox bank, sign in, and get a synced connection', async () => {
    const profile = await createProfile(app);
    const { page, errors, close } = await openConnector(`token=${await sessionFor(profile.id)}`);
    await page.getByRole('button', { name: /First Platypus Bank/ }).click();
    await page.getByLabel('Username').fill('user_good');
    await page.getByLabel('Password').fill('pass_good');
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByText(/First Platypus Bank is connected \(conn_/).waitFor();
    expect(errors).toEqual([]);
    await close();
    const synced = await waitFor(async () => {
      const [connection] = await connectionsOf(profile.id);
      return connection?.status === 'SYNCED' ? connection : undefined;
    }, 'the connection to sync');
    expect(synced).toBeDefined();
  });

  it('repairs a connection whose login failed', async () => {
    const profile = await createProfile(app);
    const token = await sessionFor(profile.id);
    const first = await openConnector(`token=${token}`);
    await first.page.getByRole('button', { name: /Tattersall/ }).click();
    await first.page.getByLabel('Username').fill('user_good');
    await first.page.getByLabel('Password').fill('wrong password');
    await first.page.getByRole('button', { name: 'Connect' }).click();
    const connectionId = (await first.page.getByText(/is connected/).textContent())!.match(/conn_[0-9a-z]{26}/)![0];
    await first.close();
    await waitFor(async () => ((await connectionsOf(profile.id))[0]?.status === 'ERROR_REPAIRABLE' ? true : undefined), 'the login to fail');

    const repair = await openConnector(`token=${token}&connection=${connectionId}`);
    await repair.page.getByLabel('Username').fill('user_good');
    await repair.page.getByLabel('Password').fill('pass_good');
    await repair.page.getByRole('button', { name: 'Connect' }).click();
    await repair.page.getByText(/is connected/).waitFor();
    await repair.close();
    await waitFor(async () => ((await connectionsOf(profile.id))[0]?.status === 'SYNCED' ? true : undefined), 'the repaired connection to sync');
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
      auth: await sessionFor(intruder.id),
      json: { username: 'user_good', password: 'pass_good' },
    });
    expect(response.status).toBe(404);
    expect((await app.http.post('/v1/connect/connections', { auth: app.apiKey, json: { institutionId: 'ins_houndstooth', username: 'a', password: 'b' } })).status).toBe(403);
  });
});
