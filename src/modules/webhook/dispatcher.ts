import type { Job } from 'pg-boss';
import type { Logger } from 'pino';
import { encodeId } from '../../lib/ids.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import type { AttemptJob, AttemptQueue, Skipped } from './attempt-queue.ts';

/** Attempts one instance makes at once; a subscription has at most one of them. */
export const MAX_ATTEMPTS_IN_FLIGHT = 32;
/** Attempts one environment may have in flight in one instance: the other slots stay for other tenants. */
export const MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT = 8;
/** How often an instance with nothing to do looks for attempts that other instances queued. */
const POLL_MS = 1000;

/**
 * The environments each fetch for a free slot passes over, in the order to try them until one finds
 * a job: first every environment with an attempt in flight here, then every one above the fewest
 * attempts in flight, and so on; an environment at MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT always.
 * The environment with the fewest attempts in flight here thus gets the next slot.
 */
export function fairFetches(inFlight: ReadonlyMap<string, number>): string[][] {
  const levels = [...new Set(inFlight.values())].filter((count) => count < MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT).sort((a, b) => a - b);
  return [0, ...levels].map((level) => [...inFlight].filter(([, count]) => count > level).map(([environmentId]) => environmentId));
}

/**
 * Decides which attempts this instance makes: it fetches attempt jobs itself, up to
 * MAX_ATTEMPTS_IN_FLIGHT at once, never a second one for a subscription that has one in flight here,
 * and shares the slots fairly among environments (`fairFetches`). A slow or failing endpoint holds one
 * slot for about the attempt's deadline at most and delays only its own subscription's events, which
 * wait their turn (oldest job first); a tenant's many slow endpoints hold at most
 * MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT slots. Every instance shares its own slots so: the
 * fairness holds however pg-boss spreads the jobs over instances.
 */
export class WebhookDispatcher {
  readonly #queue: AttemptQueue;
  readonly #attempt: (deliveryId: string) => Promise<void>;
  readonly #logger: Logger;
  readonly #metrics: Metrics | undefined;
  /** Subscriptions with an attempt in flight in this instance, to the attempt and its job's settlement. */
  readonly #inFlight = new Map<string, Promise<void>>();
  /** Attempts in flight in this instance per environment (only environments with some). */
  readonly #perEnvironment = new Map<string, number>();
  #dispatching: Promise<void> | undefined;
  #stopped = false;
  /** Set when a slot or new work may be there, so the dispatcher fetches again instead of pausing. */
  #woken = false;
  #resume: (() => void) | undefined;

  constructor(queue: AttemptQueue, attempt: (deliveryId: string) => Promise<void>, logger: Logger, metrics: Metrics | undefined) {
    this.#queue = queue;
    this.#attempt = attempt;
    this.#logger = logger;
    this.#metrics = metrics;
  }

  start(): void {
    this.#dispatching = this.#dispatch();
  }

  /** Stops fetching, and waits for the attempts in flight (each ends within its deadline). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.wake();
    await this.#dispatching;
    await Promise.all(this.#inFlight.values());
  }

  /** New attempts may be due: fetch again at once. */
  wake(): void {
    this.#woken = true;
    this.#resume?.();
  }

  async #dispatch(): Promise<void> {
    while (!this.#stopped) {
      this.#woken = false;
      let job: Job<AttemptJob> | undefined;
      if (this.#inFlight.size < MAX_ATTEMPTS_IN_FLIGHT) {
        try {
          job = await this.#fetchFairly();
        } catch (error) {
          this.#logger.error({ err: error }, 'fetching webhook attempts failed');
        }
      }
      if (job) this.#run(job);
      else await this.#pause();
    }
  }

  /** The next job of the environment with the fewest attempts in flight here that has one due. */
  async #fetchFairly(): Promise<Job<AttemptJob> | undefined> {
    const subscriptions = [...this.#inFlight.keys()];
    for (const environments of fairFetches(this.#perEnvironment)) {
      const skipped: Skipped = { subscriptions, environments };
      const job = await this.#queue.fetch(skipped);
      if (job) return job;
    }
    return undefined;
  }

  /** Makes the job's attempt in the background and settles the job; its slot is then free. */
  #run(job: Job<AttemptJob>): void {
    const { deliveryId, subscriptionId } = job.data;
    // Jobs queued before environments were fair-shared count as an environment of their own.
    const environmentId = job.data.environmentId ?? subscriptionId;
    const started = performance.now();
    const finished = (outcome: 'completed' | 'failed') => this.#metrics?.jobFinished(this.#queue.name, outcome, (performance.now() - started) / 1000);
    const settled = this.#attempt(deliveryId)
      .then(
        () => {
          finished('completed');
          return this.#queue.complete(job);
        },
        (error: unknown) => {
          finished('failed');
          this.#logger.error({ err: error, deliveryId: encodeId('webhookDelivery', deliveryId) }, 'webhook attempt failed inside Tributary; it will be retried');
          return this.#queue.fail(job, error instanceof Error ? error.message : String(error));
        },
      )
      .then(
        () => undefined,
        (error: unknown) => this.#logger.error({ err: error }, 'settling a webhook attempt job failed'),
      )
      .finally(() => {
        this.#inFlight.delete(subscriptionId);
        const left = (this.#perEnvironment.get(environmentId) ?? 1) - 1;
        if (left > 0) this.#perEnvironment.set(environmentId, left);
        else this.#perEnvironment.delete(environmentId);
        this.wake();
      });
    this.#inFlight.set(subscriptionId, settled);
    this.#perEnvironment.set(environmentId, (this.#perEnvironment.get(environmentId) ?? 0) + 1);
  }

  /** Waits POLL_MS, or less if woken (at once if woken since the last fetch began). */
  async #pause(): Promise<void> {
    if (this.#woken) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, POLL_MS);
      this.#resume = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.#resume = undefined;
  }
}
