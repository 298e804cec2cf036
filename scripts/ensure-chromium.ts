/**
 * Runs before `npm test`: the connect-page test drives a real Chromium. When none is installed and
 * this is a Debian-like machine where we are root (CI, containers), installs Debian's `chromium`
 * package; otherwise says how to get one (the browser test fails without it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium } from './chromium.ts';

if (!findChromium()) {
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log('Installing Chromium (Debian package) for the browser test…');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } else {
    console.warn('No Chromium found: install it (e.g. `sudo apt-get install chromium`) or set CHROMIUM_PATH; the connect-page browser test needs it.');
  }
}
