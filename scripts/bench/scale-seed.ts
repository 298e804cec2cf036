import pg from 'pg';
import type { FieldCipher } from '../../src/lib/field-cipher.ts';
import { weeksSince } from '../../src/db/time-partitions.ts';
import { uuidv7 } from '../../src/lib/ids.ts';
import { SandboxProvider } from '../../src/providers/sandbox/sandbox-provider.ts';
import { insertRows, seedProfile, type SeedRows } from '../seed/dataset.ts';

/*
 * The scale bench's data, written in SQL. A few template profiles are made by the ordinary seed
 * (scripts/seed/dataset.ts: rows as a first sync stores them, remote data and enrichment included);
 * every further profile is a copy of one of them, with its connection, accounts, latest balances and
 * transactions under new time-ordered ids. The copies name only the columns that tie a row to its
 * owner and read the rest from the catalog, so they follow schema changes (new columns, partitioned
 * tables). The event log is generated: 60 days of envelopes shaped like the real ones.
 *
 * Rows are written with `session_replication_role = replica` (a superuser setting): neither the
 * foreign keys (whose targets the same statements write) nor the triggers (a NOTIFY per event) run.
 */

/** The template profiles, one per sandbox institution of the seed, the first profiles of the environment by id. */
export const TEMPLATES = 3;
/** Profiles copied per database transaction. */
const CHUNK_PROFILES = 250;
/** Events generated per statement. */
const CHUNK_EVENTS = 1_000_000;
/** How far back the event log reaches. */
export const EVENT_DAYS = 60;

/**
 * A uuidv7 (src/lib/ids.ts's layout) of an instant, in SQL: its milliseconds, version 7, the variant
 * and random bits from random() (gen_random_uuid() took 10 µs an id on this machine).
 */
const UUIDV7_AT = `create or replace function pg_temp.uuidv7_at(at timestamptz) returns uuid language sql volatile as $$
  select (lpad(to_hex(floor(extract(epoch from at) * 1000)::bigint), 12, '0') || '7' || lpad(to_hex(floor(random() * 4096)::int), 3, '0')
          || to_hex(8 + floor(random() * 4)::int) || lpad(to_hex(floor(random() * 4096)::int), 3, '0') || lpad(to_hex(floor(random() * 281474976710656)::bigint), 12, '0'))::uuid
$$`;

/**
 * Makes the TEMPLATES template profiles of `perProfile` transactions each in `environmentId` (an
 * empty environment), through the ordinary seed.
 */
export async function seedTemplates(url: string, { environmentId, cipher, perProfile }: { environmentId: string; cipher: FieldCipher; perProfile: number }): Promise<void> {
  const sandbox = new SandboxProvider({ historyDays: Math.ceil(perProfile / 1.5) + 5, pageSize: Number.MAX_SAFE_INTEGER });
  const rows: SeedRows = { profiles: [], connections: [], accounts: [], balances: [], transactions: [] };
  for (let index = 0; index < TEMPLATES; index++) await seedProfile(rows, { sandbox, cipher, environmentId, index, transactions: perProfile, idOf: uuidv7 });
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await insertRows(pool, rows);
  } finally {
    await pool.end();
  }
}

/**
 * Adds copies of the templates until the environment holds `profiles` profiles, CHUNK_PROFILES per
 * transaction; `progress` is told the count after each.
 */
export async function growProfiles(client: pg.ClientBase, environmentId: string, profiles: number, progress: (profiles: number) => void = () => {}): Promise<void> {
  const columns = await columnsOf(client, ['profile', 'connection', 'account', 'balance', 'transaction']);
  const copy = (table: string, overrides: Record<string, string>, from: string) =>
    `insert into "${table}" (${columns[table]!.map((column) => `"${column}"`).join(', ')})
     select ${columns[table]!.map((column) => overrides[column] ?? `s."${column}"`).join(', ')} ${from}`;
  await client.query(UUIDV7_AT);
  let count = await profileCount(client, environmentId);
  while (count < profiles) {
    const last = Math.min(profiles, count + CHUNK_PROFILES);
    await inTransaction(client, async () => {
      await client.query(`set local session_replication_role = replica`);
      // The copies' ids: profile n copies template n mod TEMPLATES; ids are made in order, so later rows sort later.
      await client.query(
        `create temp table grow on commit drop as
           select g.n, t.id as template, pg_temp.uuidv7_at(clock_timestamp()) as id
             from generate_series($2::int, $3::int) g(n)
             join (select id, row_number() over (order by id)::int - 1 as k from profile where environment_id = $1 order by id limit ${TEMPLATES}) t on t.k = g.n % ${TEMPLATES}
            order by g.n`,
        [environmentId, count, last - 1],
      );
      await client.query(`create temp table grow_connection on commit drop as
           select g.id as profile_id, c.id as template, pg_temp.uuidv7_at(clock_timestamp()) as id from grow g join connection c on c.profile_id = g.template order by g.n, c.id`);
      await client.query(`create temp table grow_account on commit drop as
           select c.profile_id, c.id as connection_id, a.id as template, a.latest_balance_id as template_balance,
                  pg_temp.uuidv7_at(clock_timestamp()) as id, pg_temp.uuidv7_at(clock_timestamp()) as balance_id
             from grow_connection c join account a on a.connection_id = c.template order by c.id, a.id`);
      await client.query(copy('profile', { id: 'm.id', uuid: 'gen_random_uuid()', name: `'Scale User ' || (m.n + 1)`, created_at: 'now()' }, 'from grow m join profile s on s.id = m.template order by m.n'));
      await client.query(copy('connection', { id: 'm.id', profile_id: 'm.profile_id', created_at: 'now()' }, 'from grow_connection m join connection s on s.id = m.template order by m.id'));
      await client.query(copy('account', { id: 'm.id', connection_id: 'm.connection_id', profile_id: 'm.profile_id', latest_balance_id: 'm.balance_id' }, 'from grow_account m join account s on s.id = m.template order by m.id'));
      await client.query(copy('balance', { id: 'm.balance_id', account_id: 'm.id', profile_id: 'm.profile_id' }, 'from grow_account m join balance s on s.id = m.template_balance order by m.id'));
      await client.query(
        copy(
          'transaction',
          { id: 'pg_temp.uuidv7_at(clock_timestamp())', profile_id: 'm.profile_id', connection_id: 'm.connection_id', account_id: 'm.id', created_at: 'now()' },
          'from grow_account m join transaction s on s.account_id = m.template',
        ),
      );
    });
    count = last;
    progress(count);
  }
}

/** The event types of the generated log, with their share in percent and the shape of their record. */
const EVENT_MIX: Array<{ type: string; percent: number; record: 'balance' | 'connection' }> = [
  { type: 'balance.created', percent: 45, record: 'balance' },
  { type: 'connection.synced.successful', percent: 45, record: 'connection' },
  { type: 'holdings.updated', percent: 5, record: 'connection' },
  { type: 'liabilities.updated', percent: 3, record: 'connection' },
  { type: 'connection.synced.errored.ERROR_INSTITUTION', percent: 1, record: 'connection' },
  { type: 'connection.consent_expiring', percent: 1, record: 'connection' },
];

/**
 * Replaces the environment's event log with `events` events spread evenly over the last EVENT_DAYS
 * days, written in id (= time) order, all already relayed; each belongs to one of the environment's
 * profiles other than `quietProfileId` (which has none). Envelopes carry the real fields and sizes,
 * made once per profile and type (building one per event took most of the seeding's time); their
 * public ids are stand-ins of the right length.
 */
export async function seedEvents(client: pg.ClientBase, environmentId: string, events: number, quietProfileId: string): Promise<void> {
  await client.query(UUIDV7_AT);
  // Already relayed: none of them in the outbox.
  await client.query('truncate event, event_outbox cascade');
  // Partitioned a week at a time over those days, as a log that has run for a while is (src/db/time-partitions.ts).
  await weeksSince(async (text, params) => (await client.query(text, params && [...params])).rows as never, 'event', Date.now() - (EVENT_DAYS + 1) * 86_400_000);
  const fakeId = (prefix: string, seed: string) => `'${prefix}_' || lpad(to_hex(${seed}), 26, '0')`;
  const recent = `now() - interval '1 day'`;
  const records = {
    balance: `jsonb_build_object('id', ${fakeId('bal', 'p.k * 8')}, 'accountId', ${fakeId('acct', 'p.k * 8 + 1')}, 'at', ${recent},
      'source', 'SYNC', 'available', round((p.k % 100000)::numeric / 7, 2), 'current', round((p.k % 100000)::numeric / 7, 2), 'limit', null, 'currencyCode', 'USD')`,
    connection: `jsonb_build_object('id', ${fakeId('conn', 'p.k * 8 + 2')}, 'profileId', ${fakeId('p', 'p.k')}, 'provider', 'sandbox',
      'institution', jsonb_build_object('id', 'ins_first_platypus', 'name', 'First Platypus Bank'), 'status', 'SYNCED', 'errorCode', null,
      'products', jsonb_build_array('TRANSACTIONS', 'BALANCES', 'ACCOUNT_NUMBERS'), 'lastSyncedAt', ${recent}, 'consentExpiresAt', null, 'metadata', null, 'at', now() - interval '${EVENT_DAYS + 30} days')`,
  };
  const syncMetadata = `jsonb_build_object('changes', jsonb_build_object('added', 2, 'modified', 1, 'removed', 0),
      'transactions', jsonb_build_object('added', jsonb_build_array(${fakeId('txn', 'p.k * 8 + 3')}, ${fakeId('txn', 'p.k * 8 + 4')}), 'modified', jsonb_build_array(${fakeId('txn', 'p.k * 8 + 5')}), 'removed', jsonb_build_array(), 'truncated', false))`;
  // Slot i % 100 of each event picks its type, with the shares of EVENT_MIX.
  const slots = EVENT_MIX.flatMap(({ type, percent }) => Array.from({ length: percent }, () => type));
  await client.query(`create temp table event_slot as select (n - 1)::int as slot, type from unnest($1::text[]) with ordinality as s(type, n)`, [slots]);
  await client.query(
    `create temp table event_envelope as
       select p.k, p.id as profile_id, t.type,
              jsonb_build_object('type', t.type, 'profile', jsonb_build_object('id', ${fakeId('p', 'p.k')}, 'uuid', p.uuid, 'metadata', p.metadata),
                                 'record', case when t.record = 'balance' then ${records.balance} else ${records.connection} end,
                                 'metadata', case when t.type = 'connection.synced.successful' then ${syncMetadata} else '{}'::jsonb end) as payload
         from (select row_number() over (order by id)::int - 1 as k, id, uuid, metadata from profile where environment_id = $1 and id <> $2) p
        cross join jsonb_to_recordset($3::jsonb) as t(type text, record text)`,
    [environmentId, quietProfileId, JSON.stringify(EVENT_MIX)],
  );
  await client.query('analyze event_envelope, event_slot');
  const profiles = Number((await client.query<{ n: string }>(`select count(distinct k) as n from event_envelope`)).rows[0]!.n);
  for (let from = 1; from <= events; from += CHUNK_EVENTS) {
    const to = Math.min(events, from + CHUNK_EVENTS - 1);
    await inTransaction(client, async () => {
      await client.query(`set local session_replication_role = replica`);
      // Envelopes hashed in one batch: the join then keeps the series' order, with no sort of wide rows.
      await client.query(`set local work_mem = '256MB'`);
      await client.query(
        `insert into event (id, environment_id, profile_id, type, at, payload)
         select pg_temp.uuidv7_at(e.at), $1, v.profile_id, v.type, e.at, v.payload
           from (select i, now() - interval '${EVENT_DAYS} days' + (i - 1) * (interval '${EVENT_DAYS} days' / $2::int) as at, (i::bigint * 7919) % ${profiles} as k, s.type
                   from generate_series($3::int, $4::int) i join event_slot s on s.slot = i % 100) e
           join event_envelope v on v.k = e.k and v.type = e.type`,
        [environmentId, events, from, to],
      );
    });
  }
  await client.query('drop table event_slot, event_envelope');
}

/**
 * Makes `due` connections (or every one, when fewer) due for a scheduled sync, last synced 7 hours
 * ago, and every other one not, so the sweep's work is the same at every size; returns how many are due.
 */
export async function setDueConnections(client: pg.ClientBase, due: number): Promise<number> {
  const { rows } = await client.query<{ due: number }>(
    `with synced as (update connection set last_synced_at = case when id in (select id from connection where status = 'SYNCED' order by id limit $1) then now() - interval '7 hours' else now() end
                      where status = 'SYNCED' returning last_synced_at)
     select count(*) filter (where last_synced_at < now())::int as due from synced`,
    [due],
  );
  return rows[0]!.due;
}

/** Rows and bytes on disk (heap, indexes and TOAST, over every partition) of each table. */
export async function diskUse(client: pg.ClientBase, tables: string[]): Promise<Record<string, { rows: number; bytes: number }>> {
  const use: Record<string, { rows: number; bytes: number }> = {};
  for (const table of tables) {
    const { rows } = await client.query<{ rows: string; bytes: string }>(
      `select (select count(*) from "${table}") as rows,
              coalesce((select sum(pg_total_relation_size(relid)) from pg_partition_tree($1::regclass)), pg_total_relation_size($1::regclass)) as bytes`,
      [table],
    );
    use[table] = { rows: Number(rows[0]!.rows), bytes: Number(rows[0]!.bytes) };
  }
  return use;
}

export async function profileCount(client: pg.ClientBase, environmentId: string): Promise<number> {
  return Number((await client.query<{ n: string }>('select count(*) as n from profile where environment_id = $1', [environmentId])).rows[0]!.n);
}

/** The writable columns of each table, in the catalog's order. */
async function columnsOf(client: pg.ClientBase, tables: string[]): Promise<Record<string, string[]>> {
  const { rows } = await client.query<{ table: string; columns: string[] }>(
    `select table_name as table, array_agg(column_name::text order by ordinal_position) as columns from information_schema.columns
      where table_schema = current_schema() and table_name = any($1) and is_generated = 'NEVER' and generation_expression is null group by table_name`,
    [tables],
  );
  return Object.fromEntries(rows.map((row) => [row.table, row.columns]));
}

async function inTransaction(client: pg.ClientBase, work: () => Promise<void>): Promise<void> {
  await client.query('begin');
  try {
    await work();
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}
