import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createSecureContext, rootCertificates, type ConnectionOptions } from 'node:tls';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Job, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId, uuidv7 } from '../../lib/ids.ts';
import type { Metrics, WebhookOutcome } from '../../metrics/metrics.ts';
import { EnvironmentModes } from '../environment/environment.service.ts';
import { presentEvent } from '../event/event.presenter.ts';
import { takeUndispatched } from '../event/event.service.ts';
import { matchesEventType } from '../event/event.types.ts';
import { signatureHeader } from './signing.ts';
import { checkTarget, type CheckedTarget } from './target.ts';
import { WebhookDelivery, WebhookSubscription, type WebhookDeliveryEntity, type WebhookSubscriptionEntity } from './webhook.entity.ts';
import { claimDelivery, owedDeliveries, SWEEP_ROWS } from './webhook.store.ts';

/** Delays before each retry after a failure: about three days in all (the contract's schedule). */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 72_000];
/** Attempts one instance makes at once; a subscription has at most one of them. */
export const MAX_ATTEMPTS_IN_FLIGHT = 32;
/** An attempt (connecting, sending, reading the answer) ends after this, however the receiver behaves. */
const TIMEOUT_MS = 15_000;
/** How long an attempt's claim lasts: past it, the attempt is taken as lost (its worker died). */
const CLAIM_MS = TIMEOUT_MS + 5_000;
/** How often an instance with nothing to do looks for attempts that other instances queued. */
const POLL_MS = 1000;
/** Events one relay pass takes; a full pass means more wait, so the relay passes again at once. */
const RELAY_EVENTS = 100;
/** While passes come back full, the relay sweeps at most this often (the sweep otherwise follows the last pass). */
const SWEEP_MS = 1000;
const EXCERPT_BYTES = 1024;
const DELIVER = 'webhook.deliver';

/** An attempt to queue: the job `jobId` makes the attempt of row `deliveryId` at `at`. */
export interface QueuedAttempt {
  deliveryId: string;
  subscriptionId: string;
  at: Date;
  jobId: string;
}

type AttemptJob = Pick<QueuedAttempt, 'deliveryId' | 'subscriptionId'>;

export interface WebhookDeliveryOptions {
  orm: MikroORM;
  cipher: FieldCipher;
  logger: Logger;
  allowPrivate: boolean;
  caFile: string | undefined;
  now?: () => Date;
  /** Queues attempts (pg-boss once started; tests capture them). */
  enqueue?: (attempts: QueuedAttempt[]) => Promise<void>;
  /** Counts attempts and their lag; absent, nothing is counted (tests that drive attempts themselves). */
  metrics?: Metrics;
}

/**
 * Webhook delivery. The relay turns outbox events into PENDING delivery rows (one per matching
 * subscription) in one transaction and queues a pg-boss job per row; an attempt claims its row, POSTs
 * the signed event, records the outcome and queues the next attempt on failure. Rows are the durable
 * state: the relay also re-queues owed rows whose job is gone, so a crash loses nothing.
 *
 * Each instance fetches attempt jobs itself, up to MAX_ATTEMPTS_IN_FLIGHT at once and never a second
 * one for a subscription that has one in flight here (its jobs carry the subscription as their pg-boss
 * group): a slow or failing endpoint holds one slot for about TIMEOUT_MS at most and delays only its
 * own subscription's events, which wait their turn (oldest job first).
 */
export class WebhookDeliveries {
  readonly #options: WebhookDeliveryOptions;
  readonly #now: () => Date;
  /**
   * With WEBHOOK_CA_FILE, the trusted roots, parsed once: parsing them for every attempt cost ~12 ms
   * of CPU each, and hundreds of MB of memory with 32 attempts in flight.
   */
  readonly #tls: Pick<ConnectionOptions, 'secureContext'>;
  readonly #modes: EnvironmentModes;
  #enqueue: ((attempts: QueuedAttempt[]) => Promise<void>) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #relaying: Promise<void> | undefined;
  /** Where the relay's sweep of owed rows resumes (its last row), or undefined to start over. */
  #swept: { at: string; id: string } | undefined;
  /** Subscriptions with an attempt in flight in this instance, to the attempt and its job's settlement. */
  readonly #inFlight = new Map<string, Promise<void>>();
  #dispatching: Promise<void> | undefined;
  #stopped = false;
  /** Set when a slot or new work may be there, so the dispatcher fetches again instead of pausing. */
  #woken = false;
  #resume: (() => void) | undefined;

  constructor(options: WebhookDeliveryOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#tls = { secureContext: options.caFile ? createSecureContext({ ca: [...rootCertificates, readFileSync(options.caFile, 'utf8')] }) : undefined };
    this.#modes = new EnvironmentModes(options.orm);
    this.#enqueue = options.enqueue;
  }

  /**
   * Creates the attempt queue on the started pg-boss; with `work` (roles `worker` and `all`), relays
   * every second and makes attempts. Without, it only queues redeliveries (role `api`).
   */
  async start(boss: PgBoss, options: { work: boolean } = { work: true }): Promise<void> {
    // An attempt that throws (not one the endpoint fails) is retried. Attempts send no heartbeats, and
    // end within TIMEOUT_MS: a job still active after a minute belongs to a worker that died.
    const settings = { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 };
    await boss.createQueue(DELIVER, settings);
    // createQueue leaves a queue that exists as it was: this build's settings apply to it too.
    await boss.updateQueue(DELIVER, { ...settings, heartbeatSeconds: null });
    this.#enqueue ??= async (attempts) => {
      if (attempts.length === 0) return;
      await boss.insert(
        DELIVER,
        attempts.map(({ deliveryId, subscriptionId, at, jobId }) => ({ id: jobId, data: { deliveryId, subscriptionId }, startAfter: at, group: { id: subscriptionId } })),
      );
      this.#wake();
    };
    if (!options.work) return;
    this.#timer = setInterval(() => void this.relay(), 1000);
    this.#dispatching = this.#dispatch(boss);
  }

  /** Queues a new row's attempt (a redelivery). */
  async queue(delivery: WebhookDeliveryEntity): Promise<void> {
    await this.#enqueue!([queued(delivery)]);
  }

  /** Stops relaying and fetching, and waits for the attempts in flight (each ends within TIMEOUT_MS). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#wake();
    await this.#relaying;
    await this.#dispatching;
    await Promise.all(this.#inFlight.values());
  }

  /** Fetches attempt jobs while a slot is free, skipping subscriptions that have one in flight here. */
  async #dispatch(boss: PgBoss): Promise<void> {
    while (!this.#stopped) {
      this.#woken = false;
      let job: Job<AttemptJob> | undefined;
      if (this.#inFlight.size < MAX_ATTEMPTS_IN_FLIGHT) {
        try {
          [job] = await boss.fetch<AttemptJob>(DELIVER, { ignoreGroups: [...this.#inFlight.keys()] });
        } catch (error) {
          this.#options.logger.error({ err: error }, 'fetching webhook attempts failed');
        }
      }
      if (job) this.#run(boss, job);
      else await this.#pause();
    }
  }

  /** Makes the job's attempt in the background and settles the job; its subscription's slot is then free. */
  #run(boss: PgBoss, job: Job<AttemptJob>): void {
    const { deliveryId, subscriptionId } = job.data;
    const started = performance.now();
    const finished = (outcome: 'completed' | 'failed') => this.#options.metrics?.jobFinished(DELIVER, outcome, (performance.now() - started) / 1000);
    const settled = this.attempt(deliveryId)
      .then(
        () => {
          finished('completed');
          return boss.complete(DELIVER, job.id);
        },
        (error: unknown) => {
          finished('failed');
          this.#options.logger.error({ err: error, deliveryId: encodeId('webhookDelivery', deliveryId) }, 'webhook attempt failed inside Tributary; it will be retried');
          return boss.fail(DELIVER, job.id, { message: error instanceof Error ? error.message : String(error) });
        },
      )
      .then(
        () => undefined,
        (error: unknown) => this.#options.logger.error({ err: error }, 'settling a webhook attempt job failed'),
      )
      .finally(() => {
        this.#inFlight.delete(subscriptionId);
        this.#wake();
      });
    this.#inFlight.set(subscriptionId, settled);
  }

  #wake(): void {
    this.#woken = true;
    this.#resume?.();
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

  /**
   * Relays the outbox (at most one relay at a time per process): passes of RELAY_EVENTS events, one
   * after another while they come back full (other work gets a turn in between) and until stop(), then
   * a sweep. Errors are logged; the next relay retries.
   */
  relay(): Promise<void> {
    this.#relaying ??= this.#relayWhileFull()
      .catch((error) => this.#options.logger.error({ err: error }, 'webhook relay failed'))
      .finally(() => {
        this.#relaying = undefined;
      });
    return this.#relaying;
  }

  async #relayWhileFull(): Promise<void> {
    // Not after every pass: during a backlog most owed rows are merely waiting for their queued attempt.
    let sweptAt = performance.now();
    while ((await this.#relayPass()) === RELAY_EVENTS && !this.#stopped) {
      if (performance.now() - sweptAt >= SWEEP_MS) {
        await this.#sweep(this.#options.orm.em.fork());
        sweptAt = performance.now();
      }
      await nextTurn();
    }
    await this.#sweep(this.#options.orm.em.fork());
  }

  /** Turns up to RELAY_EVENTS outbox events into delivery rows and queues their attempts; returns how many events it took. */
  async #relayPass(): Promise<number> {
    const em = this.#options.orm.em.fork();
    const { taken, created } = await em.transactional(async (tx) => {
      const events = await takeUndispatched(tx, RELAY_EVENTS, this.#now());
      const deliveries: WebhookDeliveryEntity[] = [];
      const subscriptions = new Map<string, WebhookSubscriptionEntity[]>();
      for (const event of events) {
        const environmentId = event.environment.id;
        if (!subscriptions.has(environmentId)) subscriptions.set(environmentId, await tx.find(WebhookSubscription, { environment: environmentId, disabled: false }));
        for (const subscription of subscriptions.get(environmentId)!) {
          const wanted = subscription.eventTypes.length === 0 || subscription.eventTypes.some((filter) => matchesEventType(event.type, filter));
          if (!wanted || subscription.createdAt > event.at) continue;
          deliveries.push(tx.create(WebhookDelivery, { id: uuidv7(), subscription, event, attempt: 1, redelivery: false, status: 'PENDING', at: this.#now() }));
        }
      }
      return { taken: events.length, created: deliveries };
    });
    await this.#enqueue!(created.map(queued));
    return taken;
  }

  /**
   * Queues again the owed rows whose job may be gone, SWEEP_ROWS per pass from where the last pass
   * stopped. A row never claimed gets its own job id again: a no-op while that job exists (it is gone
   * only if a process died between writing the row and queuing it), so rows waiting behind a slow
   * endpoint are not queued twice. A lapsed claim (its worker died) gets one new job per lapse, its
   * id a hash of the row and the claim, the same in every instance.
   */
  async #sweep(em: ReturnType<MikroORM['em']['fork']>): Promise<void> {
    const now = this.#now();
    const from = this.#swept ?? { at: new Date(0).toISOString(), id: '00000000-0000-0000-0000-000000000000' };
    const owed = await owedDeliveries(em, new Date(now.getTime() - CLAIM_MS), now, from);
    const last = owed.at(-1);
    this.#swept = owed.length === SWEEP_ROWS && last ? { at: last.at, id: last.id } : undefined;
    await this.#enqueue!(owed.map((row) => ({ deliveryId: row.id, subscriptionId: row.subscriptionId, at: now, jobId: row.jobId })));
  }

  /** Makes one attempt, if the row is still owed one and no other worker holds it. */
  async attempt(deliveryId: string): Promise<void> {
    const em = this.#options.orm.em.fork();
    const now = this.#now();
    if (!(await claimDelivery(em, deliveryId, new Date(now.getTime() + CLAIM_MS), now))) return;
    const delivery = await em.findOneOrFail(WebhookDelivery, { id: deliveryId }, { populate: ['subscription', 'event'] });
    const { subscription } = delivery;
    const kind = delivery.redelivery ? 'redelivery' : delivery.attempt === 1 ? 'first' : 'retry';
    if (subscription.disabled && !delivery.redelivery) {
      Object.assign(delivery, { status: 'FAILED', error: 'The subscription is disabled', nextAttemptAt: null, claimedUntil: null });
      await em.flush();
      this.#options.metrics?.webhookAttempt('disabled', kind, undefined);
      return;
    }
    const mode = await this.#modes.of(subscription.environment.id);
    const target = await checkTarget(subscription.targetUrl, { httpsOnly: mode === 'PRODUCTION', allowPrivate: this.#options.allowPrivate });
    const outcome = 'refused' in target ? { error: `Refused: ${target.refused}` } : await this.#post(target, subscription, delivery);
    this.#options.metrics?.webhookAttempt('refused' in target ? 'refused' : answered(outcome.status), kind, (now.getTime() - delivery.event.at.getTime()) / 1000);
    await this.#record(em, delivery, outcome);
  }

  async #post(target: CheckedTarget, subscription: WebhookSubscriptionEntity, delivery: WebhookDeliveryEntity): Promise<Outcome> {
    const event = presentEvent(delivery.event);
    const body = JSON.stringify(event);
    const timestamp = Math.floor(this.#now().getTime() / 1000);
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'Tributary-Webhooks/1',
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(this.#secrets(subscription), event.id, timestamp, body),
    };
    const started = performance.now();
    const request = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Outcome>((resolve) => {
      const settle = (outcome: Omit<Outcome, 'durationMs'>) => {
        clearTimeout(deadline);
        resolve({ ...outcome, durationMs: Math.round(performance.now() - started) });
      };
      const req = request(
        target.url,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
          // Connect to the address that was checked, so a DNS answer cannot change in between. The TLS
          // name stays Node's own: the host, or none for an IP address (checked against the certificate's IPs).
          lookup: (_host, options, callback) =>
            options.all ? callback(null, [{ address: target.address, family: target.family }]) : callback(null, target.address, target.family),
          ...this.#tls,
          agent: false,
        },
        (res) => {
          readExcerpt(res).then(
            (excerpt) => settle({ status: res.statusCode!, excerpt, retryAfter: res.headers['retry-after'] }),
            (error: Error) => settle({ error: error.message }),
          );
        },
      );
      // One deadline for the whole attempt (an idle timeout would let a receiver that trickles bytes hold it).
      const deadline = setTimeout(() => {
        settle({ error: `no answer within ${TIMEOUT_MS / 1000} s` });
        req.destroy();
      }, TIMEOUT_MS);
      req.on('error', (error) => settle({ error: error.message }));
      req.end(body);
    });
  }

  #secrets(subscription: WebhookSubscriptionEntity): string[] {
    const { cipher } = this.#options;
    const secrets = [cipher.decrypt('webhookSecret', subscription, subscription.secretEncrypted)];
    if (subscription.previousSecretEncrypted && subscription.previousSecretExpiresAt && subscription.previousSecretExpiresAt > this.#now()) {
      secrets.push(cipher.decrypt('webhookSecret', subscription, subscription.previousSecretEncrypted));
    }
    return secrets;
  }

  /** Stores the outcome; on failure queues the next attempt (none after a redelivery, a 410 or the last delay). */
  async #record(em: ReturnType<MikroORM['em']['fork']>, delivery: WebhookDeliveryEntity, outcome: Outcome): Promise<void> {
    const now = this.#now();
    const succeeded = answered(outcome.status) === 'succeeded';
    const gone = answered(outcome.status) === 'gone';
    Object.assign(delivery, {
      status: succeeded ? 'SUCCEEDED' : 'FAILED',
      at: now,
      responseStatus: outcome.status ?? null,
      durationMs: outcome.durationMs ?? null,
      responseExcerpt: outcome.excerpt || null,
      error: succeeded ? null : (outcome.error ?? `The endpoint answered ${outcome.status}`),
      claimedUntil: null,
    });
    let next: WebhookDeliveryEntity | undefined;
    if (gone) {
      Object.assign(delivery.subscription, { disabled: true, disabledReason: `The endpoint answered 410 Gone at ${now.toISOString()}` });
    } else if (!succeeded && !delivery.redelivery && delivery.attempt <= RETRY_DELAYS_SECONDS.length) {
      const delay = Math.max(RETRY_DELAYS_SECONDS[delivery.attempt - 1]! * 1000, retryAfterMs(outcome.retryAfter, now));
      const at = new Date(now.getTime() + delay);
      delivery.nextAttemptAt = at;
      next = em.create(WebhookDelivery, { id: uuidv7(), subscription: delivery.subscription, event: delivery.event, attempt: delivery.attempt + 1, redelivery: false, status: 'PENDING', at });
    }
    await em.flush();
    if (next) await this.#enqueue!([queued(next)]);
    if (!succeeded) this.#options.logger.info({ deliveryId: encodeId('webhookDelivery', delivery.id), status: outcome.status, error: delivery.error }, 'webhook attempt failed');
  }
}

/** A new row's attempt: its job id is the row's id, so queuing it again is a no-op. */
function queued(delivery: WebhookDeliveryEntity): QueuedAttempt {
  return { deliveryId: delivery.id, subscriptionId: delivery.subscription.id, at: delivery.at, jobId: delivery.id };
}

/** What an attempt's answer means; no status: the endpoint never answered. */
function answered(status: number | undefined): WebhookOutcome {
  if (status === undefined) return 'unreachable';
  if (status >= 200 && status < 300) return 'succeeded';
  return status === 410 ? 'gone' : 'failed';
}

interface Outcome {
  status?: number;
  excerpt?: string;
  retryAfter?: string;
  error?: string;
  durationMs?: number;
}

/** The first KiB of a response body; the rest is read and dropped. */
async function readExcerpt(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    if (size < EXCERPT_BYTES) chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from now (0 when absent). */
function retryAfterMs(value: string | undefined, now: Date): number {
  if (!value) return 0;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? 0 : Math.max(0, date - now.getTime());
}
