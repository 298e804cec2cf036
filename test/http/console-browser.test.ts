import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/** The operator console in Chromium over HTTPS: one browser for the file, a context per operator. */
let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

interface Opened {
  context: BrowserContext;
  page: Page;
  /** Console errors, uncaught errors, CSP violations, and requests to any other origin. */
  problems: string[];
}

async function openConsole(viewport = { width: 1280, height: 860 }): Promise<Opened> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  const origin = `https://localhost:${app.service.port}/`;
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (request) => !request.url().startsWith(origin) && !request.url().startsWith('data:') && problems.push(`offsite ${request.url()}`));
  await page.exposeFunction('reportViolation', (text: string) => problems.push(text));
  await page.addInitScript({ content: "document.addEventListener('securitypolicyviolation', (event) => reportViolation(`CSP ${event.violatedDirective} ${event.blockedURI}`));" });
  await page.goto(`${origin}console`);
  return { context, page, problems };
}

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

it('runs in Chromium with no CSP violation and nothing from another origin', async () => {
  const { context, page, problems } = await openConsole();
  await page.locator('#root > :not(noscript)').first().waitFor();
  expect(problems).toEqual([]);
  await context.close();
});
