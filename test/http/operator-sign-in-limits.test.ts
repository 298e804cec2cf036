import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_WINDOW_MS } from '../../src/modules/operator/sign-in.ts';
import type { TestResponse } from '../support/http-client.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The console's sign-in limits, on an app of their own: its clock moves on through the burst of
 * attempts, which other tests must not inherit.
 */

/** The service's clock: moved forward by tests, never slept through. */
let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);

let app: TestApp;
let owner: { email: string; password: string };
beforeAll(async () => {
  app = await startTestApp({}, { now });
  owner = app.service.firstOperator!;
});
afterAll(() => app?.stop());

/**
 * A sign-in attempt, a second after the last on the service's clock: the burst is answered by the
 * sign-in limits (15-minute windows), not by the per-second limit of an address without a credential.
 */
function attempt(json: { email: string; password: string }): Promise<TestResponse> {
  offsetMs += 1_000;
  return app.http.post('/v1/console/sign-in', { json });
}

describe('sign-in limits', () => {
  it('limits attempts per account and per address, in the contract\'s 429', async () => {
    // The burst starts a window: windows are fixed (multiples of 15 minutes), and one that ended
    // midway would let the 11th attempt through.
    offsetMs += SIGN_IN_WINDOW_MS - (now().getTime() % SIGN_IN_WINDOW_MS);
    const email = `target-${Date.now()}@example.com`;
    for (let i = 0; i < 10; i++) expect((await attempt({ email, password: 'guess' })).status).toBe(401);
    const limited = await attempt({ email, password: 'guess' });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another account from the same address is still let through, up to the address's own limit (30).
    const other = await attempt({ email: `other-${email}`, password: 'guess' });
    expect(other.status).toBe(401);
    for (let i = 0; i < 30; i++) await attempt({ email: `spray-${i}-${email}`, password: 'guess' });
    const sprayed = await attempt({ email: owner.email, password: owner.password });
    expect(sprayed.status).toBe(429);
    offsetMs += 15 * 60_000;
    expect((await attempt({ email: owner.email, password: owner.password })).status).toBe(200);
  });
});
