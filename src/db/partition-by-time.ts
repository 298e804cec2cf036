import { uuidv7Edge } from '../lib/ids.ts';
import { underShortLocks, type MigrationSession } from './online-move.ts';
import { createComingWeeks, createWeek, WEEK_MS, weekStart } from './time-partitions.ts';

/** A first week that starts sooner than this is skipped: the swap must land before its ids do. */
const FIRST_WEEK_MARGIN_MS = 3_600_000;

/**
 * Turns a log table (uuidv7 `id` primary key) into one range-partitioned by id, without copying a
 * row and without stopping writes for longer than one short lock: the table as it is becomes the
 * first partition, holding every id before the next week (a CHECK constraint validated beforehand,
 * while writes go on, spares the attach its scan); weekly partitions follow it. The new parent gets
 * the old table's name, columns, indexes, keys, foreign keys and triggers under their own names, so
 * the entities' view of the schema is unchanged. A table already partitioned is left as it is; a
 * run stopped halfway is taken up again. Foreign keys that point at the table must be dropped first.
 */
export async function partitionByTime(session: MigrationSession, table: string, now = Date.now()): Promise<void> {
  const [{ kind } = { kind: '' }] = await session.sql<{ kind: string }>(`select relkind::text as kind from pg_class where oid = $1::regclass`, [`"${table}"`]);
  if (kind === 'p') return;
  let firstWeek = weekStart(now) + WEEK_MS;
  if (firstWeek - now < FIRST_WEEK_MARGIN_MS) firstWeek += WEEK_MS;
  const boundary = uuidv7Edge(firstWeek, 'first');
  const initial = `${table}_initial`;
  const bound = `${table}_before_weeks`;

  await underShortLocks(session, async (sql) => {
    await sql(`alter table "${table}" drop constraint if exists "${bound}"`);
    await sql(`alter table "${table}" add constraint "${bound}" check (id < '${boundary}') not valid`);
  });
  // Reads every row, under a lock that lets writes through.
  await session.sql(`alter table "${table}" validate constraint "${bound}"`);

  await underShortLocks(session, async (sql) => {
    await sql(`lock table "${table}" in access exclusive mode`);
    const indexes = await sql<{ name: string; definition: string; constraintDefinition: string | null }>(
      `select c.relname as name, pg_get_indexdef(i.indexrelid) as definition, pg_get_constraintdef(k.oid) as "constraintDefinition"
         from pg_index i join pg_class c on c.oid = i.indexrelid
         left join pg_constraint k on k.conindid = i.indexrelid and k.conrelid = i.indrelid
        where i.indrelid = $1::regclass`, [`"${table}"`]);
    // Foreign keys and checks (the attached table keeps its own under the same names, as PostgreSQL asks).
    const constraints = await sql<{ name: string; definition: string }>(
      `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint where conrelid = $1::regclass and contype in ('f', 'c') and conname <> $2`,
      [`"${table}"`, bound]);
    const triggers = await sql<{ name: string; definition: string }>(
      `select tgname as name, pg_get_triggerdef(oid) as definition from pg_trigger where tgrelid = $1::regclass and not tgisinternal`, [`"${table}"`]);

    await sql(`alter table "${table}" rename to "${initial}"`);
    for (const { name } of indexes) await sql(`alter index "${name}" rename to "${`${name}_initial`.slice(0, 63)}"`);
    for (const { name } of triggers) await sql(`drop trigger "${name}" on "${initial}"`);
    await sql(`create table "${table}" (like "${initial}" including defaults including generated including identity including storage including compression) partition by range (id)`);
    // Definitions read before the rename name the table by its name, which is now the parent's.
    for (const { name, definition, constraintDefinition } of indexes) {
      await sql(constraintDefinition ? `alter table "${table}" add constraint "${name}" ${constraintDefinition}` : definition);
    }
    for (const { name, definition } of constraints) await sql(`alter table "${table}" add constraint "${name}" ${definition}`);
    for (const { definition } of triggers) await sql(definition);
    await sql(`alter table "${table}" attach partition "${initial}" for values from (minvalue) to ('${boundary}')`);
    await sql(`alter table "${initial}" drop constraint "${bound}"`);
    await createWeek(sql, table, firstWeek);
  });
  await createComingWeeks(session, table, now);
  await session.sql(`analyze "${table}"`);
}
