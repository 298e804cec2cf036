import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Middleware } from 'koa';
import type { AppContext, AppState } from '../../http/state.ts';
import { inlineHashes } from '../../lib/content-hash.ts';
import { immutableAsset, serveImmutableAsset, type ImmutableAsset } from '../immutable-assets.ts';

/** GraphQL's path: a browser asking it for a page gets GraphiQL instead of a GraphQL answer. */
const GRAPHQL_PATH = '/v1/graphql';
const REFERENCE_PATH = '/docs';
const ASSET_PREFIX = '/explorer/';

interface Page {
  html: string;
  /** The Content-Security-Policy, with `{{nonce}}` where each response's style nonce goes. */
  csp: string;
}

const resolve = createRequire(import.meta.url).resolve;

/**
 * Redoc's sidebar footer loads Redocly's logo from their CDN, the bundle's one request to another
 * origin. It becomes an empty data: URL, which the policy admits and which fails to load without a
 * request, so Redoc hides the image as it does when the CDN is unreachable.
 */
const OFFSITE_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

function withoutOffsiteLogo(body: Buffer): Buffer {
  return Buffer.from(body.toString('utf8').replaceAll(OFFSITE_LOGO, 'data:,'));
}

/**
 * The packages' prebuilt browser files, read from node_modules and served by this service (no CDN,
 * no request to another origin) at `/explorer/<package>@<version>/<file>`: a versioned path never
 * changes, so it is cached for a year.
 */
function loadAssets(): Map<string, ImmutableAsset> {
  const files: Array<[string, string, ((body: Buffer) => Buffer)?]> = [
    ['react', 'umd/react.production.min.js'],
    ['react-dom', 'umd/react-dom.production.min.js'],
    ['graphiql', 'graphiql.min.js'],
    ['graphiql', 'graphiql.min.css'],
    ['redoc', 'bundles/redoc.standalone.js', withoutOffsiteLogo],
  ];
  return new Map(
    files.map(([name, file, transform]) => {
      const manifest = resolve(`${name}/package.json`);
      const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
      const raw = readFileSync(path.join(path.dirname(manifest), file));
      const body = transform ? transform(raw) : raw;
      const type = file.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
      return [`${ASSET_PREFIX}${name}@${version}/${file}`, immutableAsset(body, type)];
    }),
  );
}

/**
 * A page with its `{{package/file}}` placeholders pointing at the assets, and a Content-Security-
 * Policy as strict for scripts as the connect page's: its own inline scripts by hash, the rest from
 * this origin only. Styles need a nonce instead of a hash, fresh in each response: Redoc makes its
 * style elements at run time, and the page hands them the nonce. Redoc searches in a worker made
 * from a blob; images and fonts may be data: URLs. Nothing is loaded from another origin.
 */
function loadPage(file: string, assets: Map<string, ImmutableAsset>): Page {
  const html = readFileSync(new URL(file, import.meta.url), 'utf8').replace(/\{\{([^/}]+)\/([^}]+)\}\}/g, (_match, name: string, asset: string) => {
    const url = [...assets.keys()].find((key) => key.startsWith(`${ASSET_PREFIX}${name}@`) && key.endsWith(`/${asset}`));
    if (!url) throw new Error(`${file}: no asset ${name}/${asset}`);
    return url;
  });
  const csp = [
    `default-src 'none'`,
    `script-src 'self' ${inlineHashes(html, 'script').join(' ')}`,
    `style-src 'self' 'nonce-{{nonce}}'`,
    `img-src 'self' data:`,
    `font-src 'self' data:`,
    `connect-src 'self'`,
    `worker-src blob:`,
    `base-uri 'none'`,
    `form-action 'none'`,
    `frame-ancestors 'none'`,
  ].join('; ');
  return { html, csp };
}

/** A browser navigating to GraphQL's path: it asks for HTML first and sends no query. */
function wantsGraphiQL(ctx: AppContext): boolean {
  return ctx.path === GRAPHQL_PATH && !('query' in ctx.query) && ctx.accepts('application/graphql-response+json', 'application/json', 'text/html') === 'text/html';
}

/**
 * The explorers: GraphiQL at `GET /v1/graphql` for a browser (Accept: text/html), the REST API
 * reference (Redoc, rendering `/latest/rest.yaml`) at `GET /docs`, and the files they load. Anything
 * else goes on to the front doors.
 */
export function explorers(): Middleware<AppState> {
  const assets = loadAssets();
  const graphiql = loadPage('./graphiql.html', assets);
  const reference = loadPage('./docs.html', assets);
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      await next();
      return;
    }
    const page = wantsGraphiQL(ctx) ? graphiql : ctx.path === REFERENCE_PATH ? reference : undefined;
    if (page) {
      const nonce = randomBytes(16).toString('base64');
      ctx.type = 'text/html; charset=utf-8';
      ctx.set({ 'Content-Security-Policy': page.csp.replace('{{nonce}}', nonce), 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store', Vary: 'Accept' });
      ctx.body = page.html.replace('{{nonce}}', nonce);
      return;
    }
    if (!serveImmutableAsset(ctx, assets, ASSET_PREFIX)) await next();
  };
}
