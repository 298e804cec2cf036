import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidCredential, type Credential } from '../api-kit/credential.ts';
import { decodeId } from '../lib/ids.ts';
import type { CredentialKind, Metrics } from '../metrics/metrics.ts';
import { hashSecret } from '../modules/environment/api-key.service.ts';
import { findLiveKey, type LiveKey } from '../modules/environment/environment.store.ts';
import { isLiveProfile } from '../modules/profile/profile.store.ts';
import type { OperatorSessions } from '../modules/operator/operator-sessions.ts';
import { CURRENT_VERSION } from '../config.ts';
import { looksLikeJwt, type SessionTokens } from '../modules/session/session-token.ts';
import { liveSessionTerms, type LiveSessionTerms } from '../modules/session/session.store.ts';
import type { EndedSessions } from './ended-sessions.ts';
import { LookupCache } from './lookup-cache.ts';
import type { Revocation, RevocationFeed } from './revocation-feed.ts';

/**
 * Valid answers are re-checked this often while the revocation feed does not vouch for them, so a
 * revocation takes effect within it on every instance.
 */
const RECHECK_MS = 1000;
/** Valid answers the feed vouches for are re-checked this often all the same. */
const MAX_AGE_MS = 60_000;
/**
 * Invalid answers are trusted this long. Safe because no credential turns valid after being refused:
 * new keys, profiles and sessions get random ids and secrets that cannot have been tried before. The
 * one exception, an older-generation key imported with a secret clients already send, works within it.
 */
const NEGATIVE_MS = 5000;
const CACHE = { recheckMs: RECHECK_MS, maxAgeMs: MAX_AGE_MS, negativeMs: NEGATIVE_MS, capacity: 100_000 };
/** Secrets whose SHA-256 is remembered (least recently used out), and the longest remembered: ~3 MB at most. */
const HASHES = { capacity: 10_000, maxSecretLength: 200 };

const REFUSED = {
  scheme: 'Unsupported Authorization scheme',
  apiKey: 'The API key is not valid or has been revoked',
  basic: 'The Basic credentials are not valid',
  session: 'The session token is not valid, has expired or has been revoked',
  operator: 'The console session has ended (signed out, idle for 30 minutes, 12 hours old, or the operator was disabled)',
};

/** What an Authorization header claims, read without asking the database. */
export interface Claim {
  /** The credential, when this process already knows it valid (`resolve` re-checks it when due). */
  known: Credential | undefined;
  /**
   * The credential, from memory or the database; throws 401 when it is not valid. `admitLookup` runs
   * before the database is asked about a credential this process does not know valid, and refuses
   * by throwing: the caller's chance to rate-limit unknown credentials before they cost a query.
   * `em` is called only when the database is asked (a request answered from memory forks none).
   */
  resolve(em: () => EntityManager, admitLookup: () => Promise<void>): Promise<Credential>;
}

/**
 * Resolves Authorization headers. Answers are remembered both ways (see LookupCache): API keys by the
 * hash of their secret, Basic pairs by profile and hash, sessions by id. Valid ones are re-checked
 * against their stored rows (revocation, expiry, profile deletion) at most RECHECK_MS apart, or, while
 * the revocation feed vouches for them, when the feed announces a change (and MAX_AGE_MS apart at
 * most); a session also at its expiry. Invalid ones are refused from memory for NEGATIVE_MS. A session
 * token whose session the ended sessions know live or ended is answered from memory without being
 * looked up, even the first time this process sees it.
 */
export class CredentialResolver {
  readonly #tokens: SessionTokens;
  readonly #keys: LookupCache<LiveKey>;
  readonly #pairs: LookupCache<Credential>;
  readonly #sessions: LookupCache<LiveSessionTerms>;
  readonly #hashes = new Map<string, string>();
  readonly #ended: EndedSessions | undefined;
  readonly #metrics: Metrics | undefined;
  readonly #operators: OperatorSessions | undefined;

  /**
   * `metrics` counts how each check was answered (memory or database); `feed`, when given, tells of
   * revocations, and `ended` (kept current by the same feed) answers session tokens from memory;
   * `operators` checks the console's session cookies (absent: they are refused).
   */
  constructor(tokens: SessionTokens, metrics?: Metrics, feed?: RevocationFeed, ended?: EndedSessions, operators?: OperatorSessions) {
    this.#tokens = tokens;
    this.#operators = operators;
    this.#ended = ended;
    this.#metrics = metrics;
    const cache = (kind: CredentialKind) => ({ ...CACHE, feed, counted: metrics && ((answer: 'memory' | 'database') => metrics.credentialCheck(kind, answer)) });
    this.#keys = new LookupCache(cache('api_key'));
    this.#pairs = new LookupCache(cache('basic'));
    this.#sessions = new LookupCache({ ...cache('session'), expiresAt: (terms) => terms.expiresAt.getTime() });
    feed?.onRevoked((revocation) => this.#revoked(revocation));
  }

  /** Reads a header; verifying a session token's signature is the only work it does. */
  async claim(header: string): Promise<Claim> {
    const [scheme = '', value = ''] = header.trim().split(/\s+/, 2);
    switch (scheme.toLowerCase()) {
      case 'bearer':
        return looksLikeJwt(value) ? this.#session(value) : this.#apiKey(value);
      case 'basic':
        return this.#basic(value);
      default:
        return refused(REFUSED.scheme);
    }
  }

  /**
   * The console's session cookie `token`, acting on environment `environmentHeader` (a public id, or
   * undefined). Never remembered: each request reads the session, so sign-out, idle expiry and
   * disabling take effect at once on every instance, and the request moves the idle expiry.
   */
  claimOperator(token: string, environmentHeader: string | undefined): Claim {
    const operators = this.#operators;
    if (!operators) return refused(REFUSED.operator);
    const environmentId = (environmentHeader && decodeId('environment', environmentHeader)) || null;
    return {
      known: undefined,
      resolve: async (em, admitLookup) => {
        await admitLookup();
        this.#metrics?.credentialCheck('operator', 'database');
        const grant = await operators.check(em(), token, environmentId);
        if (!grant) throw invalidCredential(REFUSED.operator);
        return { kind: 'operator', ...grant, environmentId: environmentId ?? '', generation: 'CURRENT', apiVersion: CURRENT_VERSION };
      },
    };
  }

  /** Forgets a session at once in this process (its revocation reaches other instances within a second). */
  forget(sessionId: string): void {
    this.#sessions.forget(sessionId);
    this.#ended?.forget(sessionId);
  }

  /** Drops the answers a change announced by the feed may have turned; their next check is a lookup. */
  #revoked(revocation: Revocation): void {
    this.#ended?.revoked(revocation);
    const { kind, id } = revocation;
    switch (kind) {
      case 'session':
        this.#sessions.evict(id);
        return;
      case 'apiKey':
        this.#keys.evictWhere((key) => key.apiKeyId === id);
        this.#pairs.evictWhere((pair) => pair.kind === 'basic' && pair.apiKeyId === id);
        return;
      case 'profile':
        this.#sessions.evictWhere((terms) => terms.profileId === id);
        this.#pairs.evictWhere((pair) => pair.kind === 'basic' && pair.profileId === id);
    }
  }

  #apiKey(secret: string): Claim {
    if (!secret) return refused(REFUSED.apiKey);
    const hash = this.#hash(secret);
    return claimOf(this.#keys, hash, (em) => findLiveKey(em, hash), (key) => ({ kind: 'apiKey', ...key }), REFUSED.apiKey);
  }

  #basic(value: string): Claim {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    const profileId = separator > 0 ? decodeId('profile', decoded.slice(0, separator)) : undefined;
    const secret = decoded.slice(separator + 1);
    if (!profileId || !secret) return refused(REFUSED.basic);
    const hash = this.#hash(secret);
    const lookUp = async (em: EntityManager): Promise<Credential | undefined> => {
      // The pair was admitted already; the key on its own needs no second admission.
      const key = await this.#keys.get(hash, () => findLiveKey(em, hash), async () => {});
      return key && (await isLiveProfile(em, key.environmentId, profileId)) ? { kind: 'basic', ...key, profileId } : undefined;
    };
    return claimOf(this.#pairs, `${profileId}:${hash}`, lookUp, (credential) => credential, REFUSED.basic);
  }

  /**
   * The SHA-256 of a secret, computed once per secret while it is used (every request of a client
   * sends the same one). The map is keyed by the secret itself: a lookup compares a secret's bytes only
   * to a remembered one whose per-process seeded string hash is equal, which a client cannot aim at, so
   * it reveals no more than the hash lookup behind it. A flood of made-up secrets can push a hot one
   * out, which costs it one hash again.
   */
  #hash(secret: string): string {
    const remembered = this.#hashes.get(secret);
    if (remembered !== undefined) {
      this.#hashes.delete(secret);
      this.#hashes.set(secret, remembered);
      return remembered;
    }
    const hash = hashSecret(secret);
    if (secret.length <= HASHES.maxSecretLength) {
      this.#hashes.set(secret, hash);
      if (this.#hashes.size > HASHES.capacity) this.#hashes.delete(this.#hashes.keys().next().value!);
    }
    return hash;
  }

  async #session(token: string): Promise<Claim> {
    const claims = await this.#tokens.verify(token);
    if (!claims) return refused(REFUSED.session);
    const { sessionId, profileId, environmentId, apiVersion } = claims;
    const credential: Credential = { kind: 'session', sessionId, profileId, environmentId, apiVersion, generation: 'CURRENT' };
    const remembered = this.#ended?.answer(claims);
    if (remembered) return this.#fromMemory(remembered === 'live' ? credential : undefined);
    return claimOf(this.#sessions, sessionId, (em) => liveSessionTerms(em, sessionId), () => credential, REFUSED.session);
  }

  /** The claim of a session token the ended sessions know live (`credential`) or ended (undefined): answered without a lookup. */
  #fromMemory(credential: Credential | undefined): Claim {
    return {
      known: credential,
      resolve: async () => {
        this.#metrics?.credentialCheck('session', 'memory');
        if (!credential) throw invalidCredential(REFUSED.session);
        return credential;
      },
    };
  }
}

/** The claim of a credential whose answers `cache` remembers under `key`. */
function claimOf<T>(
  cache: LookupCache<T>,
  key: string,
  lookUp: (em: EntityManager) => Promise<T | undefined>,
  credentialOf: (value: T) => Credential,
  refusal: string,
): Claim {
  const known = cache.known(key);
  return {
    known: known === undefined ? undefined : credentialOf(known),
    async resolve(em, admitLookup) {
      const value = await cache.get(key, () => lookUp(em()), admitLookup);
      if (value === undefined) throw invalidCredential(refusal);
      return credentialOf(value);
    },
  };
}

/** A claim refused without any lookup (malformed header, bad signature). */
function refused(message: string): Claim {
  return {
    known: undefined,
    resolve: () => Promise.reject(invalidCredential(message)),
  };
}
