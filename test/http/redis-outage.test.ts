import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisCounterStore } from '../../src/lib/fixed-window.ts';
import { burstPerWindow, warm, type Send } from '../support/bursts.ts';
import type { TestResponse } from '../support/http-client.ts';
import { freePort, startRedisServer, type RedisServer } from '../support/redis-server.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

// The tests that start services wait for them, for redis-server processes and for modes to change, and
// fire bursts: on a busy machine that takes well over the default 30 s. The waits for a mode and the
// bursts are bounded on their own (waitFor: 20 s; burstUntilRefused: 5 bursts), so a mode that never
// comes or a limit that never refuses fails at its step, naming it; this bound catches a request that
// never returns.
const STARTS_SERVICES = { timeout: 120_000 };

// Each test starts its own redis-server, so it can break it without disturbing anyone's REDIS_URL.
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function appOn(redisUrl: string, shareDatabaseOf?: TestApp): Promise<TestApp> {
  const app = await startTestApp({ REDIS_URL: redisUrl }, { shareDatabaseOf });
  cleanups.push(() => app.stop());
  return app;
}

async function redisServer(options: { port?: number; password?: string } = {}): Promise<RedisServer> {
  const redis = await startRedisServer(options);
  cleanups.push(() => redis.kill());
  return redis;
}

/** Waits until `/readyz` reports `rateLimits` as `mode` (requests meanwhile are what notice an outage). */
function rateLimitsBecome(app: TestApp, mode: 'shared' | 'degraded') {
  return waitFor(async () => {
    const response = await app.http.get('/readyz');
    expectAnswered(response);
    return response.body.rateLimits === mode ? response.body : undefined;
  }, `rate limits ${mode}`);
}

/** Answered normally — 200 or 429, never a 500 — with the rate-limit headers. */
function expectAnswered(response: TestResponse) {
  expect([200, 429]).toContain(response.status);
  expect(response.headers['ratelimit-limit']).toMatch(/^\d+$/);
  expect(response.headers['ratelimit-remaining']).toMatch(/^\d+$/);
}

/**
 * What the window that refused admitted of one current-generation key's burst of 150 alternating
 * between two instances (burstPerWindow): each instance gets 75, so only windows they share refuse
 * any, and one that does admitted 100.
 */
async function sharedBurst(first: TestApp, second: TestApp): Promise<number> {
  const sends: Send[] = [() => first.http.get('/healthz', { auth: first.apiKey }), () => second.http.get('/healthz', { auth: first.apiKey })];
  let turn = 0;
  const send = () => sends[turn++ % 2]!();
  // As many connections as the burst will use: 32 to each instance (the test client's cap).
  await warm(send, 64);
  return (await burstPerWindow(150, send, 100)).admitted[0]!;
}

describe('rate limits when Redis is unreachable', () => {
  it('starts when nothing listens at REDIS_URL, counts in-process, and shares windows once Redis appears', STARTS_SERVICES, async () => {
    const port = await freePort();
    const app = await appOn(`redis://127.0.0.1:${port}`);
    const health = await app.http.get('/healthz');
    expect(health.status).toBe(200);
    expectAnswered(health);
    const ready = await app.http.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'degraded', rateLimits: 'degraded' });
    // Still limited, in this process: 25 anonymous requests per second per address.
    const send = () => app.http.get('/healthz');
    await warm(send);
    expect((await burstPerWindow(150, send, 25)).admitted[0]).toBe(25);

    await redisServer({ port });
    expect(await rateLimitsBecome(app, 'shared')).toEqual({ status: 'ready', rateLimits: 'shared' });
  });

  it('keeps answering while a shared Redis hangs or dies, and shares windows again when it is back', STARTS_SERVICES, async () => {
    const redis = await redisServer();
    const first = await appOn(redis.url);
    const second = await appOn(redis.url, first);
    expect((await first.http.get('/readyz')).body).toEqual({ status: 'ready', rateLimits: 'shared' });
    expect(await sharedBurst(first, second)).toBe(100);

    // Hanging: connections stay open, nothing answers.
    redis.freeze();
    expect(await rateLimitsBecome(first, 'degraded')).toEqual({ status: 'degraded', rateLimits: 'degraded' });
    expectAnswered(await first.http.get('/healthz', { auth: first.apiKey }));
    const oneInstance = () => first.http.get('/healthz', { auth: first.apiKey });
    await warm(oneInstance);
    expect((await burstPerWindow(150, oneInstance, 100)).admitted[0]).toBe(100);
    redis.thaw();
    await rateLimitsBecome(first, 'shared');
    await rateLimitsBecome(second, 'shared');
    expect(await sharedBurst(first, second)).toBe(100);

    // Dead: connections drop and the port refuses until a new server starts on it.
    await redis.kill();
    await rateLimitsBecome(first, 'degraded');
    await rateLimitsBecome(second, 'degraded');
    expectAnswered(await second.http.get('/healthz', { auth: first.apiKey }));
    await redis.restart();
    await rateLimitsBecome(first, 'shared');
    await rateLimitsBecome(second, 'shared');
    expect(await sharedBurst(first, second)).toBe(100);
  });

  it('reports and logs each fall back from shared windows once, however many requests it counts in-process', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const redis = await redisServer();
    let fallbacks = 0;
    const store = await RedisCounterStore.open(redis.url, logger, () => fallbacks++);
    cleanups.push(() => store.close());
    expect(await store.increment('fallback', 60_000)).toBe(1);
    expect(store.mode).toBe('shared');
    redis.freeze();
    // The first waits out the command timeout; the others are counted in-process at once.
    for (let i = 1; i <= 20; i++) expect(await store.increment('fallback', 60_000)).toBe(i);
    expect(store.mode).toBe('degraded');
    expect(fallbacks).toBe(1);
    expect(lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([expect.stringMatching(/^Redis is unreachable: rate limits are counted in this process/)]);
    redis.thaw();
    await waitFor(async () => (store.mode === 'shared' ? true : undefined), 'the store to share windows again');
    expect(fallbacks).toBe(1);
  });

  it('logs an outage once rather than per request, without the URL\'s password, and logs its end', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const port = await freePort();
    const store = await RedisCounterStore.open(`redis://:pa55word@127.0.0.1:${port}`, logger, () => {});
    cleanups.push(() => store.close());
    for (let i = 1; i <= 200; i++) expect(await store.increment('outage-log', 60_000)).toBe(i);
    expect(store.mode).toBe('degraded');
    expect(lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([expect.stringMatching(/^Redis is unreachable: rate limits are counted in this process/)]);

    await redisServer({ port, password: 'pa55word' });
    await waitFor(async () => (store.mode === 'shared' ? true : undefined), 'the store to share windows again');
    expect(lines.at(-1)!.msg).toMatch(/^Redis answers/);
    expect(JSON.stringify(lines)).not.toContain('pa55word');
  });
});
