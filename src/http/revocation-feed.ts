import type { Logger } from 'pino';
import { NotificationChannel, type ChannelObserver } from '../db/notification-channel.ts';
import type { RevocationEpochs } from './lookup-cache.ts';

/** The PostgreSQL channel the `session`, `api_key` and `profile` triggers announce credential changes on. */
export const REVOCATIONS_CHANNEL = 'tributary_revocations';
/** How often the listening connection is pinged; and how long an unanswered ping waits before the channel counts as lost. */
const HEARTBEAT = { everyMs: 250, timeoutMs: 2000 };
/**
 * The feed vouches for cached answers only while a ping sent less than this long ago has been answered:
 * a revocation is then seen within it, as without a feed (the one-second re-check).
 */
const CONFIRMED_MS = 1000;

/** What a trigger announced: the id of a session, API key or profile whose credentials' answers may have changed. */
export interface Revocation {
  kind: 'session' | 'apiKey' | 'profile';
  id: string;
}

const KINDS: Record<string, Revocation['kind']> = { s: 'session', k: 'apiKey', p: 'profile' };

/**
 * The database's announcements of revoked or changed credentials, told to whoever remembers their
 * answers (the credential resolver), and the epochs those answers may be held in. An epoch ends when
 * the channel is lost (announcements meanwhile are lost to this instance); answers looked up before
 * fall back to the one-second re-check. Within an epoch the feed vouches only while recently confirmed
 * by a ping, so a connection that hangs without failing never makes revocation later than a second.
 */
export class RevocationFeed implements ChannelObserver, RevocationEpochs {
  #revoked: (revocation: Revocation) => void = () => {};
  #epochStarted: (epoch: number) => void = () => {};
  #epoch = 0;
  #up = false;
  /** When the last answered ping was sent. */
  #confirmedAt = Number.NEGATIVE_INFINITY;

  /** Tells `revoked` of every announcement from now on (one recipient: the process's credential resolver). */
  onRevoked(revoked: (revocation: Revocation) => void): void {
    this.#revoked = revoked;
  }

  /**
   * Tells `started` of every epoch that starts from now on, as soon as its LISTEN is up (before the
   * first ping confirms it): whatever commits after that is announced to it (one recipient: the
   * process's ended sessions).
   */
  onEpoch(started: (epoch: number) => void): void {
    this.#epochStarted = started;
  }

  current(): number | undefined {
    return this.#up && Date.now() - this.#confirmedAt < CONFIRMED_MS ? this.#epoch : undefined;
  }

  message(payload: string): void {
    const kind = KINDS[payload.slice(0, 1)];
    if (kind && payload[1] === ':') this.#revoked({ kind, id: payload.slice(2) });
  }

  down(): void {
    this.#up = false;
    this.#epoch += 1;
  }

  up(): void {
    this.#epoch += 1;
    this.#up = true;
    this.#epochStarted(this.#epoch);
  }

  /** A ping sent at `sentAt` was answered: every announcement committed before it has arrived. */
  confirmed(sentAt: number): void {
    this.#confirmedAt = Math.max(this.#confirmedAt, sentAt);
  }
}

/** Listens for revocations on a connection of its own and pings it; until `stop`. Throws when the first LISTEN fails. */
export async function listenForRevocations(url: string, feed: RevocationFeed, logger: Logger): Promise<{ stop(): Promise<void> }> {
  const channel = new NotificationChannel(url, { channel: REVOCATIONS_CHANNEL, applicationName: 'tributary-revocations', label: 'Revocation' }, feed, logger);
  await channel.open();
  feed.up();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const beat = async () => {
    const sentAt = Date.now();
    if (await channel.ping(HEARTBEAT.timeoutMs)) feed.confirmed(sentAt);
    if (stopped) return;
    timer = setTimeout(() => void beat(), HEARTBEAT.everyMs);
    timer.unref();
  };
  await beat();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await channel.close();
    },
  };
}
