import type { EntityManager } from '@mikro-orm/postgresql';
import { unauthorized } from '../errors.ts';
import { decodeId } from '../lib/ids.ts';
import type { ApiKeyGeneration } from '../modules/environment/api-key.entity.ts';
import { findLiveKey, hashSecret } from '../modules/environment/api-key.service.ts';
import { Profile } from '../modules/profile/profile.entity.ts';
import { looksLikeJwt, type SessionTokens } from '../modules/session/session-token.ts';

interface Common {
  environmentId: string;
  generation: ApiKeyGeneration;
  apiVersion: string;
}

/**
 * Who is calling. `apiKey`: the environment's server (Bearer secret key). `basic`: a server acting as
 * one profile (Basic profileId:secretKey). `session`: an end-user's app acting as its profile
 * (Bearer session token).
 */
export type Credential =
  | ({ kind: 'apiKey'; apiKeyId: string } & Common)
  | ({ kind: 'basic'; apiKeyId: string; profileId: string } & Common)
  | ({ kind: 'session'; sessionId: string; profileId: string } & Common);

export const WWW_AUTHENTICATE = 'Bearer realm="tributary", Basic realm="tributary", charset="UTF-8"';

const REVOCATION_CACHE_MS = 1000;
const CACHE_ENTRIES = 100_000;

type KeyFacts = { apiKeyId: string } & Common;

export const invalidCredential = (message: string) =>
  unauthorized(message, {
    instruction: 'Send Authorization: Bearer <API secret key>, Basic base64(<profile id>:<API secret key>), or Bearer <session token>.',
    headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
  });

/**
 * Resolves Authorization headers. API keys and session tokens are checked against their stored rows
 * (revocation, expiry, profile deletion) at most REVOCATION_CACHE_MS apart, so a revoked credential
 * stops working within a second on every instance while hot credentials cost no query per request.
 */
export class CredentialResolver {
  readonly #tokens: SessionTokens;
  readonly #liveSessions = new Map<string, number>();
  readonly #liveKeys = new Map<string, { facts: KeyFacts; checkedAt: number }>();

  constructor(tokens: SessionTokens) {
    this.#tokens = tokens;
  }

  /** The credential of a header; throws 401 when it is present but not valid. */
  async resolve(em: EntityManager, header: string): Promise<Credential> {
    const [scheme = '', value = ''] = header.trim().split(/\s+/, 2);
    switch (scheme.toLowerCase()) {
      case 'bearer':
        return looksLikeJwt(value) ? this.#session(em, value) : this.#apiKey(em, value);
      case 'basic':
        return this.#basic(em, value);
      default:
        throw invalidCredential('Unsupported Authorization scheme');
    }
  }

  /** Forgets a session at once in this process (its revocation reaches other instances within a second). */
  forget(sessionId: string): void {
    this.#liveSessions.delete(sessionId);
  }

  async #apiKey(em: EntityManager, secret: string): Promise<Credential> {
    const key = await this.#liveKey(em, secret);
    if (!key) throw invalidCredential('The API key is not valid or has been revoked');
    return { kind: 'apiKey', ...key };
  }

  async #basic(em: EntityManager, value: string): Promise<Credential> {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    const profileId = separator > 0 ? decodeId('profile', decoded.slice(0, separator)) : undefined;
    const key = profileId ? await this.#liveKey(em, decoded.slice(separator + 1)) : undefined;
    const profile = key && (await em.findOne(Profile, { id: profileId!, environment: key.environmentId, deletingAt: null }, { fields: ['id'] }));
    if (!key || !profile) throw invalidCredential('The Basic credentials are not valid');
    return { kind: 'basic', ...key, profileId: profile.id };
  }

  async #liveKey(em: EntityManager, secret: string): Promise<KeyFacts | undefined> {
    if (!secret) return undefined;
    const hash = hashSecret(secret);
    const cached = this.#liveKeys.get(hash);
    if (cached && Date.now() - cached.checkedAt < REVOCATION_CACHE_MS) return cached.facts;
    const key = await findLiveKey(em, hash);
    if (!key) {
      this.#liveKeys.delete(hash);
      return undefined;
    }
    const facts = { apiKeyId: key.id, environmentId: key.environment.id, generation: key.generation, apiVersion: key.apiVersion };
    if (this.#liveKeys.size >= CACHE_ENTRIES) this.#liveKeys.clear();
    this.#liveKeys.set(hash, { facts, checkedAt: Date.now() });
    return facts;
  }

  async #session(em: EntityManager, token: string): Promise<Credential> {
    const claims = await this.#tokens.verify(token);
    if (!claims || !(await this.#isLive(em, claims.sessionId))) throw invalidCredential('The session token is not valid, has expired or has been revoked');
    return { kind: 'session', ...claims, generation: 'CURRENT' };
  }

  async #isLive(em: EntityManager, sessionId: string): Promise<boolean> {
    const checkedAt = this.#liveSessions.get(sessionId);
    if (checkedAt !== undefined && Date.now() - checkedAt < REVOCATION_CACHE_MS) return true;
    // Runs for every token at most once a second: plain SQL, no query builder.
    const [row] = await em.execute<Array<{ live: boolean }>>(
      `select exists (select 1 from session s join profile p on p.id = s.profile_id
                       where s.id = ? and s.revoked_at is null and s.expires_at > now() and p.deleting_at is null) as live`,
      [sessionId],
    );
    const live = row?.live === true;
    if (live) this.#liveSessions.set(sessionId, Date.now());
    else this.#liveSessions.delete(sessionId);
    if (this.#liveSessions.size > CACHE_ENTRIES) this.#liveSessions.clear();
    return live;
  }
}
