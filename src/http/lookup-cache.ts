/**
 * A feed of revocations (src/http/revocation-feed.ts), as far as a cache needs to know it: an epoch
 * that names one stretch of time in which every revocation committed is known to have been delivered.
 */
export interface RevocationEpochs {
  /** The current epoch while the feed is confirmed delivering; undefined while it is down, reconnecting or unconfirmed. */
  current(): number | undefined;
}

/** How long answers are trusted, and how many of each kind are kept. */
export interface LookupCacheOptions<T> {
  /** A valid answer is looked up again once it is this old, unless the revocation feed vouches for it (revocation reaches every instance within it). */
  recheckMs: number;
  /** A valid answer the feed vouches for is looked up again once it is this old all the same (a bound on anything the feed could miss). */
  maxAgeMs: number;
  /** Vouches for valid answers looked up in its current epoch: they are evicted when revoked, so they hold up to `maxAgeMs`. */
  feed?: RevocationEpochs;
  /** When a valid answer stops being valid by itself (a session's expiry), in epoch milliseconds; it is looked up again from then. */
  expiresAt?: (value: T) => number;
  /** An invalid answer is trusted this long, so repeating a bad credential costs no query. */
  negativeMs: number;
  /** At most this many valid and this many invalid answers; the least recently checked go first. */
  capacity: number;
  /** Told how each answer came: from memory (remembered, or a lookup already under way) or from a new lookup. */
  counted?: (answer: 'memory' | 'database') => void;
}

/**
 * Remembered answers of one kind of credential lookup, so that neither a hot credential nor a flood
 * of bad ones costs a database query per request. Valid and invalid answers are kept apart, so made-up
 * credentials can push out only each other; concurrent callers share one lookup per key.
 */
export class LookupCache<T> {
  readonly #options: LookupCacheOptions<T>;
  /** `epoch`: the feed's epoch when the lookup began, if it may be vouched for (see `#start`). */
  readonly #valid = new Map<string, { value: T; checkedAt: number; epoch: number | undefined }>();
  readonly #invalid = new Map<string, number>();
  readonly #pending = new Map<string, Promise<T | undefined>>();
  /** Evictions so far: a lookup that an eviction overtook may have read what was just revoked. */
  #evictions = 0;

  constructor(options: LookupCacheOptions<T>) {
    this.#options = options;
  }

  /** The valid answer remembered for `key`, however old (`get` re-checks it when due). */
  known(key: string): T | undefined {
    return this.#valid.get(key)?.value;
  }

  /**
   * The answer for `key`: from memory while it is fresh, else from `lookUp` (or from the lookup already
   * under way for it). When no valid answer is remembered, `admit` runs before a new lookup starts,
   * so the caller can refuse (by throwing) to spend a query on a credential it has never seen.
   */
  async get(key: string, lookUp: () => Promise<T | undefined>, admit: () => Promise<void>): Promise<T | undefined> {
    const now = Date.now();
    const valid = this.#valid.get(key);
    if (valid && this.#fresh(valid, now)) return this.#answered('memory', valid.value);
    const invalidAt = this.#invalid.get(key);
    if (invalidAt !== undefined && now - invalidAt < this.#options.negativeMs) return this.#answered('memory', undefined);
    const underWay = this.#pending.get(key);
    if (underWay) return this.#answered('memory', underWay);
    if (!valid) await admit();
    const joined = this.#pending.get(key);
    return joined ? this.#answered('memory', joined) : this.#answered('database', this.#start(key, lookUp));
  }

  /** Remembers `key` as invalid now (a revocation made by this process). */
  forget(key: string): void {
    this.#evictions += 1;
    this.#remember(key, undefined, undefined);
  }

  /** Drops the valid answer for `key` (the feed announced a change to it): its next check is a lookup. */
  evict(key: string): void {
    this.#evictions += 1;
    this.#valid.delete(key);
  }

  /** Drops every valid answer `revoked` picks (a change announced by an id the answers hold, not their key). */
  evictWhere(revoked: (value: T) => boolean): void {
    this.#evictions += 1;
    for (const [key, { value }] of this.#valid) if (revoked(value)) this.#valid.delete(key);
  }

  /**
   * Whether a valid answer may be given from memory: not past its own expiry, and either younger than
   * `recheckMs` or, while the feed still vouches for the epoch it was looked up in, younger than `maxAgeMs`.
   */
  #fresh(entry: { value: T; checkedAt: number; epoch: number | undefined }, now: number): boolean {
    const { expiresAt, feed, recheckMs, maxAgeMs } = this.#options;
    if (expiresAt && now >= expiresAt(entry.value)) return false;
    const age = now - entry.checkedAt;
    if (age < recheckMs) return true;
    return age < maxAgeMs && entry.epoch !== undefined && entry.epoch === feed?.current();
  }

  #answered<A>(answer: 'memory' | 'database', value: A): A {
    this.#options.counted?.(answer);
    return value;
  }

  /**
   * Starts a lookup. Its answer is vouched for only if the feed was confirmed when it began (so a
   * revocation committed after the database answered is announced to this epoch) and no eviction came
   * while it ran (an announcement it overtook is not lost on it); otherwise it holds `recheckMs`, as
   * without a feed.
   */
  #start(key: string, lookUp: () => Promise<T | undefined>): Promise<T | undefined> {
    const epoch = this.#options.feed?.current();
    const evictions = this.#evictions;
    const lookup = lookUp()
      .then((value) => {
        this.#remember(key, value, evictions === this.#evictions ? epoch : undefined);
        return value;
      })
      .finally(() => this.#pending.delete(key));
    this.#pending.set(key, lookup);
    return lookup;
  }

  #remember(key: string, value: T | undefined, epoch: number | undefined): void {
    const now = Date.now();
    // Deleting first moves the key to the end of the map's order: the front holds the stalest answers.
    this.#valid.delete(key);
    this.#invalid.delete(key);
    if (value === undefined) this.#invalid.set(key, now);
    else this.#valid.set(key, { value, checkedAt: now, epoch });
    const map = value === undefined ? this.#invalid : this.#valid;
    if (map.size > this.#options.capacity) map.delete(map.keys().next().value!);
  }
}
