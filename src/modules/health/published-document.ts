import { readFileSync } from 'node:fs';
import type { AppContext } from '../../http/state.ts';
import { strongEtag } from '../../lib/content-hash.ts';

/**
 * A contract file served as it is on disk, read once at start with its strong ETag (a hash of the
 * content, so it changes exactly when the file does).
 */
export class PublishedDocument {
  readonly content: string;
  readonly etag: string;
  readonly #mediaType: string;

  constructor(path: string, mediaType: string) {
    this.content = readFileSync(path, 'utf8');
    this.etag = strongEtag(this.content);
    this.#mediaType = mediaType;
  }

  /** The document, or 304 without it when the client's If-None-Match already names this version. */
  answer(ctx: AppContext): { status: 200; body: string } | { status: 304 } {
    // Every client may keep a copy, but must check it is current before using it.
    ctx.set({ ETag: this.etag, 'Cache-Control': 'no-cache' });
    if (this.#matches(ctx.get('If-None-Match'))) return { status: 304 };
    ctx.type = this.#mediaType;
    return { status: 200, body: this.content };
  }

  /** If-None-Match compares weakly (RFC 9110 §13.1.2): a `W/` prefix does not matter, `*` matches any version. */
  #matches(ifNoneMatch: string): boolean {
    return ifNoneMatch.split(',').some((tag) => {
      const trimmed = tag.trim();
      return trimmed === '*' || trimmed.replace(/^W\//, '') === this.etag;
    });
  }
}
