import fc from 'fast-check';
import { hostileString, hostileValue } from './hostile-values.ts';
import { anyRealId } from './id-values.ts';
import { toJson } from './json-text.ts';

/**
 * Who a request claims to be. The named kinds are resolved by the world when sent (rotating across
 * its keys, profiles and sessions); `header` is sent verbatim.
 */
export type AuthChoice = 'none' | 'apiKey' | 'foreignApiKey' | 'basic' | 'basicWrongKey' | 'basicForeignProfile' | 'session' | { header: string };

/** A request body: a generated value sent as JSON, or text or bytes sent as they are. */
export type Body = { json: unknown } | { text: string } | { bytes: number[] };

/** A generated request, printable as a counterexample; `⟪…⟫` placeholders name the world's records. */
export interface FuzzRequest {
  /** The contract operation it is aimed at, when there is one. */
  operation?: string;
  method: string;
  /** Path and query, already percent-encoded (deliberately wrongly, sometimes). */
  path: string;
  headers: Record<string, string>;
  auth: AuthChoice;
  body?: Body;
}

/** The body's bytes as sent. */
export function bodyText(body: Body): string | Buffer {
  if ('json' in body) return toJson(body.json);
  if ('text' in body) return body.text;
  return Buffer.from(body.bytes);
}

/** A header value Node will send (no control characters, nothing beyond Latin-1). */
export const headerSafe = (text: string) => text.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');

/**
 * Percent-encodes text for a URL. Unpaired surrogates, which encodeURIComponent refuses, become the
 * bytes a lenient encoder (WTF-8) would write: invalid UTF-8 the server must refuse cleanly.
 */
export function percentEncode(text: string): string {
  if (text.isWellFormed()) return encodeURIComponent(text);
  let encoded = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    encoded += code >= 0xd800 && code <= 0xdfff ? `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase() : encodeURIComponent(char);
  }
  return encoded;
}

/** Percent-sequences that are malformed, or decode to something a router may mishandle; sent verbatim. */
export const rawUrlJunk = fc.constantFrom('%', '%zz', '%ff', '%00', '%ED%A0%80', '%C0%AF', '%2F', '%2e%2e', '%2e', '%25', '%E2%82', 'a%', '%u0041', '+', ';x', '~', '*');

/** Strings for URLs and headers: hostile, but short enough to stay under the 16 KiB header limit mostly. */
export const urlText = hostileString.filter((text) => text.length <= 2_000);

const authJunk: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', 'Bearer', 'Bearer ', 'Basic', 'Basic ', 'Basic !!!', 'Basic ===', 'Token abc', 'Digest username="x"', 'bearer sk_x', 'BEARER x', 'Bearer a b c', 'Basic Og==', 'Bearer sk_', 'Bearer null', 'Negotiate x'),
  fc.string({ maxLength: 60 }).map((text) => `Basic ${Buffer.from(text).toString('base64')}`),
  anyRealId.map((id) => `Basic ${Buffer.from(`${id}:sk_not_a_real_key`).toString('base64')}`),
  fc.stringMatching(/^sk_[A-Za-z0-9]{10,60}$/).map((key) => `Bearer ${key}`),
  fc.tuple(fc.base64String({ maxLength: 40 }), fc.base64String({ maxLength: 80 }), fc.base64String({ maxLength: 40 })).map((parts) => `Bearer ${parts.join('.')}`),
  fc.constantFrom(300, 5_000).map((length) => `Bearer ${'a'.repeat(length)}`),
  urlText.map((text) => `Bearer ${headerSafe(text)}`),
);

/** Credentials: mostly the kinds the operation accepts, so requests reach validation and handlers. */
export function authFor(accepted: AuthChoice[]): fc.Arbitrary<AuthChoice> {
  const wanted = accepted.length > 0 ? accepted : (['none'] as AuthChoice[]);
  return fc.oneof(
    { weight: 14, arbitrary: fc.constantFrom(...wanted) },
    { weight: 2, arbitrary: fc.constantFrom<AuthChoice>('none', 'apiKey', 'foreignApiKey', 'basic', 'basicWrongKey', 'basicForeignProfile', 'session') },
    { weight: 1, arbitrary: authJunk.map((header) => ({ header })) },
  );
}

/** Content-Type for a body: mostly right, sometimes a variant or wrong. */
export const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=latin1', 'application/json;;', 'text/plain', 'application/x-www-form-urlencoded',
      'multipart/form-data', 'application/merge-patch+json', 'application/graphql', ';', 'application/jsonx', '*/*', 'application/json, text/plain', '',
    ),
  },
);

/** Bodies that are not JSON, or not UTF-8. */
export const brokenBody: fc.Arbitrary<Body> = fc.oneof(
  fc.constantFrom<string>('', '{', '{"a":', 'not json', '[1,]', "{'a':1}", '{"a":1}{"b":2}', 'nul', '\u0000', '{"a":"\\ud800"}', '{"a":"\\u0000"}', '"\\uDFFF"', '{"__proto__":{"x":1}}', ' ').map((text) => ({ text })),
  fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 64 }).map((bytes) => ({ bytes })),
  fc.constantFrom<number[]>([0xff, 0xfe, 0x7b, 0x7d], [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d], [0xef, 0xbb, 0xbf, 0x7b, 0x7d]).map((bytes) => ({ bytes })),
);

/** A body of any JSON type, likely not the one wanted. */
export const anyJsonBody: fc.Arbitrary<Body> = hostileValue.map((json) => ({ json }));

/** Extra headers any request may carry: odd Accept, Content-Encoding nobody applied, a spoofed forwarder. */
export const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({}) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { Accept: 'text/html' }, { Accept: 'application/xml' }, { Accept: '*/*;q=0' }, { 'Content-Encoding': 'gzip' }, { 'X-Forwarded-For': '1.2.3.4' },
      { 'X-Forwarded-Proto': 'http' }, { 'Accept-Charset': 'latin1' }, { 'If-None-Match': '*' }, { Range: 'bytes=0-1' },
    ),
  },
);
