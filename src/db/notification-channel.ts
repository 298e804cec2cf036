import pg from 'pg';
import type { Logger } from 'pino';

/** Reconnection waits double from the first to the last, then stay there. */
const BACKOFF = { firstMs: 250, lastMs: 10_000 };

export interface ChannelObserver {
  /** A notification's payload, as committed by whoever sent it. */
  message(payload: string): void;
  /** The channel was lost: notifications sent meanwhile are never seen. */
  down(): void;
  /** Listening again after a loss. */
  up(): void;
}

/**
 * LISTENs on one PostgreSQL channel over a connection of its own (a pooled one would drop the
 * LISTEN when returned). When the connection fails, `down` is told and the loss logged once per
 * outage; it reconnects with exponential backoff until `close`.
 */
export class NotificationChannel {
  readonly #url: string;
  readonly #channel: string;
  readonly #observer: ChannelObserver;
  readonly #logger: Logger;
  #client: pg.Client | undefined;
  #retry: NodeJS.Timeout | undefined;
  #waitMs = BACKOFF.firstMs;
  #closed = false;

  constructor(url: string, channel: string, observer: ChannelObserver, logger: Logger) {
    this.#url = url;
    this.#channel = channel;
    this.#observer = observer;
    this.#logger = logger;
  }

  /** Connects and listens; resolves once listening (a failure here is the caller's: the service does not start). */
  async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, application_name: 'tributary-live' });
    client.on('notification', (notice) => {
      if (notice.channel === this.#channel && notice.payload) this.#observer.message(notice.payload);
    });
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    try {
      await client.connect();
      await client.query(`listen ${pg.escapeIdentifier(this.#channel)}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.#client = client;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client || this.#closed) return;
    this.#client = undefined;
    void client.end().catch(() => {});
    this.#logger.error({ channel: this.#channel }, 'Live-update channel lost; reconnecting with backoff');
    this.#observer.down();
    this.#reconnect();
  }

  #reconnect(): void {
    this.#retry = setTimeout(() => {
      if (this.#closed) return;
      this.open().then(
        () => {
          this.#waitMs = BACKOFF.firstMs;
          this.#logger.info({ channel: this.#channel }, 'Live-update channel back');
          this.#observer.up();
        },
        () => {
          this.#waitMs = Math.min(this.#waitMs * 2, BACKOFF.lastMs);
          this.#reconnect();
        },
      );
    }, this.#waitMs);
    this.#retry.unref();
  }
}
