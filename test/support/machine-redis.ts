import { Redis } from 'ioredis';

/**
 * The machine's Redis, which the tests of rate-limit windows shared between instances need:
 * REDIS_URL, or redis://127.0.0.1:6379 as `.ci/run` sets it. A Redis that does not answer fails the
 * test with a clear message; it is not a reason to skip it (the service itself would quietly count
 * in-process and the test would fail on counts instead).
 */
export async function machineRedisUrl(): Promise<string> {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 5_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // The connection's own error (ECONNREFUSED, NOAUTH…) says more than the rejected connect() does.
  let connectionError: Error | undefined;
  redis.on('error', (error: Error) => (connectionError = error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    const { protocol, host } = new URL(url);
    const reason = (connectionError ?? (error as Error)).message;
    throw new Error(`This test needs Redis, and none answers at ${protocol}//${host} (REDIS_URL): ${reason}. Start redis-server there or point REDIS_URL at one`);
  } finally {
    redis.disconnect();
  }
  return url;
}
