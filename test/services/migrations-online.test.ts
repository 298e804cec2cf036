import { randomBytes, randomUUID } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runOnce } from '../../src/db/scratch.ts';
import { ormConfig } from '../../src/orm/orm.ts';
import { timePartitions, WEEK_MS, WEEKS_AHEAD } from '../../src/db/time-partitions.ts';
import { uuidv7, uuidv7Ms } from '../../src/lib/ids.ts';
import { asTestSql } from '../support/test-database.ts';

/*
 * Migrations that do not stop writes (docs/decisions/migrations-large-tables.md). A database is
 * migrated up to the migration before the move to partitions, seeded with several profiles'
 * records, and then migrated on, one migration at a time (the move stopped halfway once, by a
 * table in its way, and run again), while a writer keeps changing transactions: every row is kept with its id and values, every write lands, and every index a
 * migration from the move on builds on a large table is built concurrently (or on a table it
 * created). What `concurrently` buys is shown by concurrent-index-builds.test.ts.
 */

/** The first migration written under the rule. */
const FIRST_UNDER_RULE = 'Migration20261202092522';
/** Tables large enough that a locked index build stops the service's writes. */
const LARGE = ['transaction', 'balance', 'holding', 'investment_transaction', 'event', 'webhook_delivery', 'recurring_stream_transaction', 'session'];
const PARTITIONED = ['transaction', 'balance', 'holding', 'investment_transaction'];

let admin: string;
let name: string;
let url: string;
let orm: MikroORM;
let sql: pg.Pool;

const rows = async <T = Record<string, unknown>>(text: string, values: readonly unknown[] = []) => (await sql.query(text, [...values])).rows as T[];

beforeAll(async () => {
  admin = inject('database').adminUrl;
  name = `t_move_${randomBytes(4).toString('hex')}`;
  await runOnce(admin, `CREATE DATABASE ${name}`);
  url = admin.replace(/\/[^/]+$/, `/${name}`);
  orm = await MikroORM.init(ormConfig(url, { poolMax: 2 }));
  sql = new pg.Pool({ connectionString: asTestSql(url), max: 3 });
});

afterAll(async () => {
  await sql?.end();
  await orm?.close();
  await runOnce(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

/** Six profiles, each with a deposit and an investment account: 12,000 transactions (some with metadata and members of a stream), balances, holdings, investment transactions. */
async function seed(): Promise<void> {
  await sql.query(`
    insert into environment (id, name, mode, created_at) values ('00000000-0000-7000-8000-000000000001', 'Seeded', 'SANDBOX', now());
    insert into profile (id, environment_id, uuid, metadata, created_at)
      select ('00000000-0000-7000-8001-00000000000' || p)::uuid, '00000000-0000-7000-8000-000000000001', gen_random_uuid(), jsonb_build_object('n', p), now()
        from generate_series(1, 6) p;
    insert into connection (id, environment_id, profile_id, provider, institution_id, institution_name, status, products, credential_encrypted, created_at)
      select gen_random_uuid(), p.environment_id, p.id, 'sandbox', 'ins_first_platypus', 'First Platypus Bank', 'SYNCED', '["TRANSACTIONS"]', 'x', now() from profile p;
    insert into account (id, connection_id, profile_id, remote_id, name, kind, state, currency_code, created_at)
      select gen_random_uuid(), c.id, c.profile_id, k.kind, k.kind || ' account', k.kind, 'OPEN', 'USD', now()
        from connection c cross join (values ('DEPOSITORY'), ('INVESTMENT')) as k(kind);
    insert into transaction (id, profile_id, connection_id, account_id, remote_id, date, description, amount, status, currency_code,
                             original_amount, original_currency_code, metadata, merchant_name, category_primary, category_source, category_confidence,
                             payment_channel, enrichment_version, remote_data, created_at)
      select gen_random_uuid(), a.profile_id, a.connection_id, a.id, 'txn-' || n, date '2026-01-01' - n % 700, 'Purchase ' || n, -(n % 997) - 0.25,
             case when n % 50 = 0 then 'PENDING' else 'POSTED' end, 'USD',
             case when n % 9 = 0 then -(n % 997) - 0.5 end, case when n % 9 = 0 then 'EUR' end,
             case when n % 7 = 0 then jsonb_build_object('note', 'n' || n, 'tags', jsonb_build_array('a', n)) end,
             'Merchant ' || n % 40, 'FOOD_AND_DRINK', case when n % 11 = 0 then 'USER' else 'RULES' end, 0.875,
             'IN_STORE', 1, jsonb_build_object('sandbox', jsonb_build_object('id', n)), now() - n * interval '1 minute'
        from account a cross join generate_series(1, 2000) n where a.kind = 'DEPOSITORY';
    insert into balance (id, account_id, profile_id, at, source, available, current, "limit", currency_code)
      select gen_random_uuid(), a.id, a.profile_id, now() - n * interval '1 day', 'SYNC', 100.25 + n, 120.5 + n, case when n % 2 = 0 then 5000 end, 'USD'
        from account a cross join generate_series(1, 50) n;
    update account a set latest_balance_id = (select b.id from balance b where b.account_id = a.id order by b.at desc limit 1);
    insert into security (id, identity, name, ticker_symbol, type, currency_code, updated_at)
      select gen_random_uuid(), 'ticker:' || t, t || ' Inc.', t, 'EQUITY', 'USD', now() from unnest(array['AAA', 'BBB', 'CCC']) t;
    insert into holding (id, profile_id, connection_id, account_id, security_id, quantity, price, price_date, value, cost_basis, currency_code, remote_data, last_seen_at, created_at)
      select gen_random_uuid(), a.profile_id, a.connection_id, a.id, s.id, 12.3456789012, 101.25, date '2026-01-01', 1249.95, null, 'USD', '{"sandbox": {}}', now(), now()
        from account a cross join security s where a.kind = 'INVESTMENT';
    insert into investment_transaction (id, profile_id, connection_id, account_id, security_id, remote_id, date, type, subtype, quantity, price, fees, amount, currency_code, description, remote_data, created_at)
      select gen_random_uuid(), a.profile_id, a.connection_id, a.id, case when n % 4 = 0 then null else (select s.id from security s order by s.identity limit 1) end,
             'inv-' || n, date '2026-01-01' - n, case when n % 2 = 0 then 'BUY' else 'DIVIDEND' end, null, 1.5, 99.99, case when n % 2 = 0 then 0.5 end, -150.49, 'USD', 'Activity ' || n, '{}', now()
        from account a cross join generate_series(1, 100) n where a.kind = 'INVESTMENT';
    insert into recurring_stream (id, profile_id, connection_id, account_id, direction, key, description, frequency, status, average_amount, last_amount, currency_code,
                                  first_date, last_date, predicted_next_date, created_at, updated_at)
      select gen_random_uuid(), a.profile_id, a.connection_id, a.id, 'OUTFLOW', 'merchant 1', 'Merchant 1', 'MONTHLY', 'MATURE', -10, -10, 'USD',
             date '2025-01-01', date '2025-12-01', date '2026-01-01', now(), now()
        from account a where a.kind = 'DEPOSITORY';
    insert into recurring_stream_transaction (stream_id, transaction_id)
      select s.id, t.id from recurring_stream s join transaction t on t.account_id = s.account_id and t.merchant_name = 'Merchant 1';
    -- A walk in progress on every connection, two pages in.
    insert into sync_walk_page (id, connection_id, added)
      select gen_random_uuid(), c.id, jsonb_build_array('txn-' || n) from connection c cross join generate_series(1, 2) n;
    -- Event ids are uuidv7s, as the service makes them: time-ordered (the log is partitioned by id).
    insert into event (id, environment_id, profile_id, type, at, payload, dispatched_at)
      select (lpad(to_hex((extract(epoch from now() - n * interval '1 minute') * 1000)::bigint), 12, '0') || '7' || substr(md5(random()::text), 1, 3) || '8' || substr(md5(random()::text), 1, 15))::uuid,
             p.environment_id, p.id, 'balance.created', now() - n * interval '1 minute', jsonb_build_object('n', n), case when n % 3 <> 0 then now() end
        from profile p cross join generate_series(1, 30) n;
  `);
}

/** Every row of a table, by id, as JSON (the columns and their values, whatever their order). */
async function contents(table: string): Promise<Map<string, unknown>> {
  return new Map((await rows<{ id: string; row: unknown }>(`select id::text, to_jsonb(t) as row from "${table}" t`)).map(({ id, row }) => [id, row]));
}

/**
 * Rows read after the migrations with only the columns each row had when it was recorded: columns a
 * later migration added are left out where they are null (a value in one still differs).
 */
function asBefore(after: Map<string, unknown>, recorded: Map<string, unknown>): Map<string, unknown> {
  return new Map(
    [...after].map(([id, row]) => {
      const known = recorded.get(id) as Record<string, unknown> | undefined;
      const values = row as Record<string, unknown>;
      return [id, known ? Object.fromEntries(Object.keys(values).filter((column) => column in known || values[column] !== null).map((column) => [column, values[column]])) : row];
    }),
  );
}

/**
 * Changes transactions until `done` says stop (at most 3,000 changes): inserts a copy of a seeded row
 * under a new id, updates one it inserted, deletes another; `expected` follows each change.
 */
async function keepWriting(expected: Map<string, unknown>, done: () => boolean): Promise<number> {
  const writer = new pg.Client({ connectionString: asTestSql(url) });
  await writer.connect();
  const [template] = [...expected.keys()];
  const mine: string[] = [];
  let changes = 0;
  try {
    while (!done() && changes < 3_000) {
      const [inserted] = (await writer.query(
        `insert into transaction as t select (jsonb_populate_record(s, jsonb_build_object('id', $1::uuid, 'remote_id', $2::text))).* from transaction s where s.id = $3 returning to_jsonb(t) as row`,
        [randomUUID(), `concurrent-${changes}`, template],
      )).rows;
      expected.set(inserted.row.id, inserted.row);
      mine.push(inserted.row.id);
      if (mine.length % 3 === 0) {
        const [updated] = (await writer.query(`update transaction t set description = $1 where t.profile_id = $2 and t.id = $3 returning to_jsonb(t) as row`,
          [`changed ${changes}`, inserted.row.profile_id, mine.at(-2)])).rows;
        expected.set(updated.row.id, updated.row);
        const gone = mine.at(-3)!;
        await writer.query(`delete from transaction t where t.profile_id = $1 and t.id = $2`, [inserted.row.profile_id, gone]);
        expected.delete(gone);
      }
      changes++;
    }
    return changes;
  } finally {
    await writer.end();
  }
}

/** The first migration that partitions the logs by time. */
const LOGS_BY_TIME = 'Migration20261202140000';

/** Records events (as the service does: uuidv7 ids) until `done` says stop, at most 3,000; resolves to their rows. */
async function keepRecordingEvents(done: () => boolean): Promise<Array<{ id: string; type: string; at: Date; payload: unknown }>> {
  const writer = new pg.Client({ connectionString: asTestSql(url) });
  await writer.connect();
  const recorded: Array<{ id: string; type: string; at: Date; payload: unknown }> = [];
  try {
    while (!done() && recorded.length < 3_000) {
      const [row] = (await writer.query(
        `insert into event (id, environment_id, profile_id, type, at, payload)
         select $1, environment_id, id, 'profile.updated', now(), jsonb_build_object('n', $2::int) from profile order by id limit 1
         returning id::text, type, at, payload`,
        [uuidv7(), recorded.length],
      )).rows;
      recorded.push(row);
    }
    return recorded;
  } finally {
    await writer.end();
  }
}

describe('a seeded database migrated from before the move: partitions by profile, the event outbox', () => {
  const built: Record<string, { indexes: Array<{ query: string; table: string }>; tables: string[] }> = {};
  const before: Record<string, Map<string, unknown>> = {};
  let members: Array<{ stream_id: string; transaction_id: string }>;
  let events: Array<{ id: string; type: string; at: Date; payload: unknown; undispatched: boolean }>;
  const recordedDuringMove: Array<{ id: string; type: string; at: Date; payload: unknown }> = [];
  let expected: Map<string, unknown>;
  let written = 0;

  beforeAll(async () => {
    const pending = (await orm.migrator.getPending()).map((migration) => migration.name);
    const first = pending.indexOf(FIRST_UNDER_RULE);
    expect(first).toBeGreaterThan(0);
    await orm.migrator.up({ to: pending[first - 1] });
    await seed();
    for (const table of PARTITIONED) before[table] = await contents(table);
    members = await rows(`select stream_id::text, transaction_id::text from recurring_stream_transaction order by 1, 2`);
    events = await rows(`select id::text, type, at, payload, dispatched_at is null as undispatched from event order by id`);
    // Every DDL command from here on, with the statement that sent it and (an index) its table.
    await sql.query(`
      create table public.ddl_log (tag text, identity text, query text, on_table text);
      create function public.log_ddl() returns event_trigger language plpgsql as $$
        declare command record;
        begin
          for command in select * from pg_event_trigger_ddl_commands() loop
            insert into public.ddl_log values (command.command_tag, command.object_identity, current_query(),
              case when command.command_tag = 'CREATE INDEX' then (select i.indrelid::regclass::text from pg_index i where i.indexrelid = command.objid) end);
          end loop;
        end $$;
      create event trigger log_ddl on ddl_command_end execute function public.log_ddl();`);
    expected = new Map(before.transaction);
    let migrating = true;
    const writing = keepWriting(expected, () => !migrating);
    try {
      const log: Array<{ tag: string; identity: string; query: string; on_table: string | null }> = [];
      for (const migration of pending.slice(first)) {
        if (migration === FIRST_UNDER_RULE) {
          // The move stopped halfway (a table in the way of holding's partitions), then run again.
          await sql.query('create table public.holding_5 (in_the_way int)');
          await expect(orm.migrator.up({ to: migration })).rejects.toThrow(/holding_5/);
          log.push(...(await rows<(typeof log)[number]>(`delete from public.ddl_log returning *`)));
          await sql.query('drop table public.holding_5');
        }
        let logsMigrated = migration !== LOGS_BY_TIME;
        const recording = keepRecordingEvents(() => logsMigrated);
        try {
          await orm.migrator.up({ to: migration });
        } finally {
          logsMigrated = true;
          recordedDuringMove.push(...(await recording));
        }
        log.push(...(await rows<(typeof log)[number]>(`delete from public.ddl_log returning *`)));
        built[migration] = {
          indexes: log.filter((entry) => entry.tag === 'CREATE INDEX').map((entry) => ({ query: entry.query, table: entry.on_table ?? '' })),
          tables: log.filter((entry) => entry.tag === 'CREATE TABLE').map((entry) => entry.identity),
        };
        log.length = 0;
      }
    } finally {
      migrating = false;
      written = await writing;
    }
  }, 240_000);

  it('keeps every row of every moved table, with its id and values, and every write made meanwhile', async () => {
    expect(written).toBeGreaterThan(0);
    expect(before.transaction!.size).toBe(12_000);
    expect(asBefore(await contents('transaction'), expected)).toEqual(expected);
    for (const table of ['balance', 'holding', 'investment_transaction']) {
      expect(before[table]!.size).toBeGreaterThan(0);
      expect(asBefore(await contents(table), before[table]!)).toEqual(before[table]);
    }
  });

  it('leaves each table partitioned by profile into 32, with room for HOT updates on transaction partitions', async () => {
    for (const table of PARTITIONED) {
      const [layout] = await rows(`select pg_get_partkeydef($1::regclass) as key, (select count(*)::int from pg_inherits where inhparent = $1::regclass) as partitions`, [table]);
      expect(layout).toEqual({ key: 'HASH (profile_id)', partitions: 32 });
    }
    const options = await rows(`select distinct array_to_string(c.reloptions, ',') as options from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'transaction'::regclass`);
    expect(options).toEqual([{ options: 'fillfactor=90' }]);
    expect(await rows(`select nspname from pg_namespace where nspname = 'tributary_move'`)).toEqual([]);
  });

  it('keeps every event, and every event recorded while the log was partitioned by time', async () => {
    expect(recordedDuringMove.length).toBeGreaterThan(0);
    expect(await rows(`select id::text, type, at, payload from event order by id`)).toEqual(
      [...events.map(({ undispatched: _, ...event }) => event), ...recordedDuringMove].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
  });

  it('leaves the event log, webhook attempts and sync history partitioned by id: the table as it was, then a partition a week, weeks ahead', async () => {
    for (const table of ['event', 'webhook_delivery', 'connection_sync']) {
      expect(await rows(`select pg_get_partkeydef($1::regclass) as key`, [table])).toEqual([{ key: 'RANGE (id)' }]);
      const [initial, ...weeks] = await timePartitions(rows, table);
      expect(initial).toMatchObject({ name: `${table}_initial`, from: null });
      // Contiguous weeks from the first partition's end, each named by its Monday, to WEEKS_AHEAD weeks past now.
      expect(weeks.map(({ from }) => from)).toEqual([initial!.to, ...weeks.slice(0, -1).map(({ to }) => to)]);
      for (const week of weeks) {
        expect(uuidv7Ms(week.to) - uuidv7Ms(week.from!)).toBe(WEEK_MS);
        expect(week.name).toBe(`${table}_w${new Date(uuidv7Ms(week.from!)).toISOString().slice(0, 10).replaceAll('-', '')}`);
      }
      expect(uuidv7Ms(weeks.at(-1)!.to)).toBeGreaterThan(Date.now() + WEEKS_AHEAD * WEEK_MS);
    }
    // The attempts' foreign key to the event log is gone (a dropped week of events would take them).
    expect(await rows(`select conname from pg_constraint where conrelid = 'webhook_delivery'::regclass and contype = 'f' and confrelid = 'event'::regclass`)).toEqual([]);
  });

  it('puts in the outbox exactly those events the relay had not dispatched', async () => {
    expect(events.filter((event) => event.undispatched).length).toBe(60);
    expect((await rows<{ id: string }>(`select event_id::text as id from event_outbox order by 1`)).map(({ id }) => id)).toEqual(
      events.filter((event) => event.undispatched).map(({ id }) => id),
    );
  });

  it('gives each stream membership its transaction\'s profile, and removes it with its transaction', async () => {
    const after = await rows<{ stream_id: string; transaction_id: string; matches: boolean }>(
      `select m.stream_id::text, m.transaction_id::text, m.profile_id = t.profile_id as matches
         from recurring_stream_transaction m join transaction t on t.profile_id = m.profile_id and t.id = m.transaction_id order by 1, 2`,
    );
    expect(members.length).toBeGreaterThan(0);
    expect(after.map(({ stream_id, transaction_id }) => ({ stream_id, transaction_id }))).toEqual(members);
    const [member] = members;
    await sql.query(`delete from transaction t where t.id = $1 and t.profile_id = (select profile_id from transaction where id = $1)`, [member!.transaction_id]);
    expect(await rows(`select 1 from recurring_stream_transaction where stream_id = $1 and transaction_id = $2`, [member!.stream_id, member!.transaction_id])).toEqual([]);
  });

  it('gives each page of a walk in progress its connection\'s profile, and requires one from then on', async () => {
    const pages = await rows<{ page: string; connection: string }>(
      `select p.profile_id::text as page, c.profile_id::text as connection from sync_walk_page p join connection c on c.id = p.connection_id order by 2`,
    );
    expect(pages).toHaveLength(12);
    expect(pages.map(({ page }) => page)).toEqual(pages.map(({ connection }) => connection));
    await expect(sql.query(`insert into sync_walk_page (id, connection_id, added) select gen_random_uuid(), id, '[]' from connection limit 1`)).rejects.toThrow(/profile_id/);
  });

  it('builds every index on a large table concurrently, from the move on, unless the migration created the table', () => {
    const base = (table: string) => table.replace(/^(public|tributary_move)\./, '').replaceAll('"', '').replace(/_\d+$/, '');
    const locked = Object.entries(built).flatMap(([migration, { indexes, tables }]) =>
      indexes
        .filter(({ table }) => LARGE.includes(base(table)) && !tables.includes(table.includes('.') ? table : `public.${table}`))
        .filter(({ query }) => !/create\s+(unique\s+)?index\s+concurrently/i.test(query) && !/\son\s+only\s/i.test(query))
        .map(({ query }) => `${migration}: ${query}`),
    );
    expect(Object.keys(built)).toContain(FIRST_UNDER_RULE);
    expect(locked).toEqual([]);
  });
});
