import type { MikroORM } from '@mikro-orm/postgresql';
import type { JobDefinition } from '../../jobs/queue.ts';
import { SESSION_LIFETIME_MS } from './session-token.ts';
import { deleteExpiredSessions, pruneRemovedSessions } from './session.store.ts';
import { DAY_MS } from '../../lib/dates.ts';
import { deleteExpiredOperatorSessions } from '../operator/operator.store.ts';

const RETENTION = 'session.retention';
/** Rows deleted per statement: each batch is a short transaction of its own. */
const RETENTION_BATCH = 1000;
/** Batches per table per run: a backlog (the first run on an old database) is worked off over several hours, never in one long job. */
const RETENTION_BATCHES_PER_RUN = 100;

export interface SessionRetentionDependencies {
  orm: MikroORM;
  /** SESSION_RETENTION_DAYS: a session (an end-user's or an operator's) is deleted this many days after it expired. */
  retentionDays: number;
}

/**
 * Every hour, deletes the sessions that expired more than `retentionDays` ago (a revoked one too:
 * every session expires within a lifetime of its issue), and the tombstones of removed sessions
 * issued over a lifetime ago (docs/decisions/sessions-retention.md). Deleting an expired session
 * changes no credential check: its tokens expired with it, so the session trigger leaves no
 * tombstone for it and announces nothing. The operators' console sessions go the same way, the same
 * number of days after their absolute end (an ended or idle one included): none is checked again.
 */
export function sessionRetentionJob(deps: SessionRetentionDependencies): JobDefinition<object> {
  return {
    name: RETENTION,
    cron: '23 * * * *',
    async handle() {
      await applySessionRetention(deps);
    },
  };
}

/** One run at `now`, `batches` statements of `batch` rows at most per table; resolves to how many sessions and tombstones it deleted. */
export async function applySessionRetention(
  { orm, retentionDays }: SessionRetentionDependencies,
  now = new Date(),
  { batch: size, batches } = { batch: RETENTION_BATCH, batches: RETENTION_BATCHES_PER_RUN },
): Promise<{ sessions: number; tombstones: number; operatorSessions: number }> {
  const em = orm.em.fork();
  const expiredBefore = new Date(now.getTime() - retentionDays * DAY_MS);
  const issuedBefore = new Date(now.getTime() - SESSION_LIFETIME_MS);
  return {
    sessions: await inBatches(batches, size, () => deleteExpiredSessions(em, expiredBefore, size)),
    tombstones: await inBatches(batches, size, () => pruneRemovedSessions(em, issuedBefore, size)),
    operatorSessions: await inBatches(batches, size, () => deleteExpiredOperatorSessions(em, expiredBefore, size)),
  };
}

/** Runs `deleteBatch` until a batch deletes fewer than `size` rows, at most `batches` times; resolves to how many it deleted. */
async function inBatches(batches: number, size: number, deleteBatch: () => Promise<number>): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < batches; batch++) {
    const count = await deleteBatch();
    deleted += count;
    if (count < size) break;
  }
  return deleted;
}
