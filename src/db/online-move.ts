import { CompiledQuery, type Kysely } from 'kysely';

/*
 * Moving a large table's rows into a table of another shape (partitioned) while the service keeps
 * writing to it (docs/decisions/migrations-large-tables.md). The new table is built beside the old
 * one, in the schema `tributary_move`, under its final names; a trigger on the old table mirrors
 * every write into it; batches copy the existing rows; then one short transaction takes the old
 * table's lock, drops it and moves the new one (with its partitions, indexes and constraints) into
 * its place. Every row keeps its id and values.
 */

/** One statement on the migration's connection; resolves to its rows. */
export type Sql = <R extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: readonly unknown[]) => Promise<R[]>;

/** A non-transactional migration's access to its database: single statements (each its own transaction), and explicit transactions. */
export interface MigrationSession {
  sql: Sql;
  transaction(work: (sql: Sql) => Promise<void>): Promise<void>;
}

/** The session of a migration that runs outside a transaction, from its driver's Kysely client. */
export function migrationSession(db: Kysely<unknown>): MigrationSession {
  const on = (runner: Kysely<unknown>): Sql => async (text, params = []) => (await runner.executeQuery(CompiledQuery.raw(text, [...params]))).rows as never;
  return {
    sql: on(db),
    transaction: (work) => db.transaction().execute((trx) => work(on(trx))),
  };
}

/** The schema where new tables are built before they take the old ones' place. */
export const MOVE_SCHEMA = 'tributary_move';

/**
 * Starts a migration that moves tables afresh: whatever a run stopped halfway left in MOVE_SCHEMA
 * (half-copied tables, and with their functions the mirror triggers on the old tables) is dropped.
 */
export async function clearMoveSchema(session: MigrationSession): Promise<void> {
  await session.sql(`drop schema if exists "${MOVE_SCHEMA}" cascade`);
  await session.sql(`create schema "${MOVE_SCHEMA}"`);
}

export interface TableMove {
  /** The table in `public`; its rows carry `profile_id` and `id`, which together name a row. */
  table: string;
  /** Creates `tributary_move.<table>` under its final index and constraint names (check constraints are copied from the old table). */
  create: string[];
  /** Run in the swap transaction before the old table is dropped (drop what points at it). */
  beforeSwap?: string[];
  /** Run in the swap transaction once the new table has its name (point back at it). */
  afterSwap?: string[];
}

/** `create table … partition of …` for each of `count` hash partitions of `tributary_move.<table>`, named `<table>_<n>`. */
export function hashPartitions(table: string, count: number, storage = ''): string[] {
  return Array.from({ length: count }, (_, remainder) =>
    `create table "${MOVE_SCHEMA}"."${table}_${remainder}" partition of "${MOVE_SCHEMA}"."${table}" for values with (modulus ${count}, remainder ${remainder})${storage ? ` with (${storage})` : ''}`);
}

/** Rows copied per batch: each batch is one short transaction holding share locks on its rows only. */
const BATCH_ROWS = 5_000;
/** How long a step waits for a lock before it lets the writers queued behind it through, and tries again. */
const LOCK_WAIT = '2s';
const LOCK_ATTEMPTS = 30;

/**
 * Moves `move.table`'s rows into the table `move.create` builds, without stopping writes for longer
 * than the swap's lock. A table already partitioned was moved by an earlier run: left as it is.
 */
export async function moveTableOnline(session: MigrationSession, move: TableMove): Promise<void> {
  const { table } = move;
  const old = `public."${table}"`;
  const [{ kind } = { kind: '' }] = await session.sql<{ kind: string }>(`select relkind::text as kind from pg_class where oid = $1::regclass`, [old]);
  if (kind === 'p') return;
  const next = `"${MOVE_SCHEMA}"."${table}"`;
  const mirror = `"${MOVE_SCHEMA}"."${table}_mirror"`;
  const columns = (await session.sql<{ name: string }>(
    `select attname as name from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum`, [old],
  )).map(({ name }) => `"${name}"`);
  const list = columns.join(', ');

  // Adding the new table's foreign keys locks the tables they point at: briefly, and never waiting long.
  await underShortLocks(session, async (sql) => {
    for (const statement of move.create) await sql(statement);
    const checks = await sql<{ name: string; definition: string }>(
      `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint where conrelid = $1::regclass and contype = 'c' order by conname`, [old],
    );
    for (const { name, definition } of checks) await sql(`alter table ${next} add constraint "${name}" ${definition}`);
    // From here every write to the old table is written to the new one too, in the writer's transaction.
    await sql(`create function ${mirror}() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then delete from ${next} where profile_id = old.profile_id and id = old.id; end if;
        if tg_op <> 'DELETE' then insert into ${next} (${list}) values (${columns.map((column) => `new.${column}`).join(', ')}); end if;
        return null;
      end $$`);
    await sql(`create trigger "${table}_move_mirror" after insert or update or delete on ${old} for each row execute function ${mirror}()`);
  });

  // Each batch locks the rows it copies (for share): a writer of one of them waits for the batch, so
  // the mirror's copy of its change always lands after the batch's copy, never before it. A row the
  // mirror wrote first is newer than the batch's, and kept (on conflict do nothing); any other
  // conflict fails the move rather than leave a row behind.
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const [batch] = await session.sql<{ last: string | null; rows: number }>(
      `with batch as (select ${list} from ${old} where id > $1 order by id limit $2 for share),
            copied as (insert into ${next} (${list}) select ${list} from batch on conflict (profile_id, id) do nothing)
       select (select id from batch order by id desc limit 1)::text as last, (select count(*) from batch)::int as rows`,
      [after, BATCH_ROWS],
    );
    if (!batch?.last) break;
    after = batch.last;
    if (batch.rows < BATCH_ROWS) break;
  }

  // Dropping the old table also takes the locks of the tables its foreign keys point at, for as long.
  await underShortLocks(session, async (sql) => {
    await sql(`lock table ${old} in access exclusive mode`);
    for (const statement of move.beforeSwap ?? []) await sql(statement);
    await sql(`drop table ${old}`);
    const partitions = await sql<{ name: string }>(
      `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = $1::regclass order by c.relname`, [next],
    );
    await sql(`alter table ${next} set schema public`);
    for (const { name } of partitions) await sql(`alter table "${MOVE_SCHEMA}"."${name}" set schema public`);
    await sql(`drop function ${mirror}()`);
    for (const statement of move.afterSwap ?? []) await sql(statement);
  });
  await session.sql(`analyze ${old}`);
}

/**
 * Runs `work` in one transaction that waits at most LOCK_WAIT for each lock: writers queue
 * behind a lock request, so a long wait (behind a long transaction) would stop them; on a timeout it
 * rolls back, gives way, and tries again.
 */
export async function underShortLocks(session: MigrationSession, work: (sql: Sql) => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await session.transaction(async (sql) => {
        await sql(`set local lock_timeout = '${LOCK_WAIT}'`);
        await work(sql);
      });
      return;
    } catch (error) {
      if (attempt >= LOCK_ATTEMPTS || (error as { code?: string }).code !== '55P03') throw error;
    }
  }
}

/**
 * Builds an index without stopping writes to `table`: `create index concurrently` on a plain table;
 * on a partitioned one (where PostgreSQL refuses `concurrently`), the parent's index `on only` the
 * parent, then each partition's concurrently, attached to it. `definition` is what follows the table
 * name, e.g. `("merchant_name")`. An index a stopped build left invalid is dropped and built again.
 */
export async function createIndexConcurrently(session: MigrationSession, index: { name: string; table: string; definition: string }): Promise<void> {
  const partitions = await session.sql<{ name: string }>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = $1::regclass order by c.relname`, [`"${index.table}"`],
  );
  if (partitions.length === 0) return buildConcurrently(session, index.name, index.table, index.definition);
  // The parent's own index is empty and made at once, but needs the table's share lock: taken briefly.
  const [parent] = await session.sql(`select 1 from pg_class where relname = $1 and relkind = 'I'`, [index.name]);
  if (!parent) await underShortLocks(session, async (sql) => void (await sql(`create index "${index.name}" on only "${index.table}" ${index.definition}`)));
  for (const { name: partition } of partitions) {
    const child = `${partition}_${index.name}`.slice(0, 63);
    await buildConcurrently(session, child, partition, index.definition);
    const [attached] = await session.sql(`select 1 from pg_inherits where inhrelid = $1::regclass and inhparent = $2::regclass`, [`"${child}"`, `"${index.name}"`]);
    if (!attached) await session.sql(`alter index "${index.name}" attach partition "${child}"`);
  }
}

async function buildConcurrently(session: MigrationSession, name: string, table: string, definition: string): Promise<void> {
  const [existing] = await session.sql<{ valid: boolean }>(`select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = $1`, [name]);
  if (existing?.valid) return;
  if (existing) await session.sql(`drop index concurrently "${name}"`);
  await session.sql(`create index concurrently "${name}" on "${table}" ${definition}`);
}
