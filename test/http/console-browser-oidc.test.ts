import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import type { FakeOidcProvider } from '../fakes/oidc/server.ts';
import { launchChromium } from '../support/browser.ts';
import { asOperator, signIn } from '../support/console.ts';
import { OIDC_CLIENT, startOidcApp } from '../support/oidc-app.ts';
import type { TestApp } from '../support/test-app.ts';

/**
 * Sign-in through the OpenID Connect provider in Chromium: the console's button, the provider's own
 * sign-in page (another site: https://127.0.0.1:<port>), and the way back to the console signed in.
 */
let app: TestApp;
let provider: FakeOidcProvider;
let stop: () => Promise<void>;
let browser: Browser;

beforeAll(async () => {
  [{ app, provider, stop }, browser] = await Promise.all([startOidcApp(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await stop?.();
});

/** Opens the console's sign-in page, presses the provider's button and signs in there as `login`. */
async function signInAtProvider(login: string) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`https://localhost:${app.service.port}/console`);
  await page.getByRole('link', { name: `Sign in with ${OIDC_CLIENT.name}` }).click();
  await page.waitForURL(`${provider.issuer}/**`);
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.waitForURL(`https://localhost:${app.service.port}/console**`);
  return { context, page, errors };
}

it('signs an operator in through the provider and lands in the console, signed in', async () => {
  const owner = await signIn(app, app.service.firstOperator!.email, app.service.firstOperator!.password);
  const email = `sso-${Date.now()}@example.com`;
  expect((await app.http.post('/v1/operators', asOperator(owner, encodeId('environment', app.environmentId), { json: { email, role: 'DEVELOPER' } }))).status).toBe(201);
  provider.accounts.set('ana', { email, emailVerified: true });
  const { context, page, errors } = await signInAtProvider('ana');
  try {
    await page.locator('header').getByText(`${email} · developer`).waitFor();
    const cookies = (await context.cookies(`https://localhost:${app.service.port}/v1/`)).map((cookie) => [cookie.name, cookie.httpOnly, cookie.sameSite]);
    expect(cookies).toContainEqual(['__Secure-tributary-operator', true, 'Strict']);
    // Signed in as with a password: a change from the page carries the session's CSRF token and works.
    await page.getByRole('navigation').getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel("New key's name").fill('Made after SSO');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.getByTestId('secret').textContent()).toMatch(/^sk_/);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

it('shows a refusal on the sign-in page when the provider\'s account is no operator, and opens no session', async () => {
  provider.accounts.set('stranger', { email: 'stranger@example.com', emailVerified: true });
  const { context, page } = await signInAtProvider('stranger');
  try {
    await page.getByRole('heading', { name: 'Sign in to Tributary' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/^Sign-in was refused: the account you signed in with at your identity provider is not an enabled operator here/);
    expect((await context.cookies(`https://localhost:${app.service.port}/v1/`)).map((cookie) => cookie.name)).not.toContain('__Secure-tributary-operator');
  } finally {
    await context.close();
  }
});
