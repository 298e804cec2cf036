import { createSecretKey, type KeyObject } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { decodeId, encodeId } from '../../lib/ids.ts';

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
 * Signs and verifies session JWTs (HS256 with the configured session secret). A token verified once
 * is remembered (by its exact text) until it expires or, past VERIFIED_CACHE_ENTRIES, until it is the
 * oldest remembered, so hot tokens skip the HMAC; revocation is checked separately on every request.
 */
export class SessionTokens {
  /** A KeyObject, made once: jose imports raw key bytes anew on every call, but keeps the key it derives from a KeyObject. */
  readonly #key: KeyObject;
  /** In insertion order, so the first key is the oldest. */
  readonly #verified = new Map<string, { claims: VerifiedClaims; expiresAt: number }>();

  constructor(secret: string) {
    this.#key = createSecretKey(secret, 'utf8');
  }

  sign(claims: SessionClaims, issuedAt: Date, expiresAt: Date): Promise<string> {
    return new SignJWT({ env: encodeId('environment', claims.environmentId), ver: claims.apiVersion })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(encodeId('profile', claims.profileId))
      .setJti(encodeId('session', claims.sessionId))
      .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.#key);
  }

  /** The claims of a genuine, unexpired token; undefined for anything else. */
  async verify(token: string): Promise<VerifiedClaims | undefined> {
    const known = this.#verified.get(token);
    if (known) {
      if (known.expiresAt > Date.now()) return known.claims;
      this.#verified.delete(token);
    }
    try {
      const { payload } = await jwtVerify(token, this.#key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
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
}

/** Whether a bearer value is shaped like a JWT rather than an API key. */
export function looksLikeJwt(value: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value);
}
