import type { Logger } from 'pino';
import type { ChannelObserver } from '../../db/notification-channel.ts';
import type { EventEntity } from './event.entity.ts';

/** The PostgreSQL channel the `event` table's trigger announces every profile's committed event on. */
export const EVENTS_CHANNEL = 'tributary_events';
/** Events announced but not yet loaded and handed out; past it the feed counts as lost (the database is too slow). */
const MAX_PENDING = 1000;

/** One subscriber of a profile's events on this process. */
export interface Follower {
  /** Whether it wants events of this type. */
  wants(type: string): boolean;
  deliver(event: EventEntity): void;
  /** The feed was lost: nothing more will come. */
  end(): void;
}

/**
 * Fans the events the database announces out to this process's followers of each profile. An
 * announcement carries only `<profile uuid>:<event uuid>`; the event is loaded once, and only when
 * this process has a follower of that profile. Events are handed out in the order announced (the
 * order of their commits). When the channel is lost, every follower is ended, and until it is back
 * a new follower is ended at once (it would miss what is committed meanwhile, without knowing).
 */
export class LiveEvents implements ChannelObserver {
  readonly #followers = new Map<string, Set<Follower>>();
  readonly #load: (eventId: string) => Promise<EventEntity | null>;
  readonly #logger: Logger;
  readonly #lost: () => void;
  #chain: Promise<void> = Promise.resolve();
  #pending = 0;
  #lostFeed = false;

  /** `lost` is told (a metric) each time the feed is lost. */
  constructor(deps: { load: (eventId: string) => Promise<EventEntity | null>; logger: Logger; lost: () => void }) {
    this.#load = deps.load;
    this.#logger = deps.logger;
    this.#lost = deps.lost;
  }

  /** Follows a profile's events until the returned function is called. */
  follow(profileId: string, follower: Follower): () => void {
    if (this.#lostFeed) {
      queueMicrotask(() => follower.end());
      return () => {};
    }
    let followers = this.#followers.get(profileId);
    if (!followers) this.#followers.set(profileId, (followers = new Set()));
    followers.add(follower);
    return () => {
      followers.delete(follower);
      if (followers.size === 0 && this.#followers.get(profileId) === followers) this.#followers.delete(profileId);
    };
  }

  message(payload: string): void {
    const [profileId = '', eventId = ''] = payload.split(':', 2);
    if (!this.#followers.has(profileId)) return;
    if (this.#pending >= MAX_PENDING) {
      this.#endAll();
      return;
    }
    this.#pending += 1;
    this.#chain = this.#chain.then(() => this.#handOut(profileId, eventId)).finally(() => (this.#pending -= 1));
  }

  down(): void {
    this.#lostFeed = true;
    this.#endAll();
  }

  up(): void {
    this.#lostFeed = false;
  }

  /** Ends every follower: what they would have been handed next is lost to them. */
  #endAll(): void {
    this.#lost();
    const followers = [...this.#followers.values()].flatMap((set) => [...set]);
    this.#followers.clear();
    for (const follower of followers) follower.end();
  }

  async #handOut(profileId: string, eventId: string): Promise<void> {
    const followers = this.#followers.get(profileId);
    if (!followers) return;
    let event: EventEntity | null;
    try {
      event = await this.#load(eventId);
    } catch (error) {
      this.#logger.error({ err: error, eventId }, 'Could not load an announced event; live subscribers are ended');
      this.#endAll();
      return;
    }
    if (!event || event.profileId !== profileId) return;
    for (const follower of followers) if (follower.wants(event.type)) follower.deliver(event);
  }
}
