import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { encodeId } from '../../lib/ids.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import { EnvironmentModes } from '../environment/environment.service.ts';
import { queued, type Enqueue } from './attempt-queue.ts';
import { answered, recordOutcome } from './outcome-recorder.ts';
import { TIMEOUT_MS, type WebhookSender } from './sender.ts';
import { claimDelivery, deliveryToAttempt } from './webhook.store.ts';

/** How long an attempt's claim lasts: past it, the attempt is taken as lost (its worker died). */
export const CLAIM_MS = TIMEOUT_MS + 5_000;

export interface WebhookAttemptsOptions {
  orm: MikroORM;
  sender: WebhookSender;
  enqueue: Enqueue;
  logger: Logger;
  now: () => Date;
  /** Counts attempts and their lag; absent, nothing is counted. */
  metrics?: Metrics;
}

/** Makes attempts: claims the row, sends it, records the outcome and queues the next attempt. */
export class WebhookAttempts {
  readonly #options: WebhookAttemptsOptions;
  readonly #modes: EnvironmentModes;

  constructor(options: WebhookAttemptsOptions) {
    this.#options = options;
    this.#modes = new EnvironmentModes(options.orm);
  }

  /** Makes one attempt, if the row is still owed one and no other worker holds it. */
  async attempt(deliveryId: string): Promise<void> {
    const { orm, sender, enqueue, logger, metrics } = this.#options;
    const em = orm.em.fork();
    const now = this.#options.now();
    if (!(await claimDelivery(em, deliveryId, new Date(now.getTime() + CLAIM_MS), now))) return;
    const delivery = await deliveryToAttempt(em, deliveryId);
    const { subscription } = delivery;
    const kind = delivery.redelivery ? 'redelivery' : delivery.attempt === 1 ? 'first' : 'retry';
    if (subscription.disabled && !delivery.redelivery) {
      Object.assign(delivery, { status: 'FAILED', error: 'The subscription is disabled', nextAttemptAt: null, claimedUntil: null });
      await em.flush();
      metrics?.webhookAttempt('disabled', kind, undefined);
      return;
    }
    const mode = await this.#modes.of(subscription.environment.id);
    const outcome = await sender.send(delivery, { httpsOnly: mode === 'PRODUCTION' });
    metrics?.webhookAttempt(outcome.refused ? 'refused' : answered(outcome.status), kind, (now.getTime() - delivery.event.at.getTime()) / 1000);
    const next = await recordOutcome(em, delivery, outcome, this.#options.now());
    if (next) await enqueue([queued(next)]);
    if (delivery.status === 'FAILED') logger.info({ deliveryId: encodeId('webhookDelivery', delivery.id), status: outcome.status, error: delivery.error }, 'webhook attempt failed');
  }
}
