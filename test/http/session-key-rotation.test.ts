import { randomBytes } from 'node:crypto';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Rotating the session key (README "Rotating the session key", docs/decisions/credentials-session-keys.md)
 * across instances of one deployment, each step a configuration the instances restart into one by
 * one: sessions issued under every earlier step stay valid on every instance of the next.
 */

const SESSION_SECRET = randomBytes(32).toString('hex');
const S2 = randomBytes(32).toString('hex');

let first: TestApp;
const others: TestApp[] = [];
beforeAll(async () => {
  first = await startTestApp({ SESSION_SECRET });
});
afterAll(async () => {
  for (const app of others) await app.stop();
  await first?.stop();
});

/** An instance of the deployment, started with `env`. */
async function instance(env: Record<string, string>): Promise<TestApp> {
  const app = await startTestApp(env, { shareDatabaseOf: first });
  others.push(app);
  return app;
}

/** A session token issued by `app` for a new profile, and the key it names. */
async function issue(app: TestApp): Promise<{ token: string; kid: string | undefined }> {
  const profile = await createProfile(app);
  const response = await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profile.id } });
  expect(response.status, response.text).toBe(201);
  const token = response.body.token as string;
  return { token, kid: decodeProtectedHeader(token).kid };
}

/** The status `app` answers a request carrying `token` with. */
async function statusOn(app: TestApp, token: string): Promise<number> {
  return (await app.http.get('/v1/users/session', { auth: `Bearer ${token}` })).status;
}

describe('rotating the session key', () => {
  it('moves from SESSION_SECRET to SESSION_KEYS and on to a new key without signing anyone out', { timeout: 120_000 }, async () => {
    // Before: SESSION_SECRET alone signs, naming no key.
    const before = await issue(first);
    expect(before.kid).toBeUndefined();

    // 1. SESSION_SECRET named as the first key of SESSION_KEYS: it signs naming s1, and an instance
    //    still on SESSION_SECRET alone verifies that (it verifies every token with its one key).
    const named = { SESSION_KEYS: `s1:${SESSION_SECRET}`, SESSION_SECRET };
    const one = await instance(named);
    const signedS1 = await issue(one);
    expect(signedS1.kid).toBe('s1');
    expect([await statusOn(one, before.token), await statusOn(first, signedS1.token)]).toEqual([200, 200]);

    // 2. The new key listed after it: it verifies, s1 still signs. (`first` stands for an instance
    //    restarted into this step; it keeps the database and serves no more requests.)
    const listed = { SESSION_KEYS: `s1:${SESSION_SECRET},s2:${S2}`, SESSION_SECRET };
    const two = await instance(listed);
    expect((await issue(two)).kid).toBe('s1');
    expect([await statusOn(two, before.token), await statusOn(two, signedS1.token)]).toEqual([200, 200]);

    // 3. The new key first: it signs, and an instance still on step 2 verifies what it signs.
    const promoted = { SESSION_KEYS: `s2:${S2},s1:${SESSION_SECRET}`, SESSION_SECRET };
    const three = await instance(promoted);
    const signedS2 = await issue(three);
    expect(signedS2.kid).toBe('s2');
    expect([await statusOn(two, signedS2.token), await statusOn(three, signedS1.token), await statusOn(three, before.token)]).toEqual([200, 200, 200]);

    // 4. Once every token the older key signed has expired (a token lifetime after step 3), it goes,
    //    and SESSION_SECRET with it: what they signed is refused, what s2 signed is not.
    const retired = await instance({ SESSION_KEYS: `s2:${S2}` });
    expect(await statusOn(retired, signedS2.token)).toBe(200);
    expect([await statusOn(retired, signedS1.token), await statusOn(retired, before.token)]).toEqual([401, 401]);
  });
});
