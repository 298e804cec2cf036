import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { AppError } from '../errors.ts';
import { uuidv7Ms } from '../lib/ids.ts';
import { migrationSession, type Sql } from './online-move.ts';
import { run } from './statement.ts';
import { createComingWeeks, dropWeeksBefore, keptFrom, type TimePartition } from './time-partitions.ts';
import { DAY_MS } from '../lib/dates.ts';

const LOG_RETENTION = 'log.retention';

/** A log partitioned by time (time-partitions.ts), and what keeps one of its weeks past the retention. */
export interface TimePartitionedLog {
  table: string;
  /** True while something still needs the partition (an attempt owed of one of its events). */
  kept?: (sql: Sql, partition: TimePartition) => Promise<boolean>;
  /** How long this log keeps an entry, when not LOG_RETENTION_DAYS (the operators' audit log: AUDIT_RETENTION_DAYS). */
  retentionDays?: number;
}

export interface LogRetentionDependencies {
  orm: MikroORM;
  logger: Logger;
  /** LOG_RETENTION_DAYS: a week is dropped once its newest entry is this many days old. */
  retentionDays: number;
  logs: TimePartitionedLog[];
}

/**
 * Every hour, and when a worker starts (a deployment stopped for weeks may have run out of weeks
 * ahead), for each log partitioned by time: makes the weeks to come (WEEKS_AHEAD of them) and drops
 * the weeks past LOG_RETENTION_DAYS (docs/decisions/logs-partitioned-by-time.md). Hourly, though a
 * week changes weekly, so that a run that found a lock busy is soon made again. One run at a time
 * across instances (`stately`): two would create the same week.
 */
export function logRetentionJob(deps: LogRetentionDependencies): { name: string; cron: string; policy: 'stately'; handle(): Promise<void> } {
  return {
    name: LOG_RETENTION,
    cron: '41 * * * *',
    policy: 'stately',
    async handle() {
      await applyLogRetention(deps);
    },
  };
}

/** One run at `now`; resolves to the partitions it created and dropped. */
export async function applyLogRetention(
  { orm, logger, retentionDays, logs }: LogRetentionDependencies,
  now = Date.now(),
): Promise<{ created: string[]; dropped: string[] }> {
  const session = migrationSession(orm.em.fork().getKysely());
  const done = { created: [] as string[], dropped: [] as string[] };
  for (const { table, kept, retentionDays: ownDays } of logs) {
    done.created.push(...(await createComingWeeks(session, table, now)));
    done.dropped.push(...(await dropWeeksBefore(session, table, now - (ownDays ?? retentionDays) * DAY_MS, kept)));
  }
  if (done.created.length > 0 || done.dropped.length > 0) logger.info(done, 'log partitions created and dropped');
  return done;
}

/**
 * Refuses a list's cursor older than what its log still holds entirely: its entries after the cursor
 * may have been dropped, and a page from it would skip them silently. Within the retention no week
 * has been dropped, so only an older cursor costs a look at the catalog.
 */
export async function assertCursorKept(em: EntityManager, table: string, cursorId: string, retentionDays: number, now = Date.now(), setting = 'LOG_RETENTION_DAYS'): Promise<void> {
  if (uuidv7Ms(cursorId) >= now - retentionDays * DAY_MS) return;
  const from = await keptFrom(async (text, params) => (await run(em, text, params)).rows as never, table);
  if (from === null || cursorId >= from) return;
  throw new AppError(410, 'CURSOR_EXPIRED', `Entries before ${new Date(uuidv7Ms(from)).toISOString()} are no longer kept (${setting} is ${retentionDays}); the cursor points before them, and entries after it may be gone.`, {
    instruction: 'Start again without `after` (the oldest kept entries come first), and read the records themselves to cover what was missed.',
  });
}
