import { DecryptionError, type FieldCipher } from '../../lib/field-cipher.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { cookieIn } from './console-cookie.ts';

/** Where the OpenID Connect provider sends the operator back (contracts/rest.yaml, completeOidcSignIn). */
export const OIDC_CALLBACK_PATH = '/v1/console/oidc/callback';
/** How long a sign-in started at the provider can be finished. */
export const OIDC_ATTEMPT_TTL_MS = 10 * 60_000;

/**
 * The cookie that carries a sign-in under way from startOidcSignIn to the callback
 * (docs/decisions/operators-oidc-sign-in.md): only the callback receives it (path-scoped);
 * HttpOnly; SameSite=Lax, so the provider's top-level GET navigation back brings it while other
 * sites' requests do not. Its value is encrypted with the field keys, so it can be neither read nor
 * forged, and nothing is stored server-side.
 */
const COOKIE = '__Secure-tributary-oidc';
/** The field name the attempt is encrypted under (bound to the attempt's own id). */
const FIELD = 'oidcSignIn';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What the callback checks the provider's answer against. */
export interface OidcAttempt {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** The Set-Cookie value that hands `attempt` to this browser. */
export function oidcAttemptCookie(cipher: FieldCipher, attempt: OidcAttempt): string {
  const id = uuidv7();
  return `${COOKIE}=${id}~${cipher.encrypt(FIELD, { id }, JSON.stringify(attempt))}; Path=${OIDC_CALLBACK_PATH}; Max-Age=${OIDC_ATTEMPT_TTL_MS / 1000}; HttpOnly; Secure; SameSite=Lax`;
}

/**
 * The attempt a Cookie header carries, while it holds at `now`: undefined when there is none, it
 * expired, or it does not decrypt (tampered with, or made under a key no longer configured).
 */
export function oidcAttemptOf(cipher: FieldCipher, cookieHeader: string | undefined, now: Date): OidcAttempt | undefined {
  const [id = '', sealed = ''] = cookieIn(cookieHeader, COOKIE)?.split('~') ?? [];
  if (!UUID.test(id)) return undefined;
  try {
    const attempt = JSON.parse(cipher.decrypt(FIELD, { id }, sealed)) as OidcAttempt;
    return attempt.expiresAt > now.getTime() ? attempt : undefined;
  } catch (error) {
    if (error instanceof DecryptionError) return undefined;
    throw error;
  }
}
