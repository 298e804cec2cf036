/** How long answers are trusted, and how many of each kind are kept. */
export interface LookupCacheOptions {
  /** A valid answer is looked up again once it is this old (revocation reaches every instance within it). */
  recheckMs: number;
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
  readonly #options: LookupCacheOptions;
  readonly #valid = new Map<string, { value: T; checkedAt: number }>();
  readonly #invalid = new Map<string, number>();
  readonly #pending = new Map<string, Promise<T | undefined>>();

  constructor(options: LookupCacheOptions) {
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
    if (valid && now - valid.checkedAt < this.#options.recheckMs) return this.#answered('memory', valid.value);
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
    this.#remember(key, undefined);
  }

  #answered<A>(answer: 'memory' | 'database', value: A): A {
    this.#options.counted?.(answer);
    return value;
  }

  #start(key: string, lookUp: () => Promise<T | undefined>): Promise<T | undefined> {
    const lookup = lookUp()
      .then((value) => {
        this.#remember(key, value);
        return value;
      })
      .finally(() => this.#pending.delete(key));
    this.#pending.set(key, lookup);
    return lookup;
  }

  #remember(key: string, value: T | undefined): void {
    const now = Date.now();
    // Deleting first moves the key to the end of the map's order: the front holds the stalest answers.
    this.#valid.delete(key);
    this.#invalid.delete(key);
    if (value === undefined) this.#invalid.set(key, now);
    else this.#valid.set(key, { value, checkedAt: now });
    const map = value === undefined ? this.#invalid : this.#valid;
    if (map.size > this.#options.capacity) map.delete(map.keys().next().value!);
  }
}
