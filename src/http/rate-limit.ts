import { AppError } from '../errors.ts';
import type { FixedWindowLimiter } from '../lib/fixed-window.ts';
import type { Metrics, RateLimitSubject } from '../metrics/metrics.ts';
import { clientAddressKey } from './client-address.ts';
import type { Credential } from './credentials.ts';
import type { AppContext } from './state.ts';

/** SPEC §8 request limits per one-second window. */
export const REQUEST_LIMITS = { authenticated: 100, olderGenerationKey: 25, anonymous: 25 } as const;

/**
 * Counts the request in its one-second window — the credential's when one is given, else the client
 * address's (an IPv6 client's /64) — and sets the Ratelimit-* headers (a later count on the same request overwrites them).
 * Past the limit: throws 429 (and counts the refusal in the metrics).
 */
export async function countRequest(ctx: AppContext, limiter: FixedWindowLimiter, metrics: Metrics, credential?: Credential): Promise<void> {
  const { key, limit, kind } = subject(credential, ctx.ip);
  const count = await limiter.hit(key, limit);
  ctx.set({
    'Ratelimit-Limit': String(count.limit),
    'Ratelimit-Remaining': String(count.remaining),
    'Ratelimit-Reset': String(count.resetSeconds),
  });
  if (!count.allowed) {
    metrics.rateLimitRefusal(kind);
    throw new AppError(429, 'RATE_LIMITED', `Rate limit of ${count.limit} requests per second exceeded`, {
      instruction: `Wait ${count.resetSeconds} second(s) before retrying; spread requests evenly across seconds.`,
      headers: { 'Retry-After': String(count.resetSeconds) },
    });
  }
}

function subject(credential: Credential | undefined, ip: string): { key: string; limit: number; kind: RateLimitSubject } {
  if (!credential) return { key: `ip:${clientAddressKey(ip)}`, limit: REQUEST_LIMITS.anonymous, kind: 'address' };
  const limit = credential.generation === 'LEGACY' ? REQUEST_LIMITS.olderGenerationKey : REQUEST_LIMITS.authenticated;
  switch (credential.kind) {
    case 'apiKey':
      return { key: `key:${credential.apiKeyId}`, limit, kind: 'api_key' };
    case 'basic':
      return { key: `basic:${credential.apiKeyId}:${credential.profileId}`, limit, kind: 'basic' };
    case 'session':
      return { key: `session:${credential.sessionId}`, limit, kind: 'session' };
  }
}
