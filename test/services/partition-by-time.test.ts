import { describe, expect, it } from 'vitest';
import { migrationSession } from '../../src/db/online-move.ts';
import { partitionByTime } from '../../src/db/partition-by-time.ts';
import { timePartitions, WEEK_MS, WEEKS_AHEAD } from '../../src/db/time-partitions.ts';
import { uuidv7, uuidv7Ms } from '../../src/lib/ids.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

/*
 * partitionByTime (src/db/partition-by-time.ts) on a log of its own: the table becomes its first
 * partition with every row, the parent takes its columns, keys, indexes, checks, foreign keys and
 * triggers under their names, a run stopped before the swap is taken up again, and a second run
 * changes nothing. The event log's, attempts' and sync history's moves are in migrations-online.test.ts.
 */

let db: TestDatabase;
let build: Builders;
withServiceTier((tier) => ({ db, build } = tier));


describe('a log partitioned by time', () => {
  it('keeps every row and every key, index, check, foreign key and trigger, takes up a stopped run, and does nothing the second time', async () => {
    const environment = await build.environment();
    await db.sql(`
      create table trial_log (id uuid primary key, environment_id uuid not null references environment (id) on delete cascade,
                              note text collate "C" not null check (note <> ''), at timestamptz not null);
      create index trial_log_environment_id_id_index on trial_log (environment_id, id);
      create table trial_log_seen (id uuid);
      create function trial_log_seen_fn() returns trigger language plpgsql as $$ begin insert into trial_log_seen values (new.id); return null; end $$;
      create trigger trial_log_seen after insert on trial_log for each row execute function trial_log_seen_fn();`);
    const day = 86_400_000;
    const before = Array.from({ length: 20 }, (_, n) => uuidv7(Date.now() - (20 - n) * day));
    await db.sql(`insert into trial_log select id, $2, 'row', now() from unnest($1::uuid[]) as id`, [before, environment.id]);
    // A run that stopped after adding its bound, on another week's boundary.
    await db.sql(`alter table trial_log add constraint trial_log_before_weeks check (id < '00000000-0000-7000-8000-000000000000') not valid`);

    const session = migrationSession(db.em().getKysely());
    await partitionByTime(session, 'trial_log');

    const [initial, ...weeks] = await timePartitions(db.sql, 'trial_log');
    expect(initial).toMatchObject({ name: 'trial_log_initial', from: null });
    expect(uuidv7Ms(weeks.at(-1)!.to)).toBeGreaterThan(Date.now() + WEEKS_AHEAD * WEEK_MS);
    expect((await db.sql(`select id::text from trial_log order by id`)).map((row) => row.id)).toEqual(before);
    const constraints = await db.sql(`select conname, contype from pg_constraint where conrelid = 'trial_log'::regclass and contype in ('p', 'f', 'c') order by conname`);
    expect(constraints).toEqual([
      { conname: 'trial_log_environment_id_fkey', contype: 'f' },
      { conname: 'trial_log_note_check', contype: 'c' },
      { conname: 'trial_log_pkey', contype: 'p' },
    ]);
    expect(await db.sql(`select indexname from pg_indexes where tablename = 'trial_log' order by 1`)).toEqual([{ indexname: 'trial_log_environment_id_id_index' }, { indexname: 'trial_log_pkey' }]);
    expect(await db.sql(`select attcollation::regcollation::text as collation from pg_attribute where attrelid = 'trial_log'::regclass and attname = 'note'`)).toEqual([{ collation: '"C"' }]);

    // Rows of now and of the weeks ahead go in, each announced once by the trigger; the checks hold.
    await db.sql(`delete from trial_log_seen`);
    const later = [uuidv7(), uuidv7(Date.now() + 2 * WEEK_MS)];
    await db.sql(`insert into trial_log select id, $2, 'row', now() from unnest($1::uuid[]) as id`, [later, environment.id]);
    expect((await db.sql(`select id::text from trial_log_seen order by id`)).map((row) => row.id)).toEqual(later);
    await expect(db.sql(`insert into trial_log values ($1, $2, '', now())`, [uuidv7(), environment.id])).rejects.toThrow(/trial_log_note_check/);
    await expect(db.sql(`insert into trial_log values ($1, $2, 'row', now())`, [uuidv7(), '00000000-0000-7000-8000-00000000dead'])).rejects.toThrow(/foreign key/);

    // Again: already partitioned, left as it is.
    const layout = await timePartitions(db.sql, 'trial_log');
    await partitionByTime(session, 'trial_log');
    expect(await timePartitions(db.sql, 'trial_log')).toEqual(layout);
  });
});
