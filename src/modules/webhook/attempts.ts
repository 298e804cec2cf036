import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { encodeId } from '../../lib/ids.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import { EnvironmentModes } from '../environment/environment.service.ts';
import { CLAIM_MS } from './attempt-deadlines.ts';
import type { Enqueue } from './attempt-queue.ts';
import { GroupWriter } from './group-writer.ts';
import { answered, disabledSettlement, settlement } from './outcome-recorder.ts';
import type { WebhookSender } from './sender.ts';
import type { WebhookDeliveryEntity } from './webhook.entity.ts';
import { claimDeliveries, deliveriesToAttempt, settleDeliveries, type Settlement } from './webhook.store.ts';

/** An attempt under way. */
export interface AttemptRun {
  /**
   * Settles once the subscription may have its next attempt: the receiver has answered (or the attempt
   * ended without sending), before the outcome is written unless that outcome disables the subscription.
   */
  sent: Promise<void>;
  /** Settles once the outcome is written; rejects when claiming, loading or writing failed. */
  recorded: Promise<void>;
}

const noop = () => undefined;

export interface WebhookAttemptsOptions {
  orm: MikroORM;
  sender: WebhookSender;
  enqueue: Enqueue;
  logger: Logger;
  now: () => Date;
  /** Counts attempts and their lag; absent, nothing is counted. */
  metrics?: Metrics;
}

/**
 * Makes attempts: claims and loads their rows together, sends each, records the outcomes in groups
 * (one transaction for all those that ended while the previous group was written) and queues the next
 * attempts. A subscription's next attempt need not wait for the outcome's write: its row stays claimed
 * until then, and a worker that dies before writing it leaves the claim to lapse and the row to be sent again.
 */
export class WebhookAttempts {
  readonly #options: WebhookAttemptsOptions;
  readonly #modes: EnvironmentModes;
  readonly #outcomes: GroupWriter<Settlement>;

  constructor(options: WebhookAttemptsOptions) {
    this.#options = options;
    this.#modes = new EnvironmentModes(options.orm);
    this.#outcomes = new GroupWriter((settlements) => settleDeliveries(options.orm.em.fork(), settlements));
  }

  /**
   * Makes one attempt per row still owed one that no other worker holds, claimed and loaded by two
   * statements at once for all of them; each is then sent on its own. One run per row, in their order.
   */
  attemptEach(deliveryIds: string[]): AttemptRun[] {
    const claimed = this.#claim(deliveryIds);
    return deliveryIds.map((deliveryId) => {
      let sent!: () => void;
      const sending = new Promise<void>((resolve) => (sent = resolve));
      const recorded = claimed.then(async (deliveries) => {
        const delivery = deliveries.get(deliveryId);
        if (delivery) await this.#attempt(delivery, sent);
      });
      return { sent: Promise.race([sending, recorded.then(noop, noop)]), recorded };
    });
  }

  async #claim(deliveryIds: string[]): Promise<Map<string, WebhookDeliveryEntity>> {
    const em = this.#options.orm.em.fork();
    const now = this.#options.now();
    // Read beside the claim, not after it (one round trip less per batch): the claim changes nothing an
    // attempt reads, and a row the claim did not get is dropped.
    const [claimed, deliveries] = await Promise.all([claimDeliveries(em.fork(), deliveryIds, new Date(now.getTime() + CLAIM_MS), now), deliveriesToAttempt(em, deliveryIds)]);
    const held = new Set(claimed);
    return new Map(deliveries.filter((delivery) => held.has(delivery.id)).map((delivery) => [delivery.id, delivery]));
  }

  /** Calls `sent` once the subscription may have its next attempt: when the answer is in, unless it disables the subscription (then once that is written). */
  async #attempt(delivery: WebhookDeliveryEntity, sent: () => void): Promise<void> {
    const { sender, enqueue, logger, metrics, now } = this.#options;
    const started = now();
    const { subscription } = delivery;
    const kind = delivery.redelivery ? 'redelivery' : delivery.attempt === 1 ? 'first' : 'retry';
    if (subscription.disabled && !delivery.redelivery) {
      await this.#outcomes.write(disabledSettlement(delivery));
      metrics?.webhookAttempt('disabled', kind, undefined);
      return;
    }
    const mode = await this.#modes.of(subscription.environment.id);
    const outcome = await sender.send(delivery, { httpsOnly: mode === 'PRODUCTION' });
    metrics?.webhookAttempt(outcome.refused ? 'refused' : answered(outcome.status), kind, (started.getTime() - delivery.event.at.getTime()) / 1000);
    const settled = settlement(delivery, outcome, now());
    if (!settled.disable) sent();
    await this.#outcomes.write(settled);
    if (settled.next) await enqueue([settled.next]);
    if (settled.status === 'FAILED') logger.info({ deliveryId: encodeId('webhookDelivery', delivery.id), status: outcome.status, error: settled.error }, 'webhook attempt failed');
  }
}
