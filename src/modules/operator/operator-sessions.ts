import type { EntityManager } from '@mikro-orm/postgresql';
import { uuidv7 } from '../../lib/ids.ts';
import { csrfTokenOf, newSessionToken, sessionTokenHash } from './console-cookie.ts';
import { OperatorSession, type OperatorEntity, type OperatorSessionEntity, type OperatorRole } from './operator.entity.ts';
import { endOperatorSession, liveOperatorSession, touchOperatorSession } from './operator.store.ts';

/** A console session ends after this long without a request… */
export const IDLE_LIFETIME_MS = 30 * 60_000;
/** …and this long after sign-in whatever happens. */
export const ABSOLUTE_LIFETIME_MS = 12 * 3_600_000;

/** What a request's console session lets it do, as the credential check answers it. */
export interface OperatorSessionGrant {
  sessionId: string;
  operatorId: string;
  email: string;
  /** The operator's role in the environment the request names; null: none, or no environment named. */
  role: OperatorRole | null;
  totpEnrolmentRequired: boolean;
  csrfToken: string;
  /** The session's absolute end. */
  expiresAt: Date;
}

/** The lifetimes of a session as the API shows them. */
export interface SessionTerms {
  expiresAt: Date;
  idleExpiresAt: Date;
}

/**
 * Console sessions: opened at sign-in, checked on every request (a plain read by the token's hash:
 * the console sends few requests, so nothing is remembered between them and an ended session is
 * refused at once on every instance), moved forward while used, ended at sign-out. `now` is the
 * service's clock (tests move it).
 */
export class OperatorSessions {
  readonly now: () => Date;

  constructor(now: () => Date = () => new Date()) {
    this.now = now;
  }

  /** Opens a session for `operator` (flushed with the caller's unit of work); the token goes to the cookie and nowhere else. */
  open(em: EntityManager, operator: OperatorEntity): { token: string; session: OperatorSessionEntity } {
    const token = newSessionToken();
    const now = this.now();
    const session = em.create(OperatorSession, {
      id: uuidv7(),
      operator,
      tokenHash: sessionTokenHash(token),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + ABSOLUTE_LIFETIME_MS),
      endedAt: null,
    });
    return { token, session };
  }

  /** The session of `token` while it holds, with the operator's role in `environmentId`; the request counts as its use. */
  async check(em: EntityManager, token: string, environmentId: string | null): Promise<OperatorSessionGrant | undefined> {
    const now = this.now();
    const live = await liveOperatorSession(em, sessionTokenHash(token), environmentId, now, IDLE_LIFETIME_MS);
    if (!live) return undefined;
    await touchOperatorSession(em, live.sessionId, now);
    const { sessionId, operatorId, email, role, totpEnrolmentRequired, expiresAt } = live;
    return { sessionId, operatorId, email, role, totpEnrolmentRequired, expiresAt, csrfToken: csrfTokenOf(token) };
  }

  /** When a session used now ends: idle, or at its absolute end, whichever comes first. */
  terms(expiresAt: Date): SessionTerms {
    return { expiresAt, idleExpiresAt: new Date(Math.min(expiresAt.getTime(), this.now().getTime() + IDLE_LIFETIME_MS)) };
  }

  end(em: EntityManager, sessionId: string): Promise<void> {
    return endOperatorSession(em, sessionId, this.now());
  }
}
