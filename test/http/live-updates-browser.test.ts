import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { createProfile } from '../support/factories.ts';
import { livePageScript } from '../support/live-page/bundle.ts';
import type { LivePage } from '../support/live-page/entry.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

/** Apollo Client with graphql-ws in headless Chromium, through the front door. */
let app: TestApp;
let browser: Browser;
let script: string;

beforeAll(async () => {
  [app, browser, script] = await Promise.all([startTestApp(), launchChromium(), livePageScript()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const SYNCED = 'subscription { connectionSynced { status connection { id } } }';

async function sessionOf(profileId: string): Promise<string> {
  return (await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profileId } })).body.token as string;
}

const live = (page: Page) => page.evaluate(() => (globalThis as unknown as LivePage).live);

/** A blank page running the bundled Apollo Client, subscribed as `token`. */
async function subscribedPage(token: string): Promise<Page> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await page.setContent('<!doctype html><title>live</title>');
  await page.addScriptTag({ content: script });
  await page.evaluate(([url, authorization, query]) => (globalThis as unknown as LivePage).subscribeLive(url!, authorization!, query!), [`wss://localhost:${app.service.port}/v1/graphql`, `Bearer ${token}`, SYNCED]);
  await waitFor(async () => (await live(page)).ready || undefined, 'the page to be subscribed');
  return page;
}


it('Apollo Client in Chromium receives connectionSynced for its profile only, and is cut off when its token is revoked', { timeout: 60_000 }, async () => {
  const [profile, other] = [await createProfile(app), await createProfile(app)];
  const [token, otherToken] = [await sessionOf(profile.id), await sessionOf(other.id)];
  const [page, otherPage] = [await subscribedPage(token), await subscribedPage(otherToken)];
  const connect = (profileId: string) =>
    app.http.post('/v1/sandbox/connections', { auth: app.apiKey, json: { profileId, institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good' } });
  const connection = (await connect(profile.id)).body as { id: string };
  const mine = await waitFor(async () => ((await live(page)).results.length > 0 ? (await live(page)).results : undefined), 'connectionSynced in Chromium');
  expect(mine).toEqual([{ connectionSynced: { __typename: 'ConnectionEvent', status: 'SYNCED', connection: { __typename: 'Connection', id: connection.id } } }]);

  const theirs = (await connect(other.id)).body as { id: string };
  const received = await waitFor(async () => ((await live(otherPage)).results.length > 0 ? (await live(otherPage)).results : undefined), "the other profile's own event");
  expect(received).toEqual([{ connectionSynced: expect.objectContaining({ connection: { __typename: 'Connection', id: theirs.id } }) }]);

  expect((await app.http.delete('/v1/users/session', { auth: `Bearer ${token}` })).status).toBe(204);
  const closes = await waitFor(async () => ((await live(page)).closes.length > 0 ? (await live(page)).closes : undefined), 'the page to be cut off');
  expect(closes).toEqual([4401]);
  expect((await live(otherPage)).closes).toEqual([]);
});
