import { chromium, type Browser } from 'playwright-core';
import { findChromium } from '../../scripts/chromium.ts';

/** Headless Chromium for page tests; missing Chromium fails the test (npm test installs it on Debian as root). */
export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('Chromium is missing: `npm test` installs it on Debian as root; otherwise install it or set CHROMIUM_PATH');
  return chromium.launch({ executablePath, args: ['--no-sandbox'] });
}
