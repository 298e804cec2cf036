import { createHash, timingSafeEqual } from 'node:crypto';
import { decodeProtectedHeader, importJWK, jwtVerify, type CryptoKey, type JWK } from 'jose';
import type { PlaidApi } from 'plaid';
import type { ErrorState, InboundWebhook, WebhookAction } from '../provider.ts';
import { WebhookUnverified } from '../provider-errors.ts';

const MAX_AGE_SECONDS = 5 * 60;
/** Verification keys by kid; a kid Plaid reports expired is refused. Bounded: kids rotate rarely. */
const MAX_CACHED_KEYS = 100;

/**
 * Verifies `Plaid-Verification` as Plaid documents it: a JWT signed with ES256 (no other algorithm),
 * by the key its `kid` names (fetched from /webhook_verification_key/get and cached), issued at most
 * five minutes ago, whose `request_body_sha256` is the SHA-256 of the exact body received.
 */
export class PlaidWebhookVerifier {
  readonly #client: PlaidApi;
  readonly #keys = new Map<string, Promise<{ key: CryptoKey | Uint8Array; expired: boolean }>>();

  constructor(client: PlaidApi) {
    this.#client = client;
  }

  async verify(request: InboundWebhook): Promise<Record<string, unknown>> {
    const token = request.headers['plaid-verification'];
    if (!token) throw new WebhookUnverified('no Plaid-Verification header');
    let kid: string | undefined;
    try {
      const header = decodeProtectedHeader(token);
      if (header.alg !== 'ES256') throw new WebhookUnverified(`algorithm ${String(header.alg)} is not ES256`);
      kid = header.kid;
    } catch (error) {
      if (error instanceof WebhookUnverified) throw error;
      throw new WebhookUnverified('Plaid-Verification is not a JWT');
    }
    if (!kid) throw new WebhookUnverified('the JWT names no key');
    const { key, expired } = await this.#key(kid);
    if (expired) throw new WebhookUnverified('the signing key has expired');
    let claimed: unknown;
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['ES256'], maxTokenAge: MAX_AGE_SECONDS, clockTolerance: 5 });
      claimed = payload.request_body_sha256;
    } catch {
      throw new WebhookUnverified('the signature does not verify, or the webhook is older than five minutes');
    }
    const actual = createHash('sha256').update(request.body).digest();
    if (typeof claimed !== 'string' || !/^[0-9a-f]{64}$/i.test(claimed) || !timingSafeEqual(Buffer.from(claimed, 'hex'), actual)) {
      throw new WebhookUnverified('the body does not match its signature');
    }
    try {
      return JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw new WebhookUnverified('the body is not JSON');
    }
  }

  #key(kid: string): Promise<{ key: CryptoKey | Uint8Array; expired: boolean }> {
    const cached = this.#keys.get(kid);
    if (cached) return cached;
    const loading = this.#client.webhookVerificationKeyGet({ key_id: kid }).then(
      async ({ data }) => ({ key: await importJWK(data.key as unknown as JWK, 'ES256'), expired: data.key.expired_at != null }),
      () => {
        throw new WebhookUnverified(`Plaid does not know the key ${kid}`);
      },
    );
    if (this.#keys.size >= MAX_CACHED_KEYS) this.#keys.delete(this.#keys.keys().next().value!);
    this.#keys.set(kid, loading);
    loading.catch(() => this.#keys.delete(kid));
    return loading;
  }
}

/** What a verified Plaid webhook asks Tributary to do. Codes Tributary does not act on map to nothing. */
export function actionsOf(body: Record<string, unknown>): WebhookAction[] {
  const remoteId = typeof body.item_id === 'string' ? body.item_id : undefined;
  if (!remoteId) return [];
  switch (`${String(body.webhook_type)}:${String(body.webhook_code)}`) {
    case 'TRANSACTIONS:SYNC_UPDATES_AVAILABLE':
    case 'HOLDINGS:DEFAULT_UPDATE':
    case 'INVESTMENTS_TRANSACTIONS:DEFAULT_UPDATE':
    case 'LIABILITIES:DEFAULT_UPDATE':
    case 'IDENTITY:DEFAULT_UPDATE':
    case 'ITEM:LOGIN_REPAIRED':
      return [{ kind: 'SYNC', remoteId }];
    case 'ITEM:ERROR': {
      const error = (body.error ?? {}) as { error_code?: string };
      const state: ErrorState = error.error_code === 'ITEM_LOGIN_REQUIRED' ? 'ERROR_REPAIRABLE' : 'ERROR_PROVIDER';
      return [{ kind: 'ERROR', remoteId, state, reason: `Plaid ITEM_ERROR ${error.error_code ?? ''}`.trim() }];
    }
    case 'ITEM:NEW_ACCOUNTS_AVAILABLE':
      return [{ kind: 'NEW_ACCOUNTS', remoteId }];
    case 'ITEM:PENDING_EXPIRATION':
    case 'ITEM:PENDING_DISCONNECT':
      return [{ kind: 'CONSENT_EXPIRING', remoteId, expiresAt: typeof body.consent_expiration_time === 'string' ? body.consent_expiration_time : null }];
    case 'STATEMENTS:STATEMENTS_REFRESH_COMPLETE':
      // A failed refresh found nothing new; a successful one's statements are listed now.
      return body.result === 'SUCCESS' ? [{ kind: 'STATEMENTS', remoteId }] : [];
    case 'ITEM:USER_PERMISSION_REVOKED':
    case 'ITEM:USER_ACCOUNT_REVOKED':
      return [{ kind: 'REVOKED', remoteId }];
    default:
      return [];
  }
}
