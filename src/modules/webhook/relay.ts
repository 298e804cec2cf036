import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { DatabaseOutage } from '../../db/database-outage.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { takeUndispatched } from '../event/event.service.ts';
import { matchesEventType } from '../event/event.types.ts';
import { CLAIM_MS } from './attempt-deadlines.ts';
import { queued, type Enqueue } from './attempt-queue.ts';
import { WebhookDelivery, type WebhookDeliveryEntity } from './webhook.entity.ts';
import { enabledSubscriptions, owedDeliveries, SWEEP_ROWS } from './webhook.store.ts';

/**
 * How often a worker relays: the outbox has no notification of its own, so this is the delay between an
 * event's commit and its first attempt (half of it on average). An empty pass is one indexed read in a
 * short transaction.
 */
const RELAY_MS = 200;
/** Events one relay pass takes; a full pass means more wait, so the relay passes again at once. */
const RELAY_EVENTS = 100;
/** A worker's relays sweep owed rows at most this often (a relay asked for by relay() always does). */
const SWEEP_MS = 1000;

export interface WebhookRelayOptions {
  orm: MikroORM;
  enqueue: Enqueue;
  logger: Logger;
  /** Where a relay's failure goes: a database outage is logged once there. */
  outage: Pick<DatabaseOutage, 'report'>;
  now: () => Date;
}

/**
 * The outbox relay: turns outbox events into PENDING delivery rows (one per matching subscription)
 * in one transaction and queues their attempts. Rows are the durable state: the relay's sweep also
 * re-queues owed rows whose job is gone, so a crash loses nothing.
 */
export class WebhookRelay {
  readonly #options: WebhookRelayOptions;
  #timer: NodeJS.Timeout | undefined;
  #relaying: Promise<void> | undefined;
  #stopped = false;
  /** Where the sweep of owed rows resumes (its last row), or undefined to start over. */
  #swept: { at: string; id: string } | undefined;
  /** When the last sweep began (performance.now()). */
  #sweptAt = Number.NEGATIVE_INFINITY;

  constructor(options: WebhookRelayOptions) {
    this.#options = options;
  }

  /** Relays every RELAY_MS until stop(). */
  start(): void {
    this.#timer = setInterval(() => void this.#relay(false), RELAY_MS);
  }

  /** Stops relaying, and waits for a relay under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#relaying;
  }

  /**
   * Relays the outbox (at most one relay at a time per process; a call during one joins it): passes of
   * RELAY_EVENTS events, one after another while they come back full (other work gets a turn in
   * between) and until stop(), then a sweep. Errors are logged; the next relay retries.
   */
  relay(): Promise<void> {
    return this.#relay(true);
  }

  /** A relay; its last sweep only if `sweep` or SWEEP_MS have passed since the last one. */
  #relay(sweep: boolean): Promise<void> {
    this.#relaying ??= this.#relayWhileFull(sweep)
      .catch((error: unknown) => this.#options.outage.report(error, this.#options.logger, 'webhook relay failed'))
      .finally(() => {
        this.#relaying = undefined;
      });
    return this.#relaying;
  }

  async #relayWhileFull(sweep: boolean): Promise<void> {
    // Not after every pass: during a backlog most owed rows are merely waiting for their queued attempt.
    const due = () => performance.now() - this.#sweptAt >= SWEEP_MS;
    while ((await this.#relayPass()) === RELAY_EVENTS && !this.#stopped) {
      if (due()) await this.#sweep(this.#options.orm.em.fork());
      await nextTurn();
    }
    if (sweep || due()) await this.#sweep(this.#options.orm.em.fork());
  }

  /** Turns up to RELAY_EVENTS outbox events into delivery rows and queues their attempts; returns how many events it took. */
  async #relayPass(): Promise<number> {
    const { orm, now } = this.#options;
    const { taken, created } = await orm.em.fork().transactional(async (tx) => {
      const events = await takeUndispatched(tx, RELAY_EVENTS);
      const deliveries: WebhookDeliveryEntity[] = [];
      // One read for every environment of the pass (one per environment was most of a pass's time).
      const environmentIds = [...new Set(events.map((event) => event.environment.id))];
      const enabled = environmentIds.length > 0 ? await enabledSubscriptions(tx, environmentIds) : [];
      const subscriptions = Map.groupBy(enabled, (subscription) => subscription.environment.id);
      for (const event of events) {
        for (const subscription of subscriptions.get(event.environment.id) ?? []) {
          const wanted = subscription.eventTypes.length === 0 || subscription.eventTypes.some((filter) => matchesEventType(event.type, filter));
          if (!wanted || subscription.createdAt > event.at) continue;
          deliveries.push(tx.create(WebhookDelivery, { id: uuidv7(), subscription, event, attempt: 1, redelivery: false, status: 'PENDING', at: now() }));
        }
      }
      return { taken: events.length, created: deliveries };
    });
    await this.#options.enqueue(created.map(queued));
    return taken;
  }

  /**
   * Queues again the owed rows whose job may be gone, SWEEP_ROWS per pass from where the last pass
   * stopped. A row never claimed gets its own job id again: a no-op while that job exists (it is gone
   * only if a process died between writing the row and queuing it), so rows waiting behind a slow
   * endpoint are not queued twice. A lapsed claim (its worker died) gets one new job per lapse, its
   * id a hash of the row and the claim, the same in every instance.
   */
  async #sweep(em: EntityManager): Promise<void> {
    this.#sweptAt = performance.now();
    const now = this.#options.now();
    const from = this.#swept ?? { at: new Date(0).toISOString(), id: '00000000-0000-0000-0000-000000000000' };
    const owed = await owedDeliveries(em, new Date(now.getTime() - CLAIM_MS), now, from);
    const last = owed.at(-1);
    this.#swept = owed.length === SWEEP_ROWS && last ? { at: last.at, id: last.id } : undefined;
    await this.#options.enqueue(owed.map(({ id, subscriptionId, environmentId, jobId }) => ({ deliveryId: id, subscriptionId, environmentId, at: now, jobId })));
  }
}
