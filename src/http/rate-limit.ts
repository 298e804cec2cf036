import type { Middleware } from 'koa';
import { AppError } from '../errors.ts';
import type { FixedWindowLimiter } from '../lib/fixed-window.ts';
import type { Credential } from './credentials.ts';
import type { AppState } from './state.ts';

/** SPEC §8 request limits per one-second window. */
export const REQUEST_LIMITS = { authenticated: 100, olderGenerationKey: 25, anonymous: 25 } as const;

/**
 * Counts every request in its one-second window — per credential when one is valid, else per client
 * address — and sets the Ratelimit-* headers on every response, errors included. Past the limit: 429.
 */
export function rateLimit(limiter: FixedWindowLimiter): Middleware<AppState> {
  return async (ctx, next) => {
    const { key, limit } = subject(ctx.state.credential, ctx.ip);
    const count = await limiter.hit(key, limit);
    ctx.set({
      'Ratelimit-Limit': String(count.limit),
      'Ratelimit-Remaining': String(count.remaining),
      'Ratelimit-Reset': String(count.resetSeconds),
    });
    if (!count.allowed) {
      throw new AppError(429, 'RATE_LIMITED', `Rate limit of ${count.limit} requests per second exceeded`, {
        instruction: `Wait ${count.resetSeconds} second(s) before retrying; spread requests evenly across seconds.`,
        headers: { 'Retry-After': String(count.resetSeconds) },
      });
    }
    await next();
  };
}

function subject(credential: Credential | undefined, ip: string): { key: string; limit: number } {
  if (!credential) return { key: `ip:${ip}`, limit: REQUEST_LIMITS.anonymous };
  const limit = credential.generation === 'LEGACY' ? REQUEST_LIMITS.olderGenerationKey : REQUEST_LIMITS.authenticated;
  switch (credential.kind) {
    case 'apiKey':
      return { key: `key:${credential.apiKeyId}`, limit };
    case 'basic':
      return { key: `basic:${credential.apiKeyId}:${credential.profileId}`, limit };
    case 'session':
      return { key: `session:${credential.sessionId}`, limit };
  }
}
