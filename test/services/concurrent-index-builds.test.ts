import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { createIndexConcurrently, migrationSession, type MigrationSession } from '../../src/db/online-move.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import { asTestSql, type TestDatabase } from '../support/test-database.ts';

/*
 * What `concurrently` buys (docs/decisions/migrations-large-tables.md): an index built on the
 * partitioned `transaction` table while a transaction is still writing to one of its partitions
 * waits for that writer, and an insert into the same partition meanwhile goes through; a plain build
 * holds the insert until it is done.
 */

let db: TestDatabase;
let build: Builders;

withServiceTier((tier) => ({ db, build } = tier));

beforeAll(async () => {
  await build.transactions([{ description: 'Blue Bottle Coffee' }]);
});

/** Polls `check` every 50 ms, at most 200 times; fails when it never holds. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the condition never held');
}

/** A client of its own, with its backend's pid, as a migration's session over it. */
async function builderSession(): Promise<{ pid: number; session: MigrationSession; end(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: db.url, max: 1 });
  const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  const session = migrationSession(kysely);
  const [{ pid }] = await session.sql<{ pid: number }>('select pg_backend_pid() as pid');
  return { pid, session, end: () => kysely.destroy() };
}

/**
 * An index build on `transaction` held up by a transaction still writing to one of its partitions
 * (as a build meets a busy table), and an insert into that partition meanwhile: with `lock_timeout`
 * bounding its wait, the insert's outcome says whether the build let it through.
 */
async function insertWhileBuilding(build: (session: MigrationSession, partition: string) => Promise<unknown>): Promise<{ inserted: Promise<unknown>; finish(): Promise<void> }> {
  const [row] = await db.sql<{ id: string; profile_id: string; partition: string }>(`select id::text, profile_id::text, tableoid::regclass::text as partition from transaction limit 1`);
  const holder = new pg.Client({ connectionString: asTestSql(db.url) });
  const writer = new pg.Client({ connectionString: asTestSql(db.url) });
  await Promise.all([holder.connect(), writer.connect()]);
  const builder = await builderSession();
  await holder.query('begin');
  await holder.query(`update transaction set description = description where profile_id = $1 and id = $2`, [row!.profile_id, row!.id]);
  const building = build(builder.session, row!.partition);
  building.catch(() => undefined);
  await until(async () => (await db.sql(`select 1 from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`, [builder.pid])).length === 1);
  await writer.query(`set lock_timeout = '2s'`);
  const inserted = writer.query(
    `insert into transaction select (jsonb_populate_record(s, jsonb_build_object('id', $1::uuid, 'remote_id', $2::text))).* from transaction s where s.profile_id = $3 and s.id = $4`,
    [randomUUID(), `during-build-${randomUUID()}`, row!.profile_id, row!.id],
  );
  inserted.catch(() => undefined);
  return {
    inserted,
    async finish() {
      await inserted.catch(() => undefined);
      await holder.query('commit');
      await building;
      await Promise.all([holder.end(), writer.end(), builder.end()]);
    },
  };
}

describe('an index built concurrently', () => {
  it('lets an insert into its table through while the build waits for the writers before it', async () => {
    // The parent's index first (createIndexConcurrently's first step, which takes the table's lock for
    // an instant); then the partitions' builds, the long part, meet the writers.
    await db.sql(`create index "transaction_merchant_name_index" on only transaction ("merchant_name")`);
    const run = await insertWhileBuilding((session) => createIndexConcurrently(session, { name: 'transaction_merchant_name_index', table: 'transaction', definition: '("merchant_name")' }));
    try {
      await expect(run.inserted).resolves.toBeDefined();
    } finally {
      await run.finish();
    }
    // Built on every partition, and valid as a whole.
    const [index] = await db.sql(`select i.indisvalid as valid, (select count(*)::int from pg_inherits where inhparent = i.indexrelid) as partitions
        from pg_index i where i.indexrelid = '"transaction_merchant_name_index"'::regclass`);
    expect(index).toEqual({ valid: true, partitions: 32 });
    await db.sql(`drop index "transaction_merchant_name_index"`);
  });

  it('where a plain build holds the same insert until it is done (here: until the insert gives up)', async () => {
    const run = await insertWhileBuilding((session, partition) => session.sql(`create index "${partition}_plain_idx" on ${partition} (merchant_name)`));
    try {
      await expect(run.inserted).rejects.toMatchObject({ code: '55P03' });
    } finally {
      await run.finish();
    }
  });
});
