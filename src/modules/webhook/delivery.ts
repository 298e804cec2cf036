import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { LockMode } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId, uuidv7 } from '../../lib/ids.ts';
import type { JobDefinition } from '../../jobs/queue.ts';
import { Environment } from '../environment/environment.entity.ts';
import { Event } from '../event/event.entity.ts';
import { presentEvent } from '../event/event.presenter.ts';
import { matchesEventType } from '../event/event.types.ts';
import { signatureHeader } from './signing.ts';
import { checkTarget, type CheckedTarget } from './target.ts';
import { WebhookDelivery, WebhookSubscription, type WebhookDeliveryEntity, type WebhookSubscriptionEntity } from './webhook.entity.ts';

/** Delays before each retry after a failure: about three days in all (the contract's schedule). */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 72_000];
const TIMEOUT_MS = 15_000;
/** How long an attempt's claim lasts: past it, the attempt is taken as lost (its worker died). */
const CLAIM_MS = TIMEOUT_MS + 5_000;
const EXCERPT_BYTES = 1024;
const DELIVER = 'webhook.deliver';

export interface WebhookDeliveryOptions {
  orm: MikroORM;
  cipher: FieldCipher;
  logger: Logger;
  allowPrivate: boolean;
  caFile: string | undefined;
  now?: () => Date;
  /** Queues an attempt (pg-boss in the service; tests capture it). */
  enqueue?: (deliveryId: string, startAfter: Date) => Promise<void>;
}

/**
 * Webhook delivery. The relay turns outbox events into PENDING delivery rows (one per matching
 * subscription) in one transaction; an attempt job claims a row, POSTs the signed event, records the
 * outcome and queues the next attempt on failure. Rows are the durable state: the relay also
 * re-queues PENDING rows whose attempt is due and unclaimed, so a crash loses nothing.
 */
export class WebhookDeliveries {
  readonly #options: WebhookDeliveryOptions;
  readonly #now: () => Date;
  readonly #ca: string[] | undefined;
  #enqueue: ((deliveryId: string, startAfter: Date) => Promise<void>) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #relaying: Promise<void> | undefined;

  constructor(options: WebhookDeliveryOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#ca = options.caFile ? [...rootCertificates, readFileSync(options.caFile, 'utf8')] : undefined;
    this.#enqueue = options.enqueue;
  }

  definitions(): JobDefinition<any>[] {
    return [{ name: DELIVER, handle: ({ deliveryId }: { deliveryId: string }) => this.attempt(deliveryId) }];
  }

  /** Starts relaying every second on the started queue. */
  start(send: (name: string, data: object, startAfter: Date) => Promise<unknown>): void {
    this.#enqueue ??= async (deliveryId, startAfter) => {
      await send(DELIVER, { deliveryId }, startAfter);
    };
    this.#timer = setInterval(() => void this.relay(), 1000);
  }

  /** Queues an attempt now (a redelivery). */
  async queue(deliveryId: string): Promise<void> {
    await this.#enqueue!(deliveryId, this.#now());
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#relaying;
  }

  /** One relay pass (at most one at a time per process); errors are logged, the next pass retries. */
  relay(): Promise<void> {
    this.#relaying ??= this.#relay()
      .catch((error) => this.#options.logger.error({ err: error }, 'webhook relay failed'))
      .finally(() => {
        this.#relaying = undefined;
      });
    return this.#relaying;
  }

  async #relay(): Promise<void> {
    const em = this.#options.orm.em.fork();
    const created = await em.transactional(async (tx) => {
      const events = await tx.find(Event, { dispatchedAt: null }, { orderBy: { id: 'asc' }, limit: 100, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
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
        event.dispatchedAt = this.#now();
      }
      return deliveries;
    });
    for (const delivery of created) await this.#enqueue!(delivery.id, delivery.at);
    // Attempts owed but not running: their job was lost with a crashed process.
    const owed = await em.getConnection().execute<Array<{ id: string; at: Date }>>(
      `select id, at from webhook_delivery where status = 'PENDING' and at <= ? and (claimed_until is null or claimed_until < ?) order by at limit 100`,
      [new Date(this.#now().getTime() - CLAIM_MS), this.#now()],
    );
    for (const { id } of owed) await this.#enqueue!(id, this.#now());
  }

  /** Makes one attempt, if the row is still owed one and no other worker holds it. */
  async attempt(deliveryId: string): Promise<void> {
    const em = this.#options.orm.em.fork();
    const now = this.#now();
    const claimed = await em.getConnection().execute<Array<{ id: string }>>(
      `update webhook_delivery set claimed_until = ? where id = ? and status = 'PENDING' and (claimed_until is null or claimed_until < ?) returning id`,
      [new Date(now.getTime() + CLAIM_MS), deliveryId, now],
    );
    if (claimed.length === 0) return;
    const delivery = await em.findOneOrFail(WebhookDelivery, { id: deliveryId }, { populate: ['subscription', 'event'] });
    const { subscription } = delivery;
    if (subscription.disabled && !delivery.redelivery) {
      Object.assign(delivery, { status: 'FAILED', error: 'The subscription is disabled', nextAttemptAt: null, claimedUntil: null });
      await em.flush();
      return;
    }
    const environment = await em.findOneOrFail(Environment, { id: subscription.environment.id });
    const target = await checkTarget(subscription.targetUrl, { httpsOnly: environment.mode === 'PRODUCTION', allowPrivate: this.#options.allowPrivate });
    const outcome = 'refused' in target ? { error: `Refused: ${target.refused}` } : await this.#post(target, subscription, delivery);
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
      const req = request(
        target.url,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
          // Connect to the address that was checked, so a DNS answer cannot change in between.
          lookup: (_host, options, callback) =>
            options.all ? callback(null, [{ address: target.address, family: target.family }]) : callback(null, target.address, target.family),
          servername: target.url.hostname,
          ca: this.#ca,
          timeout: TIMEOUT_MS,
          agent: false,
        },
        (res) => readExcerpt(res).then((excerpt) => resolve({ status: res.statusCode!, excerpt, retryAfter: res.headers['retry-after'], durationMs: Math.round(performance.now() - started) })),
      );
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
      req.on('error', (error) => resolve({ error: error.message, durationMs: Math.round(performance.now() - started) }));
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
    const succeeded = outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
    const gone = outcome.status === 410;
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
    if (next) await this.#enqueue!(next.id, next.at);
    if (!succeeded) this.#options.logger.info({ deliveryId: encodeId('webhookDelivery', delivery.id), status: outcome.status, error: delivery.error }, 'webhook attempt failed');
  }
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
