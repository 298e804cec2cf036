import type { EntityManager } from '@mikro-orm/postgresql';
import type { components } from '../../../generated/rest.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { ProfileEntity } from '../profile/profile.entity.ts';
import { ProfileService } from '../profile/profile.service.ts';
import { Session, type SessionEntity } from './session.entity.ts';
import { SESSION_LIFETIME_MS, type SessionTokens } from './session-token.ts';
import { activeSessionTimes, liveSession, pruneRemovedSessions, revokeSession } from './session.store.ts';

/** The issuing limit: at most 10 active tokens per profile per rolling hour and 20 per day; revoked ones do not count. */
export const ISSUING_LIMITS = [
  { windowMs: 3600_000, max: 10, label: 'hour' },
  { windowMs: 24 * 3600_000, max: 20, label: 'day' },
] as const;

export interface IssuedSession {
  token: string;
  session: SessionEntity;
  profile: ProfileEntity;
}

/** Issues and revokes session tokens for the profiles of one environment. */
export class SessionService {
  readonly #em: EntityManager;
  readonly #cipher: FieldCipher;
  readonly #tokens: SessionTokens;
  readonly #environmentId: string;

  constructor(em: EntityManager, cipher: FieldCipher, tokens: SessionTokens, environmentId: string) {
    this.#em = em;
    this.#cipher = cipher;
    this.#tokens = tokens;
    this.#environmentId = environmentId;
  }

  /**
   * Finds (or creates) the profile, merges the given attributes and metadata into it, and issues a
   * token, unless the profile is at its issuing limit. The profile row is locked while counting, so
   * concurrent requests cannot both slip under the limit.
   */
  async issue(request: components['schemas']['SessionCreate'], apiVersion: string): Promise<IssuedSession> {
    const { userId, uuid, ...attributes } = request;
    const session = await this.#em.transactional(async (em) => {
      const profiles = new ProfileService(em, this.#cipher, this.#environmentId);
      let profile: ProfileEntity;
      if (userId === undefined) {
        profile = await profiles.create({ ...attributes, ...(uuid ? { uuid } : {}) });
      } else {
        const found = await profiles.findByIdOrUuid(userId);
        if (!found) throw notFound('Profile');
        profile = await profiles.lock(found);
        if (profile.deletingAt) throw conflict('The profile is being deleted', { instruction: 'Create a new profile instead.' });
        await profiles.update(profile, attributes);
      }
      await this.#checkIssuingLimit(em, profile.id);
      const now = new Date();
      const created = em.create(Session, {
        id: uuidv7(),
        environment: this.#environmentId,
        profile,
        apiVersion,
        createdAt: now,
        expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
        revokedAt: null,
      });
      await em.flush();
      // Issuing outpaces removal (each session is removed once), so a few here keep the tombstones pruned.
      await pruneRemovedSessions(em, new Date(now.getTime() - SESSION_LIFETIME_MS));
      return created;
    });
    const token = await this.#tokens.sign(
      { sessionId: session.id, profileId: session.profile.id, environmentId: this.#environmentId, apiVersion },
      session.createdAt,
      session.expiresAt,
    );
    return { token, session, profile: session.profile as ProfileEntity };
  }

  async #checkIssuingLimit(em: EntityManager, profileId: string): Promise<void> {
    const now = Date.now();
    for (const { windowMs, max, label } of ISSUING_LIMITS) {
      const active = await activeSessionTimes(em, profileId, new Date(now - windowMs));
      if (active.length >= max) {
        // The window frees a slot when its oldest counted token ages out of it.
        const retryAfter = Math.max(1, Math.ceil((active[0]!.getTime() + windowMs - now) / 1000));
        throw new AppError(429, 'SESSION_LIMIT', `This profile already has ${active.length} active session tokens issued in the last ${label} (at most ${max})`, {
          instruction: 'Reuse a token you hold, revoke unused ones with DELETE /v1/users/session, or use Basic Auth (not limited this way).',
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
    }
  }

  /**
   * The session while its token is valid: not revoked or expired, and its profile not being deleted.
   * Null otherwise, even when the credential check (which trusts a known token for up to a second)
   * let the request through.
   */
  live(sessionId: string): Promise<SessionEntity | null> {
    return liveSession(this.#em, this.#environmentId, sessionId);
  }

  revoke(sessionId: string): Promise<void> {
    return revokeSession(this.#em, this.#environmentId, sessionId);
  }
}
