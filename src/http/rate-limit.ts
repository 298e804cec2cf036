import { AppError } from '../errors.ts';
import type { FixedWindowLimiter, WindowCount } from '../lib/fixed-window.ts';
import type { Metrics, RateLimitSubject } from '../metrics/metrics.ts';
import { clientAddressKey } from './client-address.ts';
import type { Credential } from '../api-kit/credential.ts';
import type { AppContext } from './state.ts';

/**
 * The request limits per one-second window (100 per credential, 25 per address or older-generation key), and the per-address budget for looking up credentials
 * this process has not seen: as large as a credential's own limit, so that a valid credential's first
 * request is not refused for traffic it has no part in, and still a bound on the queries a flood of
 * made-up credentials can cost.
 */
export const REQUEST_LIMITS = { authenticated: 100, olderGenerationKey: 25, anonymous: 25, credentialLookups: 100 } as const;

interface Window {
  key: string;
  limit: number;
  kind: RateLimitSubject;
}

/**
 * Counts the request in its one-second window — the credential's when one is given, else the client
 * address's (an IPv6 client's /64) — and sets the Ratelimit-* headers (a later count on the same
 * request overwrites them). Past the limit: throws 429 (and counts the refusal in the metrics).
 */
export function countRequest(ctx: AppContext, limiter: FixedWindowLimiter, metrics: Metrics, credential?: Credential): Promise<void> {
  return count(ctx, limiter, metrics, credential ? credentialWindow(credential) : { key: `ip:${clientAddressKey(ctx.ip)}`, limit: REQUEST_LIMITS.anonymous, kind: 'address' });
}

/** Counts a lookup of a credential this process has not seen in its client address's lookup budget, as countRequest counts a request. */
export function countCredentialLookup(ctx: AppContext, limiter: FixedWindowLimiter, metrics: Metrics): Promise<void> {
  return count(ctx, limiter, metrics, lookupWindow(ctx.ip));
}

/**
 * Takes a slot of `address`'s credential-lookup budget, the very window countCredentialLookup counts
 * in, for a door without a response to carry Ratelimit-* headers (a WebSocket's connection_init).
 * Past it: throws the same 429 (counted in the metrics).
 */
export async function admitCredentialLookup(limiter: FixedWindowLimiter, metrics: Metrics, address: string): Promise<void> {
  const window = lookupWindow(address);
  const count = await limiter.hit(window.key, window.limit);
  if (!count.allowed) throw refusal(count, window, metrics);
}

function lookupWindow(address: string): Window {
  return { key: `lookup:${clientAddressKey(address)}`, limit: REQUEST_LIMITS.credentialLookups, kind: 'credential_lookup' };
}

async function count(ctx: AppContext, limiter: FixedWindowLimiter, metrics: Metrics, window: Window): Promise<void> {
  const count = await limiter.hit(window.key, window.limit);
  // On the raw response (no answer is sent before the count): Koa's ctx.set allocates per header to normalise.
  ctx.res.setHeader('Ratelimit-Limit', String(count.limit));
  ctx.res.setHeader('Ratelimit-Remaining', String(count.remaining));
  ctx.res.setHeader('Ratelimit-Reset', String(count.resetSeconds));
  if (!count.allowed) throw refusal(count, window, metrics);
}

/** The 429 of a count past its window's limit, counted in the metrics. */
function refusal(count: WindowCount, { kind }: Window, metrics: Metrics): AppError {
  metrics.rateLimitRefusal(kind);
  return new AppError(429, 'RATE_LIMITED', `Rate limit of ${count.limit} requests per second exceeded`, {
    instruction: `Wait ${count.resetSeconds} second(s) before retrying; spread requests evenly across seconds.`,
    headers: { 'Retry-After': String(count.resetSeconds) },
  });
}

function credentialWindow(credential: Credential): Window {
  const limit = credential.generation === 'LEGACY' ? REQUEST_LIMITS.olderGenerationKey : REQUEST_LIMITS.authenticated;
  switch (credential.kind) {
    case 'apiKey':
      return { key: `key:${credential.apiKeyId}`, limit, kind: 'api_key' };
    case 'basic':
      return { key: `basic:${credential.apiKeyId}:${credential.profileId}`, limit, kind: 'basic' };
    case 'session':
      return { key: `session:${credential.sessionId}`, limit, kind: 'session' };
    case 'operator':
      return { key: `operator:${credential.sessionId}`, limit, kind: 'operator' };
  }
}
