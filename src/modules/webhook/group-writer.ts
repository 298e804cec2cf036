interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Writes items in groups, one group at a time: an item that comes while a write is under way waits
 * for it and goes with every other item that came meanwhile, so under load one round trip carries
 * many items, and alone an item is written at once. A group whose write fails is written again one
 * item at a time (each write is one transaction, so a failed one wrote nothing): one bad item fails alone.
 */
export class GroupWriter<T> {
  readonly #write: (items: T[]) => Promise<void>;
  #waiting: Waiting<T>[] = [];
  #writing = false;

  constructor(write: (items: T[]) => Promise<void>) {
    this.#write = write;
  }

  /** Resolves once the item is written; rejects with the error of its own write. */
  write(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      this.#next();
    });
  }

  #next(): void {
    if (this.#writing || this.#waiting.length === 0) return;
    const group = this.#waiting;
    this.#waiting = [];
    this.#writing = true;
    void this.#writeGroup(group).finally(() => {
      this.#writing = false;
      this.#next();
    });
  }

  async #writeGroup(group: Waiting<T>[]): Promise<void> {
    try {
      await this.#write(group.map(({ item }) => item));
      for (const { resolve } of group) resolve();
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
      await Promise.all(group.map((waiting) => this.#writeGroup([waiting])));
    }
  }
}
