import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { JobDefinition } from '../../jobs/queue.ts';
import { connectionOrFail } from '../connection/connection.store.ts';
import { recordStreamEvent } from './recurring.service.ts';
import { connectionsWithOverdueStreams, endOverdueStreams } from './recurring.store.ts';

export const RECURRING_SWEEP = 'recurring.sweep';
/** Connections handled per round of a sweep: each round's query is bounded, and the sweep goes on until a round comes back short. */
const CONNECTIONS_PER_ROUND = 200;

/**
 * Daily, just after midnight UTC, ends the streams whose predicted date passed more than their
 * grace period ago (detection.ts's ENDED). A recomputation judges status too, but it runs only after
 * a sync that changed transactions: an account that went quiet, or a connection no longer syncing,
 * would otherwise keep its streams active for good. `today` is the UTC date the sweep judges by.
 */
export function recurringSweepJob(orm: MikroORM, today: () => string = () => new Date().toISOString().slice(0, 10)): JobDefinition<object> {
  return {
    name: RECURRING_SWEEP,
    cron: '5 0 * * *',
    handle: async () => {
      await sweepOverdueStreams(orm.em.fork(), today());
    },
  };
}

/**
 * Marks every stream past its grace period on `today` ENDED and records `recurring_stream.ended`
 * for each, one connection per transaction; resolves to how many streams it ended. It holds the
 * connection's row lock, like a recomputation, so the two never both see a stream end: the one
 * that comes second finds it ENDED already.
 */
export async function sweepOverdueStreams(em: EntityManager, today: string): Promise<number> {
  let ended = 0;
  for (;;) {
    const connections = await connectionsWithOverdueStreams(em, today, CONNECTIONS_PER_ROUND);
    for (const key of connections) {
      ended += await em.transactional(async (tx) => {
        const connection = await connectionOrFail(tx, key, { lock: true, profile: true });
        const streams = await endOverdueStreams(tx, { connectionId: key.id, profileId: key.profileId }, today);
        for (const stream of streams) recordStreamEvent(tx, connection, 'recurring_stream.ended', stream);
        return streams.length;
      });
    }
    if (connections.length < CONNECTIONS_PER_ROUND) return ended;
  }
}
