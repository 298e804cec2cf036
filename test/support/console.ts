import type { RequestOptions, TestResponse } from './http-client.ts';
import type { TestApp } from './test-app.ts';

/** A signed-in console session, as a browser holds it: its cookie, and the CSRF token the page read. */
export interface ConsoleSession {
  cookie: string;
  csrfToken: string;
  origin: string;
}

/** Signs in through the contract's operation; throws unless it answers 200. */
export async function signIn(app: TestApp, email: string, password: string, totpCode?: string): Promise<ConsoleSession & { response: TestResponse }> {
  const response = await app.http.post('/v1/console/sign-in', { json: { email, password, ...(totpCode ? { totpCode } : {}) } });
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}: ${response.text}`);
  const setCookie = String(response.headers['set-cookie']);
  return { cookie: setCookie.split(';')[0]!, csrfToken: response.body.csrfToken, origin: app.service.url, response };
}

/** Request options for a console session acting on `environmentId` (a public id), as the console's page sends them. */
export function asOperator(session: ConsoleSession, environmentId?: string, extra: RequestOptions = {}): RequestOptions {
  return {
    ...extra,
    headers: {
      Cookie: session.cookie,
      Origin: session.origin,
      'X-CSRF-Token': session.csrfToken,
      ...(environmentId ? { 'Tributary-Environment': environmentId } : {}),
      ...extra.headers,
    },
  };
}
