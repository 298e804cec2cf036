/**
 * How often the shared rate-limit windows fall back to in-process counting under CPU load: a
 * redis-server of its own on loopback, `hogs` busy-looping processes beside it, and for `seconds` a
 * bounded loop of bursts of 15 increments (about the traffic of the 150 requests a second)
 * through RedisCounterStore, each followed by the same MULTI timed on a plain connection.
 *
 *   node scripts/bench/redis-fallbacks.ts <hogs> <seconds>
 */
import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import pino from 'pino';
import { RedisCounterStore } from '../../src/lib/fixed-window.ts';
import { freePort, startRedisServer } from '../../test/support/redis-server.ts';

const hogs = Number(process.argv[2] ?? 0);
const seconds = Math.min(Number(process.argv[3] ?? 10), 120);
const redis = await startRedisServer({ port: await freePort() });
const busy = `const end = Date.now() + ${(seconds + 2) * 1000}; while (Date.now() < end) {}`;
const children = Array.from({ length: hogs }, () => spawn(process.execPath, ['-e', busy], { stdio: 'ignore' }));
let fallbacks = 0;
const store = await RedisCounterStore.open(redis.url, pino({ level: 'silent' }), () => fallbacks++);
const timed = new Redis(redis.url);
const latencies: number[] = [];
let countedLocally = 0;
const end = Date.now() + seconds * 1000;
while (Date.now() < end) {
  await Promise.all(
    Array.from({ length: 15 }, async (_, i) => {
      if (store.mode !== 'shared') countedLocally++;
      await store.increment(`k${i % 10}:${Math.floor(Date.now() / 1000)}`, 2000);
      const started = performance.now();
      await timed.multi().incr('timed').pexpire('timed', 2000).exec();
      latencies.push(performance.now() - started);
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 10));
}
latencies.sort((a, b) => a - b);
const quantile = (q: number) => Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1));
const over = (ms: number) => latencies.filter((latency) => latency > ms).length;
console.log(
  JSON.stringify({
    hogs,
    seconds,
    increments: latencies.length,
    fallbacks,
    countedLocally,
    multiMs: { p50: quantile(0.5), p99: quantile(0.99), p999: quantile(0.999), max: quantile(1) },
    multiOverMs: { 100: over(100), 250: over(250), 500: over(500), 1000: over(1000) },
  }),
);
for (const child of children) child.kill('SIGKILL');
await store.close();
timed.disconnect();
await redis.kill();
