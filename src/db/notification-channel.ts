import pg from 'pg';
import type { Logger } from 'pino';

/** Reconnection waits double from the first to the last, then stay there. */
const BACKOFF = { firstMs: 250, lastMs: 10_000 };

/** Which channel, as the database's connection list and the logs name it. */
export interface ChannelName {
  channel: string;
  /** The connection's `application_name` (an operator, or a test, finds its backend by it). */
  applicationName: string;
  /** What the logs call it. */
  label: string;
}

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
  readonly #name: ChannelName;
  readonly #observer: ChannelObserver;
  readonly #logger: Logger;
  #client: pg.Client | undefined;
  #retry: NodeJS.Timeout | undefined;
  #waitMs = BACKOFF.firstMs;
  #closed = false;

  constructor(url: string, name: ChannelName, observer: ChannelObserver, logger: Logger) {
    this.#url = url;
    this.#name = name;
    this.#observer = observer;
    this.#logger = logger;
  }

  /** Connects and listens; resolves once listening (a failure here is the caller's: the service does not start). */
  async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, application_name: this.#name.applicationName });
    client.on('notification', (notice) => {
      if (notice.channel === this.#name.channel && notice.payload) this.#observer.message(notice.payload);
    });
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    try {
      await client.connect();
      await client.query(`listen ${pg.escapeIdentifier(this.#name.channel)}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.#client = client;
  }

  /**
   * Whether a round trip on the listening connection answers within `timeoutMs`. PostgreSQL sends a
   * listener the notifications already committed before it answers a query, so a ping sent at `t`
   * that answers means nothing committed before `t` is still on its way. A ping left unanswered
   * counts as losing the channel (a connection that died silently).
   */
  async ping(timeoutMs: number): Promise<boolean> {
    const client = this.#client;
    if (!client) return false;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const answered = await Promise.race([client.query('select 1').then(() => true, () => false), timedOut]);
    clearTimeout(timer);
    if (!answered) this.#lost(client);
    return answered;
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
    this.#logger.error({ channel: this.#name.channel }, `${this.#name.label} channel lost; reconnecting with backoff`);
    this.#observer.down();
    this.#reconnect();
  }

  #reconnect(): void {
    this.#retry = setTimeout(() => {
      if (this.#closed) return;
      this.open().then(
        () => {
          this.#waitMs = BACKOFF.firstMs;
          this.#logger.info({ channel: this.#name.channel }, `${this.#name.label} channel back`);
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
