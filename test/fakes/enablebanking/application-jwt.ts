import type { KeyObject } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';

/** EB refuses an application token whose lifetime exceeds a day. */
const MAX_LIFETIME_SECONDS = 86_400;

/**
 * Checks an application's bearer token as Enable Banking does: RS256, `kid` a registered application,
 * signed by its key, `iss` enablebanking.com, `aud` api.enablebanking.com, not expired by the fake's
 * clock, issued not in the future, valid at most 24 hours. Returns the application id, or why not.
 */
export async function verifyApplicationJwt(authorization: string | undefined, keys: Map<string, KeyObject>, nowMs: number): Promise<{ kid: string } | { problem: string }> {
  const token = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(authorization ?? '')?.[1];
  if (!token) return { problem: 'Authorization header with a Bearer JWT is required' };
  let kid: string | undefined;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== 'RS256') return { problem: 'JWT must be signed with RS256' };
    kid = header.kid;
  } catch {
    return { problem: 'JWT header cannot be read' };
  }
  const key = kid ? keys.get(kid) : undefined;
  if (!kid || !key) return { problem: 'JWT kid names no application' };
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['RS256'],
      issuer: 'enablebanking.com',
      audience: 'api.enablebanking.com',
      currentDate: new Date(nowMs),
      requiredClaims: ['iat', 'exp'],
      clockTolerance: 0,
    });
    const now = Math.floor(nowMs / 1000);
    if (payload.iat! > now + 60) return { problem: 'JWT issued in the future' };
    if (payload.exp! - payload.iat! > MAX_LIFETIME_SECONDS) return { problem: 'JWT lifetime exceeds 24 hours' };
    return { kid };
  } catch (error) {
    return { problem: `JWT rejected (${(error as { code?: string }).code ?? 'invalid'})` };
  }
}
