import { createHash, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import type { JWKPublicKey } from 'plaid';

/**
 * How a webhook is signed. `valid` as Plaid does; `forged` signed by a key Plaid never served (same
 * `kid`); `stale` issued six minutes ago (receivers must refuse anything older than five);
 * `tampered` signed over one body and delivered with another.
 */
export type WebhookVariant = 'valid' | 'forged' | 'stale' | 'tampered';

/** One attempt to deliver a webhook, as the receiver saw it (or why it did not). */
export interface WebhookDelivery {
  url: string;
  variant: WebhookVariant;
  /** The exact bytes sent. */
  body: string;
  headers: Record<string, string>;
  status: number | null;
  error: string | null;
}

interface SigningKey {
  privateKey: CryptoKey;
  jwk: JWKPublicKey;
}

const STALE_SECONDS = 6 * 60;

async function newKey(): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const { x, y, crv, kty } = await exportJWK(publicKey);
  return { privateKey, jwk: { alg: 'ES256', crv: crv!, kid: randomUUID(), kty: kty!, use: 'sig', x: x!, y: y!, created_at: Math.floor(Date.now() / 1000), expired_at: null } };
}

/**
 * Signs webhooks the way Plaid documents (Plaid-Verification: an ES256 JWT with header
 * `{alg, kid, typ}` and claims `{iat, request_body_sha256}` over the exact body, which is JSON with
 * two-space indentation) and posts them over HTTPS, trusting `ca` for the receiver's certificate.
 */
export class WebhookSender {
  readonly deliveries: WebhookDelivery[] = [];
  readonly #keys = new Map<string, SigningKey>();
  readonly #inFlight = new Set<Promise<unknown>>();
  /** Public origin → the local origin serving it (what DNS and a reverse proxy do for real Plaid). */
  readonly #routes = new Map<string, string>();
  #current!: SigningKey;
  #impostor!: SigningKey;
  readonly #ca: string | Buffer | undefined;

  private constructor(ca: string | Buffer | undefined) {
    this.#ca = ca;
  }

  static async create(ca: string | Buffer | undefined): Promise<WebhookSender> {
    const sender = new WebhookSender(ca);
    await sender.rotateKey();
    sender.#impostor = await newKey();
    return sender;
  }

  /** The public key for `kid` as `/webhook_verification_key/get` serves it (expired ones included, with `expired_at`). */
  publicKey(kid: string): JWKPublicKey | undefined {
    const key = this.#keys.get(kid);
    return key && { ...key.jwk };
  }

  get currentKeyId(): string {
    return this.#current.jwk.kid;
  }

  /** Starts signing with a new key; the previous one stays servable with `expired_at` set to now. */
  async rotateKey(): Promise<void> {
    const next = await newKey();
    if (this.#current) this.#current.jwk.expired_at = Math.floor(Date.now() / 1000);
    this.#keys.set(next.jwk.kid, next);
    this.#current = next;
  }

  /** Webhooks to `publicOrigin` (e.g. `https://tributary.example`) are delivered to `localOrigin` (e.g. `https://localhost:8443`). */
  route(publicOrigin: string, localOrigin: string): void {
    this.#routes.set(new URL(publicOrigin).origin, new URL(localOrigin).origin);
  }

  /** Signs and posts `payload`; resolves once the receiver answered (or failed to). Never rejects. */
  send(url: string, payload: object, variant: WebhookVariant = 'valid'): Promise<WebhookDelivery> {
    const delivery = this.#deliver(url, payload, variant);
    this.#inFlight.add(delivery);
    void delivery.finally(() => this.#inFlight.delete(delivery));
    return delivery;
  }

  /** Resolves when every webhook sent so far has been delivered or has failed. */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  async #deliver(url: string, payload: object, variant: WebhookVariant): Promise<WebhookDelivery> {
    const body = JSON.stringify(payload, null, 2);
    // The receiver sees `body`; a tampered one was signed for another Item's payload.
    const signedBody = variant === 'tampered' ? JSON.stringify({ ...payload, item_id: 'another-item' }, null, 2) : body;
    const key = variant === 'forged' ? this.#impostor : this.#current;
    const issuedAt = Math.floor(Date.now() / 1000) - (variant === 'stale' ? STALE_SECONDS : 0);
    const jwt = await new SignJWT({ request_body_sha256: createHash('sha256').update(signedBody).digest('hex') })
      .setProtectedHeader({ alg: 'ES256', kid: this.#current.jwk.kid, typ: 'JWT' })
      .setIssuedAt(issuedAt)
      .sign(key.privateKey);
    const headers = { 'Content-Type': 'application/json', 'Plaid-Verification': jwt, 'User-Agent': 'Plaid Verifier' };
    const delivery: WebhookDelivery = { url, variant, body, headers, status: null, error: null };
    this.deliveries.push(delivery);
    try {
      delivery.status = await this.#post(url, body, headers);
    } catch (error) {
      delivery.error = error instanceof Error ? error.message : String(error);
    }
    return delivery;
  }

  #post(url: string, body: string, headers: Record<string, string>): Promise<number> {
    const addressed = new URL(url);
    const routed = this.#routes.get(addressed.origin);
    const target = routed ? new URL(`${addressed.pathname}${addressed.search}`, routed) : addressed;
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const outgoing = send(target, { method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body) }, ca: this.#ca, timeout: 10_000 }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      });
      outgoing.on('timeout', () => outgoing.destroy(new Error('webhook receiver did not answer within 10 s')));
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }
}
