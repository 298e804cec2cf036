import type { Handlers } from '../../api-kit/rest-handler.ts';
import { publicOrigin } from '../../lib/public-origin.ts';
import { sessionCookie } from './console-cookie.ts';
import { OIDC_CALLBACK_PATH, oidcAttemptCookie, oidcAttemptOf } from './oidc-cookie.ts';
import { oidcSignIn, OidcSignInRefused, type OidcRefusal } from './oidc-sign-in.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { FixedWindowLimiter } from '../../lib/fixed-window.ts';
import type { OidcClient } from './oidc-client.ts';
import type { OperatorSessions } from './operator-sessions.ts';

/** What the console's sign-in needs (operator.handlers.ts adds what the rest of the operators' operations need). */
export interface SignInHandlerDeps {
  cipher: FieldCipher;
  sessions: OperatorSessions;
  /** Counts sign-in attempts (SIGN_IN_WINDOW_MS windows). */
  signInLimiter: FixedWindowLimiter;
  /** The key a client address is counted under (an IPv6 client's /64). */
  addressKey: (address: string) => string;
  /** The configured OpenID Connect provider; undefined: sign-in with a password only. */
  oidc: OidcClient | undefined;
  /** PUBLIC_URL: the OpenID Connect redirect URI's origin when set (else the Host the console was served from). */
  publicUrl: string | undefined;
}

/** Back to the console's sign-in page, which says why (contracts/rest.yaml, completeOidcSignIn). */
const backToSignIn = (refusal: OidcRefusal | 'not_configured') => ({ status: 303 as const, headers: { Location: `/console#/?sign_in_error=${refusal}`, 'Referrer-Policy': 'no-referrer' } });

/**
 * The console's sign-in options, and sign-in through the OpenID Connect provider: both its steps are
 * browser navigations, answered with redirects (to the provider, to the console, or back to the
 * sign-in page with the reason), never with an error page.
 */
export function oidcHandlers({ cipher, sessions, signInLimiter, addressKey, oidc, publicUrl }: SignInHandlerDeps): Handlers<'getSignInOptions' | 'startOidcSignIn' | 'completeOidcSignIn'> {
  const redirectUri = (host: string | undefined) => `${publicOrigin(publicUrl, host)}${OIDC_CALLBACK_PATH}`;
  return {
    async getSignInOptions() {
      return { status: 200, body: { oidc: oidc ? { name: oidc.name } : null } };
    },
    async startOidcSignIn({ headers, log }) {
      if (!oidc) return backToSignIn('not_configured');
      const callback = redirectUri(headers.host);
      try {
        const { url, attempt } = await oidc.authorization(callback, sessions.now());
        return { status: 303, headers: { Location: url, 'Set-Cookie': oidcAttemptCookie(cipher, attempt), 'Referrer-Policy': 'no-referrer' } };
      } catch (error) {
        log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'the OpenID Connect provider could not be discovered');
        return backToSignIn('unavailable');
      }
    },
    async completeOidcSignIn({ query, headers, clientAddress, em, log }) {
      if (!oidc) return backToSignIn('not_configured');
      const callbackUrl = new URL(redirectUri(headers.host));
      for (const [name, value] of Object.entries(query ?? {})) if (typeof value === 'string') callbackUrl.searchParams.set(name, value);
      const origin = { addressKey: addressKey(clientAddress), clientAddress, userAgent: headers['user-agent'] ?? null };
      try {
        const { token, session } = await oidcSignIn(em, { sessions, limiter: signInLimiter, oidc, log }, { callbackUrl, attempt: oidcAttemptOf(cipher, headers.cookie, sessions.now()) }, origin);
        // The attempt's cookie is left to expire: a reload of this URL then fails at the provider (its code is used), not here.
        return { status: 303, headers: { Location: '/console', 'Set-Cookie': sessionCookie(token, (session.expiresAt.getTime() - session.createdAt.getTime()) / 1000), 'Referrer-Policy': 'no-referrer' } };
      } catch (error) {
        if (error instanceof OidcSignInRefused) return backToSignIn(error.refusal);
        throw error;
      }
    },
  };
}
