import { createHash } from 'node:crypto';

/** A strong ETag for a body: its SHA-256, so it changes exactly when the body does. */
export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** Content-Security-Policy sources (`'sha256-…'`) admitting each inline `<tag>` of a page by its content. */
export function inlineHashes(html: string, tag: 'script' | 'style'): string[] {
  return [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map(([, body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`);
}
