import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createSecureContext, rootCertificates, type ConnectionOptions } from 'node:tls';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { presentEvent } from '../event/event.presenter.ts';
import { TIMEOUT_MS } from './attempt-deadlines.ts';
import type { Outcome } from './outcome-recorder.ts';
import { signatureHeader } from './signing.ts';
import { checkTarget, type CheckedTarget, type Resolve } from './target.ts';
import type { WebhookDeliveryEntity, WebhookSubscriptionEntity } from './webhook.entity.ts';

const EXCERPT_BYTES = 1024;

export interface WebhookSenderOptions {
  cipher: FieldCipher;
  allowPrivate: boolean;
  caFile: string | undefined;
  now: () => Date;
  /** Resolves target hosts; the system resolver unless given. */
  resolve?: Resolve;
  /** The whole attempt's deadline; TIMEOUT_MS unless given. */
  timeoutMs?: number;
}

/** Sends a delivery's event: checks its target, then POSTs the signed event, all within the deadline (TIMEOUT_MS). */
export class WebhookSender {
  readonly #options: WebhookSenderOptions;
  /**
   * With WEBHOOK_CA_FILE, the trusted roots, parsed once: parsing them for every attempt cost ~12 ms
   * of CPU each, and hundreds of MB of memory with 32 attempts in flight.
   */
  readonly #tls: Pick<ConnectionOptions, 'secureContext'>;

  constructor(options: WebhookSenderOptions) {
    this.#options = options;
    this.#tls = { secureContext: options.caFile ? createSecureContext({ ca: [...rootCertificates, readFileSync(options.caFile, 'utf8')] }) : undefined };
  }

  /**
   * Sends the delivery (its subscription and event loaded) to its subscription's target. One deadline
   * covers the whole attempt, the DNS lookup included: a resolver that never answers, or a receiver
   * that trickles its answer, ends it as a failure all the same.
   */
  async send(delivery: WebhookDeliveryEntity, rules: { httpsOnly: boolean }): Promise<Outcome> {
    const started = performance.now();
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeoutMs = this.#options.timeoutMs ?? TIMEOUT_MS;
    const deadline = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ error: `no answer within ${timeoutMs / 1000} s` }), timeoutMs);
    });
    try {
      const outcome = await Promise.race([this.#checkAndPost(delivery, rules.httpsOnly, abort.signal), deadline]);
      return outcome.refused ? outcome : { ...outcome, durationMs: Math.round(performance.now() - started) };
    } finally {
      clearTimeout(timer);
      // Ends the request when the deadline came first.
      abort.abort();
    }
  }

  async #checkAndPost(delivery: WebhookDeliveryEntity, httpsOnly: boolean, signal: AbortSignal): Promise<Outcome> {
    const { subscription } = delivery;
    const target = await checkTarget(subscription.targetUrl, { httpsOnly, allowPrivate: this.#options.allowPrivate }, this.#options.resolve);
    if ('refused' in target) return { error: `Refused: ${target.refused}`, refused: true };
    // The deadline came while resolving: its outcome stands, and nothing is sent.
    if (signal.aborted) return {};
    return this.#post(target, subscription, delivery, signal);
  }

  #post(target: CheckedTarget, subscription: WebhookSubscriptionEntity, delivery: WebhookDeliveryEntity, signal: AbortSignal): Promise<Outcome> {
    const event = presentEvent(delivery.event);
    const body = JSON.stringify(event);
    const timestamp = Math.floor(this.#options.now().getTime() / 1000);
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'Tributary-Webhooks/1',
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(this.#secrets(subscription), event.id, timestamp, body),
      'Content-Length': Buffer.byteLength(body),
    };
    const request = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Outcome>((resolve) => {
      const req = request(
        target.url,
        {
          method: 'POST',
          headers,
          // Connect to the address that was checked, so a DNS answer cannot change in between. The TLS
          // name stays Node's own: the host, or none for an IP address (checked against the certificate's IPs).
          lookup: (_host, options, callback) =>
            options.all ? callback(null, [{ address: target.address, family: target.family }]) : callback(null, target.address, target.family),
          ...this.#tls,
          agent: false,
          // The deadline (an idle timeout would let a receiver that trickles bytes hold the attempt).
          signal,
        },
        (res) => {
          readExcerpt(res).then(
            (excerpt) => resolve({ status: res.statusCode, excerpt, retryAfter: res.headers['retry-after'] }),
            (error: Error) => resolve({ error: error.message }),
          );
        },
      );
      req.on('error', (error) => resolve({ error: error.message }));
      req.end(body);
    });
  }

  #secrets(subscription: WebhookSubscriptionEntity): string[] {
    const { cipher, now } = this.#options;
    const secrets = [cipher.decrypt('webhookSecret', subscription, subscription.secretEncrypted)];
    if (subscription.previousSecretEncrypted && subscription.previousSecretExpiresAt && subscription.previousSecretExpiresAt > now()) {
      secrets.push(cipher.decrypt('webhookSecret', subscription, subscription.previousSecretEncrypted));
    }
    return secrets;
  }
}

/**
 * The first KiB of a response body as storable text (NUL, which PostgreSQL's text refuses, becomes
 * U+FFFD as invalid UTF-8 does); the rest is read and dropped.
 */
async function readExcerpt(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    if (size < EXCERPT_BYTES) chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8').replaceAll('\u0000', '\uFFFD');
}
