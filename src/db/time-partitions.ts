import { uuidv7Edge, uuidv7Ms } from '../lib/ids.ts';
import { underShortLocks, type MigrationSession, type Sql } from './online-move.ts';

/*
 * The logs that grow with time (the event log, webhook attempts, sync history) are range-partitioned
 * by their uuidv7 id, one partition a week (ids are time-ordered, so an id range is a time range):
 * keyset pages prune to the partitions after their cursor, and retention drops whole partitions
 * instead of deleting rows (docs/decisions/logs-partitioned-by-time.md). The first partition, made
 * when a table is partitioned, holds everything before its first week (from MINVALUE).
 */

export const WEEK_MS = 7 * 86_400_000;
/** How far ahead partitions exist: a week of ids is never refused for want of one while a daily job keeps this far ahead. */
export const WEEKS_AHEAD = 4;

/** One partition of a time-partitioned log: its name, and its id range [from, to) (`from` null: MINVALUE). */
export interface TimePartition {
  name: string;
  from: string | null;
  to: string;
}

/** The instant the weekly partition holding `ms` starts: Monday 00:00 UTC. */
export function weekStart(ms: number): number {
  const day = Math.floor(ms / 86_400_000);
  // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
  return (day - ((day + 3) % 7)) * 86_400_000;
}

/** `<table>_w<yyyymmdd>` of the week starting at `ms`. */
function weekName(table: string, ms: number): string {
  return `${table}_w${new Date(ms).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** A table's partitions, oldest first, with their id ranges read from the catalog. */
export async function timePartitions(sql: Sql, table: string): Promise<TimePartition[]> {
  const rows = await sql<{ name: string; bound: string }>(
    `select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
       from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = $1::regclass`,
    [`"${table}"`],
  );
  return rows.map(({ name, bound }) => {
    const match = /FROM \((?:'([0-9a-f-]{36})'|MINVALUE)\) TO \('([0-9a-f-]{36})'\)/.exec(bound);
    if (!match) throw new Error(`${name} is not a partition of an id range: ${bound}`);
    return { name, from: match[1] ?? null, to: match[2]! };
  }).sort((a, b) => (a.to < b.to ? -1 : 1));
}

/**
 * Creates the weekly partitions missing between the newest one's end and `WEEKS_AHEAD` weeks past
 * `now`, each under a short lock on the log (creating a partition locks its parent). Resolves to
 * the names it created.
 */
export async function createComingWeeks(session: MigrationSession, table: string, now: number): Promise<string[]> {
  const newest = (await timePartitions(session.sql, table)).at(-1);
  if (!newest) throw new Error(`${table} has no partition to follow`);
  const created: string[] = [];
  const horizon = weekStart(now) + (WEEKS_AHEAD + 1) * WEEK_MS;
  for (let from = uuidv7Ms(newest.to); from < horizon; from += WEEK_MS) {
    await underShortLocks(session, async (sql) => void created.push(await createWeek(sql, table, from)));
  }
  return created;
}

/** Creates the partition of the week starting at `from` (a Monday 00:00 UTC); resolves to its name. */
export async function createWeek(sql: Sql, table: string, from: number): Promise<string> {
  const name = weekName(table, from);
  await sql(`create table "${name}" partition of "${table}" for values from ('${uuidv7Edge(from, 'first')}') to ('${uuidv7Edge(from + WEEK_MS, 'first')}')`);
  return name;
}

/**
 * Drops the partitions whose every id is older than `before` (their range ends at or before it),
 * oldest first, unless `kept(partition)` says one must stay (then it and every newer one stay, so
 * that what is kept is always one contiguous range). Each drop is a short transaction of its own
 * under a short lock on the log. Resolves to the names it dropped.
 */
export async function dropWeeksBefore(
  session: MigrationSession,
  table: string,
  before: number,
  kept: (sql: Sql, partition: TimePartition) => Promise<boolean> = async () => false,
): Promise<string[]> {
  const partitions = await timePartitions(session.sql, table);
  const dropped: string[] = [];
  // The newest partition always stays: new ids need somewhere to go.
  for (const partition of partitions.slice(0, -1)) {
    if (uuidv7Ms(partition.to) > before) break;
    let stays = false;
    await underShortLocks(session, async (sql) => {
      // The drop's own lock comes first: no writer adds to the partition between the check and the drop.
      await sql(`lock table "${table}" in access exclusive mode`);
      stays = await kept(sql, partition);
      if (!stays) await sql(`drop table "${partition.name}"`);
    });
    if (stays) break;
    dropped.push(partition.name);
  }
  return dropped;
}

/**
 * Lays a log out as if it had been partitioned weekly since `fromMs`: its first partition (which must
 * be empty) is made to end at the Monday before `fromMs`, and a partition a week follows up to the
 * weeks the migration made. What a log looks like once it has run for a while, for the scale bench's
 * seed and the tests of its plans. A log already laid out from then or before is left as it is.
 */
export async function weeksSince(sql: Sql, table: string, fromMs: number): Promise<void> {
  const [initial, next] = await timePartitions(sql, table);
  if (!initial || initial.from !== null || !next) throw new Error(`${table} has no first partition followed by a week`);
  const start = weekStart(fromMs);
  if (uuidv7Ms(initial.to) <= start) return;
  if ((await sql(`select 1 from "${initial.name}" limit 1`)).length > 0) throw new Error(`${initial.name} holds rows`);
  await sql(`drop table "${initial.name}"`);
  await sql(`create table "${initial.name}" partition of "${table}" for values from (minvalue) to ('${uuidv7Edge(start, 'first')}')`);
  for (let week = start; week < uuidv7Ms(initial.to); week += WEEK_MS) await createWeek(sql, table, week);
}

/**
 * The oldest id a log still holds every event from: the lower bound of its oldest partition (null:
 * the first partition is still there, so nothing was ever dropped).
 */
export async function keptFrom(sql: Sql, table: string): Promise<string | null> {
  return (await timePartitions(sql, table))[0]?.from ?? null;
}
