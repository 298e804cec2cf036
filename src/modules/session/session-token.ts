import { jwtVerify, SignJWT, type JWTHeaderParameters } from 'jose';
import { decodeId, encodeId } from '../../lib/ids.ts';
import type { SessionKeyRing } from '../../lib/session-keys.ts';

const ISSUER = 'tributary';
const AUDIENCE = 'tributary:session';
export const SESSION_LIFETIME_MS = 24 * 3600 * 1000;

/** What a valid session token says, with the stored ids decoded. */
export interface SessionClaims {
  sessionId: string;
  profileId: string;
  environmentId: string;
  apiVersion: string;
}

/** A verified token's claims, with when it was issued (epoch milliseconds, whole seconds): tokens issued over a lifetime ago may outlive what the sessions ended from memory cover. */
export interface VerifiedClaims extends SessionClaims {
  issuedAt: number;
}

const VERIFIED_CACHE_ENTRIES = 10_000;

/**
 * Signs and verifies session JWTs (HS256 under the session key ring: the newest key of SESSION_KEYS
 * signs and names itself in `kid`; a token verifies with the key it names, or with SESSION_SECRET when
 * it names none). A token verified once is remembered (by its exact text) until it expires or, past
 * VERIFIED_CACHE_ENTRIES, until it is the oldest remembered, so hot tokens skip the HMAC; revocation
 * is checked separately on every request.
 */
export class SessionTokens {
  readonly #keys: SessionKeyRing;
  /** In insertion order, so the first key is the oldest. */
  readonly #verified = new Map<string, { claims: VerifiedClaims; expiresAt: number }>();

  constructor(keys: SessionKeyRing) {
    this.#keys = keys;
  }

  sign(claims: SessionClaims, issuedAt: Date, expiresAt: Date): Promise<string> {
    const { kid, key } = this.#keys.signing;
    return new SignJWT({ env: encodeId('environment', claims.environmentId), ver: claims.apiVersion })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...(kid === undefined ? {} : { kid }) })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(encodeId('profile', claims.profileId))
      .setJti(encodeId('session', claims.sessionId))
      .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(key);
  }

  /** The claims of a genuine, unexpired token; undefined for anything else. */
  async verify(token: string): Promise<VerifiedClaims | undefined> {
    const known = this.#verified.get(token);
    if (known) {
      if (known.expiresAt > Date.now()) return known.claims;
      this.#verified.delete(token);
    }
    try {
      const { payload } = await jwtVerify(token, (header) => this.#keyFor(header), { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
      const sessionId = decodeId('session', String(payload.jti));
      const profileId = decodeId('profile', String(payload.sub));
      const environmentId = decodeId('environment', String(payload.env));
      if (!sessionId || !profileId || !environmentId || typeof payload.ver !== 'string' || typeof payload.iat !== 'number') return undefined;
      const claims = { sessionId, profileId, environmentId, apiVersion: payload.ver, issuedAt: payload.iat * 1000 };
      // Evicting the oldest one keeps the rest answering, where clearing all would thrash under more tokens than fit.
      if (this.#verified.size >= VERIFIED_CACHE_ENTRIES) this.#verified.delete(this.#verified.keys().next().value!);
      this.#verified.set(token, { claims, expiresAt: Number(payload.exp) * 1000 });
      return claims;
    } catch {
      return undefined;
    }
  }

  /** The key a token's header names; throwing refuses the token (jose turns it into a failed verification). */
  #keyFor(header: JWTHeaderParameters) {
    const key = this.#keys.verifying(header.kid);
    if (!key) throw new Error('unknown session key');
    return key;
  }
}

/** Whether a bearer value is shaped like a JWT rather than an API key. */
export function looksLikeJwt(value: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value);
}
