import type { Logger } from 'pino';
import { SESSION_LIFETIME_MS, type VerifiedClaims } from '../modules/session/session-token.ts';
import { holdsSession, type EndedSessionIds } from '../modules/session/session.store.ts';
import type { Revocation, RevocationFeed } from './revocation-feed.ts';

/** How often the set is loaded again within an epoch: what bypassed the triggers shows then, and what aged out of a token lifetime leaves. */
const RELOAD_MS = 30_000;
/** A set loaded longer ago than this vouches for nothing (the credential cache's maximum age), so one failed reload is not an outage. */
const MAX_AGE_MS = 60_000;
/** A load that failed (the database unreachable) is tried again this soon; meanwhile checks are lookups. */
const RETRY_MS = 1000;

/** The sessions issued after `issuedAfter` that ended before their tokens' expiry, as the database says at `now`. */
export type EndedSessionsLoader = (issuedAfter: Date, now: Date) => Promise<EndedSessionIds>;

/** One load of the set, and the announcements of its epoch applied to it since the load began. */
interface EndedSet {
  epoch: number;
  /** When the load began: it vouches for no longer than MAX_AGE_MS from then. */
  loadedAt: number;
  /** It covers the tokens issued after this (a token lifetime before the load, or later when all sessions issued before ended), and only those. */
  horizon: number;
  /** Sessions ended as of the load (as `EndedSessionIds.ids`): refused from memory. */
  ended: Buffer;
  /** Sessions this process revoked since the load: refused from memory too. */
  endedHere: Set<string>;
  /**
   * Sessions and profiles announced since the load began: changed in a way that may end them (or, by
   * hand, un-end them; an announcement does not say which), so they are looked up until the next load.
   */
  changedSessions: Set<string>;
  changedProfiles: Set<string>;
}

/** What memory says of a verified token's session: live or ended, or unknown here (the caller looks it up). */
export type SessionAnswer = 'live' | 'ended' | undefined;

/**
 * Every session, issued within a token lifetime, that ended before its token's expiry, per epoch of the
 * revocation feed (docs/decisions/credentials-sessions-ended-in-memory.md). A token's signature
 * proves who issued it, for whom and until when; this set answers the only other question, whether
 * its session ended early, without a lookup, so even a token's first sight on this instance is
 * answered from memory. The set is loaded once an epoch's LISTEN is up (so whatever commits after the
 * load's snapshot is announced, and announcements that arrive during the load are applied to it),
 * kept current by the announcements, and loaded again every RELOAD_MS. It vouches only for the feed's
 * current, confirmed epoch; otherwise the caller falls back to looking the session up.
 */
export class EndedSessions {
  readonly #feed: RevocationFeed;
  readonly #load: EndedSessionsLoader;
  readonly #logger: Logger;
  /** The set that answers; undefined until this epoch's first load completes. */
  #current: EndedSet | undefined;
  /** The set being loaded, which takes over from `#current` when its load completes in the same epoch. */
  #loading: EndedSet | undefined;
  #epoch: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(feed: RevocationFeed, load: EndedSessionsLoader, logger: Logger) {
    this.#feed = feed;
    this.#load = load;
    this.#logger = logger;
    feed.onEpoch((epoch) => this.#started(epoch));
  }

  /**
   * The token's session as memory knows it, when the feed vouches for the epoch the set was loaded in,
   * the set is fresh and covers the token's issue time: ended if the set says so, live if it names
   * neither the session nor its profile; undefined otherwise (the caller looks the session up).
   */
  answer(claims: VerifiedClaims, now = Date.now()): SessionAnswer {
    const set = this.#current;
    if (set === undefined || set.epoch !== this.#feed.current() || now - set.loadedAt >= MAX_AGE_MS || claims.issuedAt <= set.horizon) return undefined;
    if (set.changedSessions.has(claims.sessionId) || set.changedProfiles.has(claims.profileId)) return undefined;
    return set.endedHere.has(claims.sessionId) || holdsSession(set.ended, claims.sessionId) ? 'ended' : 'live';
  }

  /** Applies an announcement to the set that answers and to the one being loaded. */
  revoked({ kind, id }: Revocation): void {
    for (const set of [this.#current, this.#loading]) {
      if (kind === 'session') set?.changedSessions.add(id);
      else if (kind === 'profile') set?.changedProfiles.add(id);
    }
  }

  /** A session this process revoked: ended, whatever the set knew of it. */
  forget(sessionId: string): void {
    for (const set of [this.#current, this.#loading]) {
      set?.endedHere.add(sessionId);
      set?.changedSessions.delete(sessionId);
    }
  }

  /** How many sessions and profiles the answering set names. */
  size(): number {
    const set = this.#current;
    return set ? set.ended.length / 16 + set.endedHere.size + set.changedSessions.size + set.changedProfiles.size : 0;
  }

  /** Loads the set again now, in the current epoch (the periodic reload's work; tests call it to skip the wait). */
  reload(): Promise<void> {
    return this.#epoch === undefined ? Promise.resolve() : this.#reload(this.#epoch);
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  /** A new epoch: announcements before it may have been lost, so the last epoch's set vouches no more. */
  #started(epoch: number): void {
    this.#epoch = epoch;
    this.#current = undefined;
    void this.#reload(epoch);
  }

  async #reload(epoch: number): Promise<void> {
    clearTimeout(this.#timer);
    const loadedAt = Date.now();
    const set: EndedSet = {
      epoch,
      loadedAt,
      horizon: loadedAt - SESSION_LIFETIME_MS,
      ended: Buffer.alloc(0),
      endedHere: new Set(),
      changedSessions: new Set(),
      changedProfiles: new Set(),
    };
    this.#loading = set;
    let next = RELOAD_MS;
    try {
      const { ids, allIssuedBefore } = await this.#load(new Date(set.horizon), new Date(loadedAt));
      // A later load (a new epoch's, or a reload asked for meanwhile) has taken over, with its own timer.
      if (this.#loading !== set) return;
      set.ended = ids;
      if (allIssuedBefore) set.horizon = Math.max(set.horizon, allIssuedBefore.getTime());
      this.#current = set;
    } catch (error) {
      if (this.#loading !== set) return;
      this.#logger.warn({ err: error }, 'Could not load the ended sessions; session checks are lookups until they load');
      next = RETRY_MS;
    }
    this.#loading = undefined;
    if (this.#stopped) return;
    this.#timer = setTimeout(() => void this.#reload(epoch), next);
    this.#timer.unref();
  }
}
