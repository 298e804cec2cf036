import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * A hanging Redis costs the requests in flight at most this long once; then the store is degraded.
 * Long enough to hold on a busy machine: at 100 ms, CPU load alone made the store fall back (and
 * each instance admit the full limit) about once in 15 s; see docs/decisions/redis-command-timeout.md.
 */
const COMMAND_TIMEOUT_MS = 1000;
const CONNECT_WAIT_MS = 1000;
const PROBE_INTERVAL_MS = 1000;
const WARNING_INTERVAL_MS = 60_000;

/** The outcome of counting one request in its window. */
export interface WindowCount {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends, rounded up. */
  resetSeconds: number;
}

/**
 * Where windows are counted. `shared`: in Redis, by every instance together. `local`: in this process,
 * by configuration (no REDIS_URL). `degraded`: in this process because Redis does not answer.
 */
export type CounterMode = 'shared' | 'local' | 'degraded';

/** Where window counters live: this process, or Redis when several instances must share them. */
export interface CounterStore {
  readonly mode: CounterMode;
  /** Adds one to `key` for a window lasting `ttlMs`, and returns the new count. */
  increment(key: string, ttlMs: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * Fixed-window counting with windows aligned to wall-clock multiples of `windowMs` (the rate limits'
 * "counts reset at the start of each second"). Used for the request rate limits and reusable for
 * any per-key limit (per-connection refreshes).
 */
export class FixedWindowLimiter {
  readonly #store: CounterStore;
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(store: CounterStore, windowMs = 1000, now: () => number = Date.now) {
    this.#store = store;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  async hit(key: string, limit: number): Promise<WindowCount> {
    const now = this.#now();
    const window = Math.floor(now / this.#windowMs);
    const windowEnd = (window + 1) * this.#windowMs;
    const count = await this.#store.increment(`${key}:${window}`, windowEnd - now + this.#windowMs);
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
    };
  }
}

/** Counters in this process's memory; expired windows are swept as time moves on. */
export class MemoryCounterStore implements CounterStore {
  readonly mode = 'local';
  readonly #counts = new Map<string, { count: number; expiresAt: number }>();
  #nextSweep = 0;

  async increment(key: string, ttlMs: number): Promise<number> {
    const now = Date.now();
    if (now >= this.#nextSweep) this.#sweep(now);
    const entry = this.#counts.get(key);
    if (entry && entry.expiresAt > now) return ++entry.count;
    this.#counts.set(key, { count: 1, expiresAt: now + ttlMs });
    return 1;
  }

  #sweep(now: number): void {
    for (const [key, entry] of this.#counts) if (entry.expiresAt <= now) this.#counts.delete(key);
    this.#nextSweep = now + 1000;
  }

  async close(): Promise<void> {
    this.#counts.clear();
  }
}

/** Adds one to a window's counter and sets its expiry; the new count. ioredis sends it by EVALSHA (EVAL once per connection). */
const WINDOW_SCRIPT = `local count = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return count`;

type WindowRedis = Redis & { windowCount(key: string, ttlMs: number): Promise<number> };

/**
 * Counters in Redis, shared by every instance — and never a reason to fail a request. While Redis is
 * unreachable, errs or takes longer than COMMAND_TIMEOUT_MS, windows are counted in this process
 * instead (degraded: each instance then admits up to the full limit on its own), and a PING every
 * PROBE_INTERVAL_MS brings the shared windows back as soon as Redis answers again. Each fall back
 * from shared windows is logged and reported to `fellBack` (a metric); while degraded, an error is
 * logged at most once a minute. ioredis itself keeps reconnecting in the background.
 */
export class RedisCounterStore implements CounterStore {
  readonly #redis: Redis;
  readonly #log: Logger;
  readonly #fellBack: () => void;
  readonly #local = new MemoryCounterStore();
  readonly #probe: NodeJS.Timeout;
  #shared = false;
  #warnedAt = -Infinity;

  /**
   * Connects, waiting at most CONNECT_WAIT_MS for a first answer. A Redis that does not answer does
   * not stop the start: the store begins degraded and switches to Redis once it answers.
   */
  static async open(url: string, log: Logger, fellBack: () => void): Promise<RedisCounterStore> {
    // No offline queue and no per-command retries: a command either goes out now or fails now.
    const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const store = new RedisCounterStore(redis, log, fellBack);
    await new Promise((resolve) => {
      redis.once('ready', resolve);
      redis.once('error', resolve);
      setTimeout(resolve, CONNECT_WAIT_MS).unref();
    });
    await store.#check();
    return store;
  }

  constructor(redis: Redis, log: Logger, fellBack: () => void) {
    redis.defineCommand('windowCount', { numberOfKeys: 1, lua: WINDOW_SCRIPT });
    this.#redis = redis;
    this.#log = log;
    this.#fellBack = fellBack;
    redis.on('error', (error) => this.#degrade(error));
    this.#probe = setInterval(() => {
      if (!this.#shared) void this.#check();
    }, PROBE_INTERVAL_MS).unref();
  }

  get mode(): CounterMode {
    return this.#shared ? 'shared' : 'degraded';
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    if (this.#shared) {
      try {
        return await withTimeout(this.#increment(key, ttlMs), COMMAND_TIMEOUT_MS);
      } catch (error) {
        this.#degrade(error);
      }
    }
    return this.#local.increment(key, ttlMs);
  }

  /**
   * INCR and PEXPIRE in one script (WINDOW_SCRIPT), so every instance shares each window atomically:
   * one EVALSHA round trip where MULTI, INCR, PEXPIRE and EXEC cost four replies to parse.
   */
  async #increment(key: string, ttlMs: number): Promise<number> {
    return Number(await (this.#redis as WindowRedis).windowCount(`ratelimit:${key}`, ttlMs));
  }

  async #check(): Promise<void> {
    try {
      if (this.#redis.status !== 'ready') throw new Error(`connection ${this.#redis.status}`);
      await withTimeout(this.#redis.ping(), COMMAND_TIMEOUT_MS);
    } catch (error) {
      this.#degrade(error);
      return;
    }
    if (!this.#shared) this.#log.info('Redis answers: rate-limit windows are shared by every instance');
    this.#shared = true;
  }

  #degrade(error: unknown): void {
    const now = Date.now();
    if (this.#shared) this.#fellBack();
    if (this.#shared || now - this.#warnedAt >= WARNING_INTERVAL_MS) {
      this.#warnedAt = now;
      this.#log.error(
        { reason: error instanceof Error ? error.message : String(error) },
        'Redis is unreachable: rate limits are counted in this process (each instance admits the full limit) until it answers again',
      );
    }
    this.#shared = false;
  }

  async close(): Promise<void> {
    clearInterval(this.#probe);
    this.#redis.disconnect();
    await this.#local.close();
  }
}

/**
 * Rejects when `promise` has not settled `ms` after the call. The deadline is checked only after the
 * event loop has read pending I/O once more, so a busy process does not take its own lag for a slow
 * Redis whose reply is already waiting in the socket.
 */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => setImmediate(() => reject(new Error(`no answer within ${ms} ms`))), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
