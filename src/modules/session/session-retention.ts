import type { MikroORM } from '@mikro-orm/postgresql';
import type { JobDefinition } from '../../jobs/queue.ts';
import { SESSION_LIFETIME_MS } from './session-token.ts';
import { deleteExpiredSessions, pruneRemovedSessions } from './session.store.ts';
import { DAY_MS } from '../../lib/dates.ts';

const RETENTION = 'session.retention';
/** Rows deleted per statement: each batch is a short transaction of its own. */
const RETENTION_BATCH = 1000;
/** Batches per table per run: a backlog (the first run on an old database) is worked off over several hours, never in one long job. */
const RETENTION_BATCHES_PER_RUN = 100;

export interface SessionRetentionDependencies {
  orm: MikroORM;
  /** SESSION_RETENTION_DAYS: a session is deleted this many days after it expired. */
  retentionDays: number;
}

/**
 * Every hour, deletes the sessions that expired more than `retentionDays` ago (a revoked one too:
 * every session expires within a lifetime of its issue), and the tombstones of removed sessions
 * issued over a lifetime ago (docs/decisions/sessions-retention.md). Deleting an expired session
 * changes no credential check: its tokens expired with it, so the session trigger leaves no
 * tombstone for it and announces nothing.
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
): Promise<{ sessions: number; tombstones: number }> {
  const em = orm.em.fork();
  const expiredBefore = new Date(now.getTime() - retentionDays * DAY_MS);
  const issuedBefore = new Date(now.getTime() - SESSION_LIFETIME_MS);
  const deleted = { sessions: 0, tombstones: 0 };
  for (let batch = 0; batch < batches; batch++) {
    const count = await deleteExpiredSessions(em, expiredBefore, size);
    deleted.sessions += count;
    if (count < size) break;
  }
  for (let batch = 0; batch < batches; batch++) {
    const count = await pruneRemovedSessions(em, issuedBefore, size);
    deleted.tombstones += count;
    if (count < size) break;
  }
  return deleted;
}
