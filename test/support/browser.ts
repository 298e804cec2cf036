import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { findChromium } from '../../scripts/chromium.ts';

/** Headless Chromium for page tests; missing Chromium fails the test (npm test installs it on Debian as root). */
export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('Chromium is missing: `npm test` installs it on Debian as root; otherwise install it or set CHROMIUM_PATH');
  return chromium.launch({ executablePath, args: ['--no-sandbox'] });
}

/**
 * The connect page at `fragment` (`token=…`, `&connection=…` for repair mode) in a fresh browser
 * context, with every console error it logs; `prepare` sets the context or page up
 * before the page loads (routes, exposed functions).
 */
export async function openConnector(
  browser: Browser,
  port: number,
  fragment: string,
  prepare?: (context: BrowserContext, page: Page) => Promise<void>,
): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await prepare?.(context, page);
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(`https://localhost:${port}/connector#${fragment}`);
  return { page, errors, close: () => context.close() };
}
