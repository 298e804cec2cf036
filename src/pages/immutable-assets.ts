import type { ParameterizedContext } from 'koa';
import { strongEtag } from '../lib/content-hash.ts';

/** A file served at a URL that names its content (a hash or a package's version): it never changes there. */
export interface ImmutableAsset {
  body: Buffer;
  type: string;
  etag: string;
}

/** The asset of `body`, with its strong ETag. */
export function immutableAsset(body: Buffer, type: string): ImmutableAsset {
  return { body, type, etag: strongEtag(body) };
}

/**
 * Answers the request with its asset, cached for a year (304 when the client's copy is fresh); false,
 * answering nothing, when the path under `prefix` is none of `assets`.
 */
export function serveImmutableAsset(ctx: ParameterizedContext, assets: ReadonlyMap<string, ImmutableAsset>, prefix: string): boolean {
  const asset = ctx.path.startsWith(prefix) ? assets.get(ctx.path) : undefined;
  if (!asset) return false;
  ctx.status = 200;
  ctx.set({ ETag: asset.etag, 'Cache-Control': 'public, max-age=31536000, immutable' });
  if (ctx.fresh) {
    ctx.status = 304;
    return true;
  }
  ctx.type = asset.type;
  ctx.body = asset.body;
  return true;
}
