import type { EventEntity } from '../modules/event/event.entity.ts';
import type { Follower } from '../modules/event/live-events.ts';

/** Events waiting for one subscription to take them; past it the subscription fails instead of buffering more. */
const MAX_WAITING = 100;

/** Why a subscription ended from the service's side; graphql-ws and graphql-sse send it as an error. */
export class FeedEnded extends Error {}

/**
 * One subscription's events as an async iterator, fed by a Follower: bounded (a subscription that
 * falls MAX_WAITING events behind fails), ended with an error when the feed is lost, and
 * unfollowed when the client completes it (`return`). `beforeEach` runs before each event is handed on.
 */
export function eventStream(wants: (type: string) => boolean, follow: (follower: Follower) => () => void, beforeEach: () => void): AsyncIterableIterator<EventEntity> {
  const waiting: EventEntity[] = [];
  let failure: FeedEnded | undefined;
  let done = false;
  let wake: (() => void) | undefined;
  const settle = () => {
    wake?.();
    wake = undefined;
  };
  const unfollow = follow({
    wants,
    deliver(event) {
      if (waiting.length >= MAX_WAITING) failure ??= new FeedEnded('This subscription fell too far behind its events and was ended: subscribe again');
      else waiting.push(event);
      settle();
    },
    end() {
      failure ??= new FeedEnded('Live updates are unavailable for a moment: subscribe again');
      settle();
    },
  });
  const finish = (): IteratorResult<EventEntity> => {
    done = true;
    unfollow();
    settle();
    return { done: true, value: undefined };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      while (!done) {
        const event = waiting.shift();
        if (event) {
          beforeEach();
          return { done: false, value: event };
        }
        if (failure) {
          finish();
          throw failure;
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
      return { done: true, value: undefined };
    },
    async return() {
      return finish();
    },
    async throw(error: unknown) {
      finish();
      throw error;
    },
  };
}
