import type { SyncPage } from '../../providers/provider-records.ts';

/**
 * A cursor walk's pages in order, and while the walk applies a batch, the next batch's pages read
 * ahead of it, so the upstream's answers and the database's work overlap instead of taking turns
 * (docs/decisions/sync-walk-reads-ahead.md). One request is in flight at a time, as without it. A
 * page read ahead that fails is met where the walk takes it: the pages before it are taken (and
 * applied) first, as if each page had been fetched when taken.
 */
export class PageReader {
  /** Pages asked for ahead of the walk, in order, each with the cursor it was asked from. */
  private readonly ahead: Array<{ cursor: string | null; page: Promise<SyncPage> }> = [];
  private reading = false;
  private stopped = false;
  private readonly fetch: (cursor: string | null) => Promise<SyncPage>;

  constructor(fetch: (cursor: string | null) => Promise<SyncPage>) {
    this.fetch = fetch;
  }

  /** The page at `cursor`: the first one read ahead, else asked for now. */
  next(cursor: string | null): Promise<SyncPage> {
    const first = this.ahead.shift();
    if (first?.cursor === cursor) return first.page;
    // Not the page the walk is at (it cannot be, read in order from its cursors): what was read ahead is dropped.
    this.ahead.length = 0;
    return this.fetch(cursor);
  }

  /**
   * Reads pages from `cursor` until they hold `rows` transactions or the last page came; not while
   * reading already or while pages read ahead are still to be taken (`cursor` would be behind them).
   */
  readAhead(cursor: string | null, rows: number): void {
    if (this.reading || this.stopped || this.ahead.length > 0) return;
    this.reading = true;
    void (async () => {
      try {
        for (let read = 0; read < rows && !this.stopped; ) {
          const page = this.fetch(cursor);
          // Met when the walk takes it (a walk that stops first leaves it unread).
          page.catch(() => undefined);
          this.ahead.push({ cursor, page });
          const fetched = await page;
          if (!fetched.hasMore) return;
          read += fetched.added.length + fetched.modified.length;
          cursor = fetched.nextCursor;
        }
      } catch {
        // The walk meets the failure where it takes the page.
      } finally {
        this.reading = false;
      }
    })();
  }

  /** The walk ended or gave up: nothing more is asked for. */
  stop(): void {
    this.stopped = true;
    this.ahead.length = 0;
  }
}
