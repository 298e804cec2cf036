import type { TimePartitionedLog } from '../../db/log-retention.ts';
import type { Sql } from '../../db/online-move.ts';
import type { TimePartition } from '../../db/time-partitions.ts';

/** Whether an attempt still owed (PENDING) has a `column` in the partition's id range: read through the status index, which holds few PENDING rows. */
async function owedWithin(sql: Sql, column: 'id' | 'event_id', { from, to }: TimePartition): Promise<boolean> {
  const rows = await sql(
    `select 1 from webhook_delivery where status = 'PENDING' and ${column} < $1 ${from ? `and ${column} >= $2` : ''} limit 1`,
    from ? [to, from] : [to],
  );
  return rows.length > 0;
}

/** The event log's weeks: one stays while an attempt of one of its events is owed (a redelivery of an old event). */
export const EVENT_LOG: TimePartitionedLog = { table: 'event', kept: (sql, partition) => owedWithin(sql, 'event_id', partition) };

/** Webhook attempts' weeks: one stays while one of its attempts is owed. */
export const ATTEMPT_LOG: TimePartitionedLog = { table: 'webhook_delivery', kept: (sql, partition) => owedWithin(sql, 'id', partition) };
