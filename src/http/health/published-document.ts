import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
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
  answer(headers: IncomingHttpHeaders): { status: 200; body: string; headers: Record<string, string> } | { status: 304; headers: Record<string, string> } {
    // Every client may keep a copy, but must check it is current before using it.
    const caching = { ETag: this.etag, 'Cache-Control': 'no-cache' };
    if (this.#matches(headers['if-none-match'] ?? '')) return { status: 304, headers: caching };
    return { status: 200, body: this.content, headers: { ...caching, 'Content-Type': this.#mediaType } };
  }

  /** If-None-Match compares weakly (RFC 9110 §13.1.2): a `W/` prefix does not matter, `*` matches any version. */
  #matches(ifNoneMatch: string): boolean {
    return ifNoneMatch.split(',').some((tag) => {
      const trimmed = tag.trim();
      return trimmed === '*' || trimmed.replace(/^W\//, '') === this.etag;
    });
  }
}
