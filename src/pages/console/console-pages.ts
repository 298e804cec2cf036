import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import type { AppState } from '../../http/state.ts';
import { inlineHashes } from '../../lib/content-hash.ts';
import { immutableAsset, serveImmutableAsset } from '../immutable-assets.ts';

const PAGE_PATHS = new Set(['/console', '/console/']);
const ASSET_PREFIX = '/console/assets/';
const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/**
 * Everything from this origin, nothing inline but the page's own script (by its hash), no frame may
 * hold it, no form posts anywhere: the console's calls are same-origin fetches.
 */
function contentSecurityPolicy(html: string): string {
  return [
    `default-src 'self'`,
    `script-src 'self' ${inlineHashes(html, 'script').join(' ')}`,
    `style-src 'self'`,
    `img-src 'self' data:`,
    `connect-src 'self'`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `form-action 'none'`,
    `frame-ancestors 'none'`,
  ].join('; ');
}

/**
 * The operator console (src/console/, built by scripts/console-build.ts into `dir`): its page at
 * /console, never cached (it names the current assets), and its content-hashed assets under
 * /console/assets/, cached for a year. A service whose console was not built answers 404 there, as
 * for any unknown path, and says so in `missing`.
 */
export function consolePages(dir: string): { middleware: Middleware<AppState>; missing: boolean } {
  const index = path.join(dir, 'index.html');
  if (!existsSync(index)) return { middleware: (_ctx, next) => next() as Promise<void>, missing: true };
  const html = readFileSync(index, 'utf8');
  const headers = {
    'Content-Security-Policy': contentSecurityPolicy(html),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  };
  const assets = new Map(
    readdirSync(path.join(dir, 'assets')).map((file) => [`${ASSET_PREFIX}${file}`, immutableAsset(readFileSync(path.join(dir, 'assets', file)), TYPES[path.extname(file)] ?? 'application/octet-stream')]),
  );
  const middleware: Middleware<AppState> = async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      await next();
      return;
    }
    if (PAGE_PATHS.has(ctx.path)) {
      ctx.set(headers);
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = html;
      return;
    }
    if (!serveImmutableAsset(ctx, assets, ASSET_PREFIX)) await next();
  };
  return { middleware, missing: false };
}
