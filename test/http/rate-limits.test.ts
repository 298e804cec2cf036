import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builders } from '../support/builders.ts';
import { burstPerWindow, nextSecond, warm, type Send } from '../support/bursts.ts';
import { machineRedisUrl } from '../support/machine-redis.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

// A burst is read per window (burstPerWindow): however it fell across seconds, the window that refused
// some of it admitted exactly the limit, numbered 1…limit, and no window admitted a number twice.
describe('request rate limits (fixed one-second windows)', () => {
  it('admits exactly 100 a second for a current-generation key, then the next second admits again', async () => {
    const send = () => app.http.get('/healthz', { auth: app.apiKey });
    await warm(send);
    const { admitted, refused } = await burstPerWindow(150, send, 100);
    expect(admitted[0]).toBe(100);
    for (const response of refused) {
      expect(response.headers).toMatchObject({ 'ratelimit-limit': '100', 'ratelimit-remaining': '0', 'ratelimit-reset': '1', 'retry-after': '1' });
      expect(response.body).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/Rate limit of 100/), errorId: expect.any(String) });
    }
    await nextSecond();
    const next = await send();
    expect(next.status).toBe(200);
    expect(Number(next.headers['ratelimit-remaining'])).toBeGreaterThanOrEqual(98);
  });

  it('admits 25 a second for an older-generation key', async () => {
    const { secret: legacy } = await builders(app).apiKey({ generation: 'LEGACY' });
    const send = () => app.http.get('/v1/profiles', { auth: legacy });
    await warm(send);
    expect((await burstPerWindow(150, send, 25)).admitted[0]).toBe(25);
  });

  it('admits 25 anonymous requests a second per client address', async () => {
    const send = () => app.http.get('/healthz');
    await warm(send);
    expect((await burstPerWindow(150, send, 25)).admitted[0]).toBe(25);
  });

  it('puts the headers on every response, errors and 404s included', async () => {
    for (const response of [await app.http.get('/v1/nowhere', { auth: app.apiKey }), await app.http.get('/v1/profiles'), await app.http.get('/v1/profiles', { auth: 'sk_bad' })]) {
      expect(response.headers['ratelimit-limit']).toMatch(/^\d+$/);
      expect(response.headers['ratelimit-remaining']).toMatch(/^\d+$/);
      expect(response.headers['ratelimit-reset']).toBe('1');
    }
  });
});

describe('shared windows in Redis', () => {
  it('two instances on REDIS_URL share one window per credential: the window that refuses admitted 100', async () => {
    const redisUrl = await machineRedisUrl();
    const first = await startTestApp({ REDIS_URL: redisUrl });
    const second = await startTestApp({ REDIS_URL: redisUrl }, { shareDatabaseOf: first });
    try {
      const sends: Send[] = [() => first.http.get('/healthz', { auth: first.apiKey }), () => second.http.get('/healthz', { auth: first.apiKey })];
      let turn = 0;
      const send = () => sends[turn++ % 2]!();
      // Each instance gets 75 of the 150 requests: counting apart, neither would ever refuse one.
      await warm(send, 64);
      expect((await burstPerWindow(150, send, 100)).admitted[0]).toBe(100);
    } finally {
      await second.stop();
      await first.stop();
    }
  });
});

describe('behind a trusted proxy (TRUST_PROXY=true)', () => {
  it('counts anonymous requests by the address the proxy saw, whatever the client wrote before it', async () => {
    const proxied = await startTestApp({ TRUST_PROXY: 'true' });
    try {
      // The client invents a new address for every request; the proxy appends the one it really saw.
      let invented = 0;
      const send = () => proxied.http.get('/healthz', { headers: { 'X-Forwarded-For': `203.0.113.${invented++ % 256}, 198.51.100.7` } });
      await warm(send);
      expect((await burstPerWindow(150, send, 25)).admitted[0]).toBe(25);
    } finally {
      await proxied.stop();
    }
  });
});
