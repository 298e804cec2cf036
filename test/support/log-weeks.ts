import type { Sql } from '../../src/db/online-move.ts';
import { createWeek, timePartitions, uuidv7Ms, WEEK_MS, weekStart } from '../../src/db/time-partitions.ts';
import { uuidv7Edge } from '../../src/lib/ids.ts';

/**
 * Lays a log out as if it had been partitioned weekly since `fromMs`: its first partition (which must
 * still be empty) ends at the Monday before `fromMs`, and a partition a week follows up to the weeks
 * the migration made. What a log looks like once it has run for a while, for tests and benches of
 * its plans.
 */
export async function weeksSince(sql: Sql, table: string, fromMs: number): Promise<void> {
  const [initial, next] = await timePartitions(sql, table);
  if (!initial || initial.from !== null || !next) throw new Error(`${table} has no first partition followed by a week`);
  if ((await sql(`select 1 from "${initial.name}" limit 1`)).length > 0) throw new Error(`${initial.name} holds rows`);
  const start = weekStart(fromMs);
  await sql(`drop table "${initial.name}"`);
  await sql(`create table "${initial.name}" partition of "${table}" for values from (minvalue) to ('${uuidv7Edge(start, 'first')}')`);
  for (let week = start; week < uuidv7Ms(initial.to); week += WEEK_MS) await createWeek(sql, table, week);
}
