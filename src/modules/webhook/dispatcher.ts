import type { Job } from 'pg-boss';
import type { Logger } from 'pino';
import type { DatabaseOutage } from '../../db/database-outage.ts';
import { encodeId } from '../../lib/ids.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import type { AttemptJob, AttemptQueue } from './attempt-queue.ts';
import type { AttemptRun } from './attempts.ts';
import { fairFetches, shareFetched } from './fair-share.ts';

/** Attempts one instance makes at once; a subscription has at most one of them. */
export const MAX_ATTEMPTS_IN_FLIGHT = 32;
/** How often an instance with nothing to do looks for attempts that other instances queued. */
const POLL_MS = 1000;

/**
 * Decides which attempts this instance makes: it fetches attempt jobs itself, as many per fetch as it
 * has free slots (fewer while its fetches find a few subscriptions' backlogs: #fetched), up to
 * MAX_ATTEMPTS_IN_FLIGHT at once, never a second one for a subscription that has one in flight here,
 * and shares the slots fairly among environments (`fairFetches`, `shareFetched`); the jobs of a fetch
 * it does not take go back to the queue. A slow or failing endpoint holds one
 * slot for about the attempt's deadline at most and delays only its own subscription's events, which
 * wait their turn (oldest job first); a tenant's many slow endpoints hold at most
 * MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT slots. Every instance shares its own slots so: the
 * fairness holds however pg-boss spreads the jobs over instances.
 */
export class WebhookDispatcher {
  readonly #queue: AttemptQueue;
  /** Makes the attempts of these rows: one run per row, in their order. */
  readonly #attempt: (deliveryIds: string[]) => AttemptRun[];
  readonly #logger: Logger;
  readonly #outage: Pick<DatabaseOutage, 'report'>;
  readonly #metrics: Metrics | undefined;
  /** Subscriptions with an attempt in flight in this instance, to the attempt. */
  readonly #inFlight = new Map<string, Promise<void>>();
  /** Jobs being completed or failed after their attempts ended. */
  readonly #settling = new Set<Promise<void>>();
  /** Attempts in flight in this instance per environment (only environments with some). */
  readonly #perEnvironment = new Map<string, number>();
  /** Jobs the next fetch asks for at most (besides the free slots): see #fetched. */
  #fetchLimit = MAX_ATTEMPTS_IN_FLIGHT;
  #dispatching: Promise<void> | undefined;
  #stopped = false;
  /** Set when a slot or new work may be there, so the dispatcher fetches again instead of pausing. */
  #woken = false;
  #resume: (() => void) | undefined;

  constructor(queue: AttemptQueue, attempt: (deliveryIds: string[]) => AttemptRun[], logger: Logger, outage: Pick<DatabaseOutage, 'report'>, metrics: Metrics | undefined) {
    this.#queue = queue;
    this.#attempt = attempt;
    this.#logger = logger;
    this.#outage = outage;
    this.#metrics = metrics;
  }

  start(): void {
    this.#dispatching = this.#dispatch();
  }

  /** Stops fetching, and waits for the attempts in flight (each ends within its deadline) and their jobs' settlement. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.wake();
    await this.#dispatching;
    await Promise.all(this.#inFlight.values());
    await Promise.all(this.#settling);
  }

  /** New attempts may be due: fetch again at once. */
  wake(): void {
    this.#woken = true;
    this.#resume?.();
  }

  async #dispatch(): Promise<void> {
    while (!this.#stopped) {
      this.#woken = false;
      let started = 0;
      try {
        started = await this.#fillSlots();
      } catch (error) {
        this.#outage.report(error, this.#logger, 'fetching webhook attempts failed');
      }
      if (started === 0) await this.#pause();
    }
  }

  /**
   * Fetches jobs for the free slots and starts their attempts, the environments with the fewest
   * attempts in flight here first; after each fetch that started some, the levels have moved, so it
   * fetches again with new ones until the slots are full or no fetch finds a job. Returns how many it started.
   */
  async #fillSlots(): Promise<number> {
    let started = 0;
    let found = true;
    while (found && !this.#stopped && this.#inFlight.size < MAX_ATTEMPTS_IN_FLIGHT) {
      found = false;
      for (const { skipped, bound } of fairFetches(this.#perEnvironment)) {
        const free = MAX_ATTEMPTS_IN_FLIGHT - this.#inFlight.size;
        const busy = new Set(this.#inFlight.keys());
        const asked = Math.min(free, this.#fetchLimit);
        const jobs = await this.#queue.fetch({ subscriptions: [...busy], environments: skipped }, asked);
        this.#fetched(jobs, asked);
        if (jobs.length === 0) continue;
        const { taken, left } = shareFetched(jobs.map(candidate), this.#perEnvironment, busy, free, bound);
        const attempts = this.#attempt(taken.map(({ job }) => job.data.deliveryId));
        taken.forEach(({ job }, index) => this.#run(job, attempts[index]!));
        started += taken.length;
        found = true;
        await this.#queue.restore(left.map(({ job }) => job));
        break;
      }
    }
    return started;
  }

  /**
   * Sizes the next fetch by this one, which asked for `asked` jobs. A fetch whose jobs repeat
   * subscriptions (a backlog of few subscriptions' events, the oldest jobs first) can start one attempt
   * per subscription and puts the rest back, two writes per job: the next asks for twice as many jobs
   * as it found subscriptions, so one subscription's backlog fetches two jobs per attempt instead of
   * every free slot's. A full fetch without repeats lets the next ask for every free slot again; one
   * that found fewer than it asked, or nothing, says nothing new of the backlog.
   */
  #fetched(jobs: Job<AttemptJob>[], asked: number): void {
    const subscriptions = new Set(jobs.map((job) => job.data.subscriptionId)).size;
    if (subscriptions < jobs.length) this.#fetchLimit = Math.max(2, 2 * subscriptions);
    else if (jobs.length === asked) this.#fetchLimit = MAX_ATTEMPTS_IN_FLIGHT;
  }

  /**
   * Frees the job's slot once its attempt, under way, has been answered (`AttemptRun.sent`), and settles
   * the job once the outcome is written: a completed job is bookkeeping only, as its row is no longer owed.
   */
  #run(job: Job<AttemptJob>, attempt: AttemptRun): void {
    const { deliveryId } = job.data;
    const { subscriptionId, environmentId } = candidate(job);
    const started = performance.now();
    const finished = (outcome: 'completed' | 'failed') => this.#metrics?.jobFinished(this.#queue.name, outcome, (performance.now() - started) / 1000);
    const settled = attempt.recorded
      .then(
        () => {
          finished('completed');
          return this.#queue.complete(job);
        },
        (error: unknown) => {
          finished('failed');
          this.#outage.report(error, this.#logger, 'webhook attempt failed inside Tributary; it will be retried', { deliveryId: encodeId('webhookDelivery', deliveryId) });
          return this.#queue.fail(job, error instanceof Error ? error.message : String(error));
        },
      )
      .then(
        () => undefined,
        (error: unknown) => this.#outage.report(error, this.#logger, 'settling a webhook attempt job failed'),
      )
      .finally(() => this.#settling.delete(settled));
    this.#settling.add(settled);
    const slot = attempt.sent.finally(() => {
      this.#inFlight.delete(subscriptionId);
      const left = (this.#perEnvironment.get(environmentId) ?? 1) - 1;
      if (left > 0) this.#perEnvironment.set(environmentId, left);
      else this.#perEnvironment.delete(environmentId);
      this.wake();
    });
    this.#inFlight.set(subscriptionId, slot);
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

/** A job as the fair share sees it: jobs queued before environments were fair-shared count as an environment of their own. */
function candidate(job: Job<AttemptJob>) {
  return { job, subscriptionId: job.data.subscriptionId, environmentId: job.data.environmentId ?? job.data.subscriptionId };
}
