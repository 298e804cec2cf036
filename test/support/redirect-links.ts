import { expect } from 'vitest';
import type { TestApp } from './test-app.ts';
import type { TestResponse } from './http-client.ts';

/** A browser's redirect link: the state the bank gets, and the cookie startLink set in that browser. */
export interface StartedRedirect {
  url: URL;
  state: string;
  cookie: string;
  body: Record<string, unknown>;
}

/** startLink for a redirect bank (or a repair), as the connect page calls it; the answer must be a REDIRECT with its cookie. */
export async function startRedirect(app: TestApp, token: string, json: Record<string, unknown>): Promise<StartedRedirect> {
  const response = await app.http.post('/v1/connect/link', { auth: token, json });
  expect(response.status, response.text).toBe(200);
  expect(response.body.kind).toBe('REDIRECT');
  const setCookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
  expect(setCookie).toHaveLength(1);
  const url = new URL(response.body.url);
  return { url, state: url.searchParams.get('state')!, cookie: setCookie[0]!.split(';')[0]!, body: response.body };
}

/**
 * The bank sends the browser back to the callback with `query`; answers where the browser goes next
 * (the connect page's fragment). `browserHeaders`: more of what the browser sends (Accept-Language, …).
 */
export async function callBack(app: TestApp, query: Record<string, string>, cookie?: string, userAgent?: string, browserHeaders: Record<string, string> = {}): Promise<URLSearchParams> {
  const headers = { ...browserHeaders, ...(cookie ? { Cookie: cookie } : {}), ...(userAgent ? { 'User-Agent': userAgent } : {}) };
  const response = await anonymously(() => app.http.get(`/v1/connect/callback?${new URLSearchParams(query).toString()}`, { headers }));
  expect(response.status, response.text).toBe(303);
  const location = response.headers.location!;
  expect(location).toMatch(/^\/connector#/);
  return new URLSearchParams(location.split('#')[1]);
}

/** The link of the sandbox bank page's button `label` (Approve, Cancel, Bank error), as the query it sends back. */
export async function sandboxBankChoice(app: TestApp, state: string, label: string): Promise<Record<string, string>> {
  const page = await anonymously(() => app.http.get(`/v1/sandbox/bank?state=${encodeURIComponent(state)}`));
  expect(page.status).toBe(200);
  const match = new RegExp(`href="([^"]+)">${label}</a>`).exec(page.text);
  expect(match, `the bank page's ${label} link`).not.toBeNull();
  const href = match![1]!.replaceAll('&#38;', '&');
  return Object.fromEntries(new URL(href, 'https://bank.invalid').searchParams);
}

/**
 * A request without credentials, as the end-user's browser sends it: the bank's page and the
 * callback count against the address's anonymous window (25 a second), which a test's quick steps
 * from one address can use up; a browser's user would try again a second later, and so does this.
 */
async function anonymously(send: () => Promise<TestResponse>): Promise<TestResponse> {
  for (let attempt = 0; ; attempt++) {
    const response = await send();
    if (response.status !== 429 || attempt === 3) return response;
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(response.headers['retry-after'] ?? 1)));
  }
}
