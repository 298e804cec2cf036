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

/** Signs and verifies session JWTs (HS256 with the configured session secret). */
export class SessionTokens {
  readonly #key: Uint8Array;

  constructor(secret: string) {
    this.#key = new TextEncoder().encode(secret);
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
  async verify(token: string): Promise<SessionClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
      const sessionId = decodeId('session', String(payload.jti));
      const profileId = decodeId('profile', String(payload.sub));
      const environmentId = decodeId('environment', String(payload.env));
      if (!sessionId || !profileId || !environmentId || typeof payload.ver !== 'string') return undefined;
      return { sessionId, profileId, environmentId, apiVersion: payload.ver };
    } catch {
      return undefined;
    }
  }
}

/** Whether a bearer value is shaped like a JWT rather than an API key. */
export function looksLikeJwt(value: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value);
}
