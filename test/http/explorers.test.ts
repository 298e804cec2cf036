import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { basicAuth, createProfile, sessionFor } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let browser: Browser;
const screenshots = mkdtempSync(path.join(tmpdir(), 'tributary-explorers-'));

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** Opens a page of the service; `problems` collects console errors, failed loads and Content-Security-Policy violations. */
async function open(pathAndFragment: string) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  const offsite: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('requestfailed', (request) => problems.push(`${request.url()} ${request.failure()?.errorText}`));
  page.on('request', (request) => !request.url().startsWith(`https://localhost:${app.service.port}/`) && !request.url().startsWith('blob:') && !request.url().startsWith('data:') && offsite.push(request.url()));
  await page.exposeFunction('reportViolation', (text: string) => problems.push(text));
  await page.addInitScript({ content: "document.addEventListener('securitypolicyviolation', (event) => reportViolation(`CSP ${event.violatedDirective} ${event.blockedURI}`));" });
  const response = await page.goto(`https://localhost:${app.service.port}${pathAndFragment}`);
  return { page, response: response!, problems, offsite, close: () => context.close() };
}

async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(screenshots, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

describe('GraphiQL at GET /v1/graphql', () => {
  it('renders the schema and runs queries as the session token in the fragment', async () => {
    const profile = await createProfile(app, { name: 'Grace Explorer' });
    const { page, response, problems, offsite, close } = await open(`/v1/graphql#token=${await sessionFor(app, profile.id)}`);
    expect(response.headers()['content-type']).toMatch(/^text\/html/);
    expect(response.headers()['content-security-policy']).toMatch(/default-src 'none'; script-src 'self' 'sha256-/);
    await page.getByRole('button', { name: /Show Documentation Explorer/ }).click();
    await page.getByText('A GraphQL schema provides a root type for each kind of operation.').waitFor();
    await page.locator('.graphiql-doc-explorer-root-type').getByText('Query').first().waitFor();
    await page.getByRole('button', { name: /Execute query/ }).click();
    await page.locator('.graphiql-response').getByText(profile.id).waitFor();
    await page.locator('.graphiql-response').getByText('Grace Explorer').waitFor();
    console.info('GraphiQL screenshot:', await screenshot(page, 'graphiql'));
    expect(problems).toEqual([]);
    expect(offsite).toEqual([]);
    await close();
  });

  it('takes Basic credentials from the fragment, and says how to sign in without any', async () => {
    const profile = await createProfile(app);
    const basic = basicAuth(profile.id, app.apiKey).slice('Basic '.length);
    const signedIn = await open(`/v1/graphql#basic=${Buffer.from(basic, 'base64').toString()}`);
    await signedIn.page.getByRole('button', { name: /Execute query/ }).click();
    await signedIn.page.locator('.graphiql-response').getByText(profile.id).waitFor();
    expect(signedIn.problems).toEqual([]);
    await signedIn.close();
    const anonymous = await open('/v1/graphql');
    await anonymous.page.getByText(/Sign in through the URL fragment/).waitFor();
    await anonymous.close();
  });

  it('leaves GraphQL itself to GraphQL clients', async () => {
    const json = await app.http.get('/v1/graphql?query=%7B__typename%7D', { headers: { Accept: 'text/html,application/json;q=0.9' } });
    expect(json.headers['content-type']).not.toMatch(/html/);
    const api = await app.http.get('/v1/graphql', { headers: { Accept: 'application/json' } });
    expect(api.headers['content-type']).not.toMatch(/html/);
  });
});

describe('the REST API reference at GET /docs', () => {
  it('renders /latest/rest.yaml', async () => {
    const { page, response, problems, offsite, close } = await open('/docs');
    expect(response.headers()['content-security-policy']).toMatch(/default-src 'none'; script-src 'self' 'sha256-/);
    await page.getByRole('heading', { name: /Tributary API/ }).first().waitFor();
    await page.getByRole('heading', { name: 'Refresh a connection\'s transactions (beta)' }).waitFor();
    await page.getByRole('heading', { name: 'Get an account\'s ACH numbers' }).waitFor();
    console.info('Reference screenshot:', await screenshot(page, 'docs'));
    // Redoc's footer would load its logo from Redocly's CDN: the served bundle asks for nothing offsite.
    expect(problems).toEqual([]);
    expect(offsite).toEqual([]);
    expect(await page.getByRole('img', { name: 'redocly logo' }).count()).toBe(0);
    await close();
  }, 120_000);
});

describe('explorer files', () => {
  it('are served from this service with long caching and an ETag', async () => {
    const page = await app.http.get('/docs');
    const script = /<script src="([^"]+)"/.exec(page.text)![1]!;
    expect(script).toMatch(/^\/explorer\/redoc@\d+\.\d+\.\d+\//);
    const first = await app.http.get(script);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toMatch(/^text\/javascript/);
    expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const again = await app.http.get(script, { headers: { 'If-None-Match': first.headers.etag! } });
    expect(again.status).toBe(304);
    expect((await app.http.get('/explorer/redoc@0.0.0/bundles/redoc.standalone.js')).status).toBe(404);
  });
});
