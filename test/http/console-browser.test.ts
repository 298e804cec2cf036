import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { launchChromium } from '../support/browser.ts';
import { asOperator, signIn } from '../support/console.ts';
import { createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/**
 * The operator console in Chromium over HTTPS, on a real service and PostgreSQL: one browser for
 * the file, one signed-in page per operator, reused from test to test. Screenshots go to
 * CONSOLE_SCREENSHOTS (docs/images to refresh the README's), else to a temporary folder.
 */
let app: TestApp;
let browser: Browser;
let environmentId: string;
/** The service's clock: moved past a TOTP window by the sign-in test, never slept through. */
let offsetMs = 0;
const screenshots = process.env.CONSOLE_SCREENSHOTS ?? mkdtempSync(path.join(tmpdir(), 'tributary-console-'));

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp({ WEBHOOK_CA_FILE: inject('tls').certFile }, { now: () => new Date(Date.now() + offsetMs) }), launchChromium()]);
  environmentId = encodeId('environment', app.environmentId);
  mkdirSync(screenshots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

interface Opened {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors, CSP violations, and requests to any other origin. */
  problems: string[];
}

/** How long the page may take to show what a poll waits for (the delivery log refreshes every 3 s). */
const EVENTUALLY = { timeout: 15_000 };

const origin = () => `https://localhost:${app.service.port}`;

async function openConsole(hash = '', viewport = { width: 1280, height: 860 }): Promise<Opened> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (request) => !request.url().startsWith(`${origin()}/`) && !request.url().startsWith('data:') && problems.push(`offsite ${request.url()}`));
  await page.exposeFunction('reportViolation', (text: string) => problems.push(text));
  await page.addInitScript({ content: "document.addEventListener('securitypolicyviolation', (event) => reportViolation(`CSP ${event.violatedDirective} ${event.blockedURI}`));" });
  await page.goto(`${origin()}/console${hash}`);
  return { context, page, problems };
}

/** An operator with `role` in the bootstrap environment, made by the first operator through the contract. */
async function newOperator(role: 'DEVELOPER' | 'VIEWER') {
  const owner = app.service.firstOperator!;
  const session = await signIn(app, owner.email, owner.password);
  const email = `${role.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.com`;
  const created = await app.http.post('/v1/operators', asOperator(session, environmentId, { json: { email, role } }));
  expect(created.status).toBe(201);
  return { email, password: created.body.password as string };
}

/** Signs in through the page's form, with the keyboard (Enter submits), and waits for the signed-in header. */
async function signInOnPage(page: Page, email: string, password: string, totpCode?: () => string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
  if (totpCode) {
    await page.getByText('Enter the six-digit code').waitFor();
    await page.getByLabel('Code from your authenticator app').fill(totpCode());
    await page.keyboard.press('Enter');
  }
  await page.getByText(email).waitFor();
}

let developer: Opened;

it('serves the console at /console under a strict CSP, never cached, and its hashed assets for a year', async () => {
  const page = await app.http.get('/console');
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.headers['cache-control']).toBe('no-store');
  expect(page.headers['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'; style-src 'self'; .*frame-ancestors 'none'$/);
  expect(page.headers['content-security-policy']).not.toMatch(/unsafe|https?:/);
  const assets = [...page.text.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map(([, url]) => url!);
  expect(assets).toEqual([expect.stringMatching(/^\/console\/assets\/console-[0-9a-f]{16}\.css$/), expect.stringMatching(/^\/console\/assets\/console-[0-9a-f]{8}\.js$/)]);
  for (const url of assets) {
    const asset = await app.http.get(url);
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await app.http.get(url, { headers: { 'If-None-Match': asset.headers.etag! } })).status).toBe(304);
  }
  expect((await app.http.get('/console/assets/console-0000000000000000.js')).status).toBe(404);
});

it('signs an operator in with password and TOTP, with nothing inline, offsite or refused by the CSP', async () => {
  const { email, password } = await newOperator('DEVELOPER');
  const session = await signIn(app, email, password);
  const enrolment = await app.http.post('/v1/console/totp', asOperator(session));
  expect(enrolment.status).toBe(201);
  const totp = new TOTP({ secret: Secret.fromBase32(enrolment.body.secret) });
  expect((await app.http.post('/v1/console/totp/confirm', asOperator(session, undefined, { json: { code: totp.generate() } }))).status).toBe(200);
  // The next code, at the service's next window: the one just confirmed cannot sign in again.
  offsetMs = 30_000;
  developer = await openConsole();
  const { page, problems } = developer;
  await page.getByRole('heading', { name: 'Sign in to Tributary' }).waitFor();
  const refused = page.waitForResponse((response) => response.url().endsWith('/v1/console/sign-in') && response.status() === 401);
  await signInOnPage(page, email, password, () => totp.generate({ timestamp: Date.now() + offsetMs }));
  expect((await (await refused).json()).code).toBe('TOTP_REQUIRED');
  await page.locator('header').getByText(`${email} · developer`).waitFor();
  expect((await page.context().cookies()).map((cookie) => [cookie.name, cookie.httpOnly, cookie.sameSite])).toEqual([['__Secure-tributary-operator', true, 'Strict']]);
  expect(problems).toEqual([]);
});

it('finds a profile whose connection fails, and reads its error and sync history', async () => {
  const crm = `crm-${Date.now()}`;
  const profile = await createProfile(app, { metadata: { crm } });
  const linked = await app.http.post('/v1/sandbox/connections', { auth: app.apiKey, json: { profileId: profile.id, institutionId: 'ins_houndstooth', username: 'user_institution_down', password: 'any' } });
  expect(linked.status).toBe(201);
  await waitFor(async () => ((await app.sql('select count(*)::int as n from connection_sync where connection_id = $1', [decodeId('connection', linked.body.id)]))[0].n > 0 ? true : undefined), 'the failed first sync');
  const { page } = developer;
  await page.getByRole('navigation').getByRole('link', { name: 'Profiles' }).click();
  await page.getByLabel(/Find by id, uuid or metadata/).fill(`crm=${crm}`);
  await page.getByLabel(/Find by id, uuid or metadata/).press('Enter');
  await page.getByRole('link', { name: profile.id }).click();
  const row = page.getByRole('row', { name: /Houndstooth/ });
  await expect.poll(() => row.innerText(), EVENTUALLY).toContain('ERROR_INSTITUTION');
  await row.getByRole('link').click();
  const error = await expect.poll(() => page.getByTestId('connection-error').textContent(), EVENTUALLY).not.toBe('—').then(() => page.getByTestId('connection-error').textContent());
  const [sync] = (await app.http.get(`/v1/connections/${linked.body.id}/syncs`, { auth: app.apiKey })).body;
  expect(error).toBe(sync.errorMessage);
  const history = page.getByRole('region', { name: 'Sync runs, newest first' });
  await expect.poll(() => history.getByRole('row').count(), EVENTUALLY).toBe(2);
  expect(await history.getByRole('row').nth(1).innerText()).toMatch(/LINK\s+FAILED\s+ERROR_INSTITUTION\s+/);
  await page.screenshot({ path: path.join(screenshots, 'console-connection.png'), fullPage: true });
});

it('redelivers a failed webhook and shows the new attempt succeed', async () => {
  // 410 Gone: the delivery fails for good, no retry follows (and the subscription is disabled), so the only next attempt is the redelivery.
  let failing = true;
  const receiver = await startReceiver(() => (failing ? { status: 410, body: 'moved away' } : { status: 200, body: 'thanks' }));
  try {
    const subscription = await app.http.post('/v1/webhooks/subscriptions', { auth: app.apiKey, json: { name: 'Ledger sync', targetUrl: receiver.url, eventTypes: ['profile.created'] } });
    expect(subscription.status).toBe(201);
    await createProfile(app);
    await waitFor(async () => (receiver.received.length > 0 ? true : undefined), 'the first attempt');
    const { page } = developer;
    await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: 'Ledger sync' }).click();
    const log = page.getByRole('region', { name: 'Attempts by event' });
    await expect.poll(() => log.getByRole('row').nth(1).innerText(), EVENTUALLY).toMatch(/\s1\s.*\sFAILED\s+410\s/);
    await expect.poll(() => page.getByRole('definition').filter({ hasText: 'DISABLED' }).count(), EVENTUALLY).toBe(1);
    failing = false;
    const redelivered = page.waitForResponse((response) => response.url().includes('/redeliver'));
    await log.getByRole('button', { name: 'Redeliver' }).click();
    expect((await redelivered).status()).toBe(202);
    await expect.poll(() => log.getByRole('row').nth(1).innerText(), EVENTUALLY).toMatch(/\s2\s.*\sSUCCEEDED\s+200\s/);
    expect(await log.getByRole('row').nth(2).innerText()).toMatch(/^1\s.*\sFAILED\s+410\s/);
    expect(receiver.received).toHaveLength(2);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();
    expect((await app.http.get(`/v1/webhooks/subscriptions/${subscription.body.id}`, { auth: app.apiKey })).body.disabled).toBe(false);
    await page.screenshot({ path: path.join(screenshots, 'console-delivery-log.png'), fullPage: true });
  } finally {
    await receiver.close();
  }
});

it('sends a test event and redelivers the failed range, by keyboard, and shows the attempts and the reachability', async () => {
  let failing = true;
  const receiver = await startReceiver(() => (failing ? { status: 500, body: 'broken' } : { status: 200, body: 'fixed' }));
  try {
    const subscription = await app.http.post('/v1/webhooks/subscriptions', { auth: app.apiKey, json: { name: 'Receiver check', targetUrl: receiver.url, eventTypes: ['profile.deleted'] } });
    expect(subscription.status).toBe(201);
    const { page } = developer;
    await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
    // The page renders before its reachability answer arrives: wait for it rather than count what is there at the click.
    await expect.poll(() => page.getByRole('definition').filter({ hasText: /Off: set PUBLIC_URL/ }).count(), EVENTUALLY).toBe(1);
    await page.getByRole('link', { name: 'Receiver check' }).click();
    const log = page.getByRole('region', { name: 'Attempts by event' });
    const failuresInARow = page.getByTestId('consecutive-failures');

    const sent = page.waitForResponse((response) => response.url().endsWith('/test'));
    await page.getByRole('button', { name: 'Send test event' }).focus();
    await page.keyboard.press('Enter');
    const testEvent = await (await sent).json();
    expect(testEvent).toMatchObject({ subscriptionId: subscription.body.id, status: 'PENDING' });
    await page.getByRole('status').filter({ hasText: testEvent.eventId }).waitFor();
    await expect.poll(() => log.getByRole('row').nth(1).innerText(), EVENTUALLY).toMatch(/\s1\s.*\sFAILED\s+500\s/);
    expect(await log.getByRole('row').nth(1).innerText()).toContain(testEvent.eventId);
    await expect.poll(() => failuresInARow.textContent(), EVENTUALLY).toBe('1');
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ id: testEvent.eventId, type: 'webhook.test' });

    failing = false;
    await page.getByLabel('At most').fill('10');
    await page.getByLabel('At most').press('Enter');
    await page.getByRole('status').filter({ hasText: '1 event queued; the whole range was looked at.' }).waitFor();
    await expect.poll(() => log.getByRole('row').nth(1).innerText(), EVENTUALLY).toMatch(/\s2\s.*\sSUCCEEDED\s+200\s/);
    await expect.poll(() => failuresInARow.textContent(), EVENTUALLY).toBe('0');
    expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([testEvent.eventId, testEvent.eventId]);

    await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
    await expect.poll(() => page.getByRole('row', { name: /Receiver check/ }).innerText(), EVENTUALLY).toMatch(/SUCCEEDED.*\s0\s/s);
  } finally {
    await receiver.close();
  }
});

it('creates an API key, shows its secret once, and revokes it', async () => {
  const { page } = developer;
  await page.getByRole('navigation').getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel("New key's name").fill('Reporting');
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = (await page.getByTestId('secret').textContent())!;
  expect(secret).toMatch(/^sk_/);
  expect((await app.http.get('/v1/profiles', { auth: secret })).status).toBe(200);
  const row = page.getByRole('row', { name: /Reporting/ });
  await expect.poll(() => row.innerText(), EVENTUALLY).toContain('ACTIVE');
  await row.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('button', { name: 'Yes, revoke' }).click();
  await expect.poll(() => row.innerText(), EVENTUALLY).toContain('REVOKED');
  await waitFor(async () => ((await app.http.get('/v1/profiles', { auth: secret })).status === 401 ? true : undefined), 'the revoked key refused');
  await page.reload();
  await page.getByRole('row', { name: /Reporting/ }).waitFor();
  expect(await page.getByTestId('secret').count()).toBe(0);
});

it('refuses, in the browser, a change sent without the CSRF token or from another origin', async () => {
  const { page } = developer;
  /** A POST from the console's own page, as a script injected into it could send one. */
  const createKey = (name: string, csrfToken?: string) =>
    page.evaluate(
      async ([name, environment, token]) => {
        const response = await fetch('/v1/api-keys', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Tributary-Environment': environment!, ...(token ? { 'X-CSRF-Token': token } : {}) }, body: JSON.stringify({ name }) });
        return [response.status, ((await response.json()) as { code?: string }).code ?? null];
      },
      [name, environmentId, csrfToken] as const,
    );
  expect(await createKey('No token')).toEqual([403, 'CSRF_REFUSED']);
  expect(await createKey('Wrong token', 'x'.repeat(43))).toEqual([403, 'CSRF_REFUSED']);
  // The same request with the session's token (which only a same-origin read gets) goes through.
  const csrfToken = await page.evaluate(async () => ((await (await fetch('/v1/console/session')).json()) as { csrfToken: string }).csrfToken);
  expect(await createKey('With token', csrfToken)).toEqual([201, null]);
  // A page of another origin of the same site (another port of localhost) posts a form to the API: the
  // browser sends the Strict cookie with it, and the page's own Origin; no custom header can be added.
  const form = `<!doctype html><form method="post" action="${origin()}/v1/api-keys" enctype="text/plain"><input name='{"name":"Cross-origin","x":"' value='"}'></form>`;
  const elsewhere = createServer({ cert: readFileSync(inject('tls').certFile), key: readFileSync(inject('tls').keyFile) }, (_request, response) => response.writeHead(200, { 'Content-Type': 'text/html' }).end(form));
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  const foreignOrigin = `https://localhost:${(elsewhere.address() as AddressInfo).port}`;
  const foreign = await developer.context.newPage();
  try {
    await foreign.goto(`${foreignOrigin}/`);
    const [answer] = await Promise.all([foreign.waitForNavigation(), foreign.locator('form').evaluate((element) => (element as unknown as { submit(): void }).submit())]);
    expect(answer!.status()).toBe(403);
    expect(JSON.parse((await foreign.locator('body').textContent())!)).toMatchObject({ code: 'CSRF_REFUSED', message: `Refused as a possible cross-site request: Origin ${foreignOrigin} is not this service` });
  } finally {
    await foreign.close();
    elsewhere.close();
  }
  const names = (await app.http.get('/v1/api-keys', { auth: app.apiKey })).body.map((key: { name: string }) => key.name);
  expect(names).toContain('With token');
  expect(names.filter((name: string) => ['No token', 'Wrong token', 'Cross-origin'].includes(name))).toEqual([]);
  expect(developer.problems).toEqual([]);
});

it('refuses a viewer a change: the API answers 403 and the page says so', async () => {
  const { email, password } = await newOperator('VIEWER');
  const viewer = await openConsole('#/keys', { width: 390, height: 844 });
  try {
    await signInOnPage(viewer.page, email, password);
    expect(await viewer.page.getByRole('navigation').getByRole('link', { name: 'Operators' }).count()).toBe(0);
    await viewer.page.getByLabel("New key's name").fill('Not allowed');
    const refused = viewer.page.waitForResponse((response) => response.url().endsWith('/v1/api-keys') && response.request().method() === 'POST');
    await viewer.page.getByRole('button', { name: 'Create key' }).click();
    expect((await refused).status()).toBe(403);
    await expect.poll(() => viewer.page.getByRole('alert').textContent(), EVENTUALLY).toMatch(/^403 /);
    expect(await viewer.page.getByRole('row', { name: /Not allowed/ }).count()).toBe(0);
    // On a phone's width the page does not scroll sideways (tables scroll within themselves); the dark mode it picks stays picked.
    expect(await viewer.page.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);
    await viewer.page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await viewer.page.reload();
    await viewer.page.getByRole('button', { name: 'Switch to light mode' }).waitFor();
    expect(await viewer.page.evaluate('[document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor]')).toEqual(['dark', 'rgb(17, 19, 24)']);
    expect(viewer.problems).toEqual([]);
  } finally {
    await viewer.context.close();
  }
});

it('lets an owner add a viewer, shown their password once, and disable them: their session ends and they cannot sign in', async () => {
  const first = app.service.firstOperator!;
  const owner = await openConsole();
  try {
    const { page } = owner;
    await signInOnPage(page, first.email, first.password);
    await page.getByRole('navigation').getByRole('link', { name: 'Operators' }).click();
    const email = `viewer-${Math.random().toString(36).slice(2)}@example.com`;
    await page.getByLabel("New operator's email").fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption('VIEWER');
    const created = page.waitForResponse((response) => response.url().endsWith('/v1/operators') && response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Add operator' }).click();
    expect((await created).status()).toBe(201);
    const password = (await page.getByTestId('secret').textContent())!;
    const viewer = await signIn(app, email, password);
    expect((await app.http.get('/v1/console/session', asOperator(viewer))).body.operator.roles).toEqual([{ environmentId, role: 'VIEWER' }]);
    const row = page.getByRole('row', { name: email });
    await expect.poll(() => row.innerText(), EVENTUALLY).toContain('ACTIVE');
    expect(await row.getByLabel(`Role of ${email}`).inputValue()).toBe('VIEWER');
    await row.getByRole('button', { name: 'Disable' }).click();
    await row.getByRole('button', { name: 'Yes, disable' }).click();
    await expect.poll(() => row.innerText(), EVENTUALLY).toContain('DISABLED');
    expect((await app.http.get('/v1/console/session', asOperator(viewer))).status).toBe(401);
    await expect(signIn(app, email, password)).rejects.toThrow(/answered 401/);
    // The password is not shown again, and the owner's own row offers nothing to do to themselves.
    await page.reload();
    await page.getByRole('row', { name: email }).waitFor();
    expect(await page.getByTestId('secret').count()).toBe(0);
    expect(await page.getByRole('row', { name: first.email }).getByRole('button').count()).toBe(0);
    expect(owner.problems).toEqual([]);
  } finally {
    await owner.context.close();
  }
});
