import type { Redis } from 'ioredis';

/** The outcome of counting one request in its window. */
export interface WindowCount {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends, rounded up. */
  resetSeconds: number;
}

/** Where window counters live: this process, or Redis when several instances must share them. */
export interface CounterStore {
  /** Adds one to `key` for a window lasting `ttlMs`, and returns the new count. */
  increment(key: string, ttlMs: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * Fixed-window counting with windows aligned to wall-clock multiples of `windowMs` (the SPEC's
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

/** Counters in Redis: INCR and PEXPIRE in one MULTI, so every instance shares each window atomically. */
export class RedisCounterStore implements CounterStore {
  readonly #redis: Redis;

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    const results = await this.#redis.multi().incr(`ratelimit:${key}`).pexpire(`ratelimit:${key}`, ttlMs).exec();
    const [error, count] = results?.[0] ?? [new Error('empty Redis reply'), 0];
    if (error) throw error;
    return Number(count);
  }

  async close(): Promise<void> {
    await this.#redis.quit();
  }
}
