import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { DatabaseOutage } from '../../db/database-outage.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import { queued, type AttemptQueue, type Enqueue, type QueuedAttempt } from './attempt-queue.ts';
import { WebhookAttempts } from './attempts.ts';
import { WebhookDispatcher } from './dispatcher.ts';
import { WebhookRelay } from './relay.ts';
import { WebhookSender } from './sender.ts';
import type { Resolve } from './target.ts';
import type { WebhookDeliveryEntity } from './webhook.entity.ts';

export interface WebhookDeliveryOptions {
  orm: MikroORM;
  cipher: FieldCipher;
  logger: Logger;
  allowPrivate: boolean;
  caFile: string | undefined;
  /** Queues attempts: the attempt queue's `add` in the service; tests capture them. */
  enqueue: Enqueue;
  now?: () => Date;
  /** Resolves target hosts; the system resolver unless given. */
  resolve?: Resolve;
  /** An attempt's deadline; TIMEOUT_MS unless given. */
  attemptTimeoutMs?: number;
  /** Counts attempts and their lag; absent, nothing is counted (tests that drive attempts themselves). */
  metrics?: Metrics;
  /** Where the relay's and the dispatcher's failures go: a database outage is logged once there. */
  outage: Pick<DatabaseOutage, 'report'>;
}

/**
 * Webhook delivery, in parts: the relay (outbox → delivery rows and their queued attempts), the
 * dispatcher (which queued attempts this instance makes, fairly among environments), the attempts
 * (claim, send, record, queue the next one), the sender (the signed POST within its deadline), the
 * outcome recorder and the retry policy. Every instance queues attempts; workers also relay and
 * make them.
 */
export class WebhookDeliveries {
  readonly #enqueue: Enqueue;
  readonly #relay: WebhookRelay;
  readonly #attempts: WebhookAttempts;
  readonly #logger: Logger;
  readonly #metrics: Metrics | undefined;
  readonly #outage: Pick<DatabaseOutage, 'report'>;
  /** Only in a worker once started. */
  #dispatcher: WebhookDispatcher | undefined;

  constructor(options: WebhookDeliveryOptions) {
    const { orm, cipher, logger, allowPrivate, caFile, resolve, metrics, outage, attemptTimeoutMs } = options;
    const now = options.now ?? (() => new Date());
    this.#logger = logger;
    this.#metrics = metrics;
    this.#outage = outage;
    // Newly queued attempts wake this instance's dispatcher rather than wait for its next poll.
    this.#enqueue = async (attempts) => {
      await options.enqueue(attempts);
      if (attempts.length > 0) this.#dispatcher?.wake();
    };
    this.#relay = new WebhookRelay({ orm, enqueue: this.#enqueue, logger, outage, now });
    const sender = new WebhookSender({ cipher, allowPrivate, caFile, now, resolve, timeoutMs: attemptTimeoutMs });
    this.#attempts = new WebhookAttempts({ orm, sender, enqueue: this.#enqueue, logger, now, metrics });
  }

  /** Relays every second and makes the attempts of `queue` (roles `worker` and `all`). */
  start(queue: AttemptQueue): void {
    this.#dispatcher = new WebhookDispatcher(queue, (deliveryIds) => this.#attempts.attemptEach(deliveryIds), this.#logger, this.#outage, this.#metrics);
    this.#relay.start();
    this.#dispatcher.start();
  }

  /** Stops relaying and fetching, and waits for the attempts in flight. */
  async stop(): Promise<void> {
    await this.#relay.stop();
    await this.#dispatcher?.stop();
  }

  /** Queues a new row's attempt (a redelivery, a test event). */
  async queue(delivery: WebhookDeliveryEntity): Promise<void> {
    await this.#enqueue([queued(delivery)]);
  }

  /** Queues the attempts of new rows written by one statement (a range redelivery). */
  async queueAttempts(attempts: QueuedAttempt[]): Promise<void> {
    await this.#enqueue(attempts);
  }

  /** Relays the outbox now (a worker also does every second). */
  relay(): Promise<void> {
    return this.#relay.relay();
  }

  /** Makes one attempt, if the row is still owed one and no other worker holds it. */
  attempt(deliveryId: string): Promise<void> {
    return this.#attempts.attemptEach([deliveryId])[0]!.recorded;
  }
}
