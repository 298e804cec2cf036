import { randomUUID } from 'node:crypto';
import type { EntityManager, QBFilterQuery } from '@mikro-orm/postgresql';
import { beforeAll, describe, expect, it } from 'vitest';
import { boundedCountStatement } from '../../src/db/list-page.ts';
import { keepRecentStatements, queryStats, statementsSince } from '../../src/db/query-stats.ts';
import { encodeId, uuidv7Edge } from '../../src/lib/ids.ts';
import { Event, type EventEntity } from '../../src/modules/event/event.entity.ts';
import { eventLogPage } from '../../src/modules/event/event.service.ts';
import { eventWhere, type EventFilter } from '../../src/modules/event/event.store.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';
import { weeksSince } from '../../src/db/time-partitions.ts';
import { DAY_MS } from '../../src/lib/dates.ts';

let db: TestDatabase;
let build: Builders;

withServiceTier((tier) => ({ db, build } = tier));

// A log that has run for two months: a partition a week (docs/decisions/logs-partitioned-by-time.md).
beforeAll(() => weeksSince(db.sql, 'event', Date.now() - 61 * 86_400_000));


/** A uuidv7 whose timestamp is millisecond `ms` (random below it), as recordEvent makes at that instant. */
const idAt = (ms: number) => `${uuidv7Edge(ms, 'first').slice(0, 14)}7${randomUUID().slice(15)}`;

describe('since and until as id bounds as well', () => {
  it('answer exactly at the boundaries: `since` inclusive, `until` exclusive, ids a second off their instant included', async () => {
    const environment = await build.environment();
    const since = new Date('2026-11-30T12:00:00.000Z');
    const until = new Date('2026-11-30T13:00:00.000Z');
    const at = (base: Date, offsetMs: number) => new Date(base.getTime() + offsetMs);
    // [name, at, how far the id's clock is from `at`]
    const events: Array<[string, Date, number]> = [
      ['just before since', at(since, -1), 0],
      ['at since', since, 0],
      ['at since, its id 999 ms early', since, -999],
      ['at since, its id 999 ms late', at(since, 0), 999],
      ['just before since, its id 999 ms late', at(since, -1), 999],
      ['just before until', at(until, -1), 0],
      ['just before until, its id 999 ms late', at(until, -1), 999],
      ['at until', until, 0],
      ['at until, its id 999 ms early', until, -999],
    ];
    const rows = events.map(([name, instant, skew]) => ({ name, id: idAt(instant.getTime() + skew), at: instant }));
    await db.sql(
      `insert into event (id, environment_id, profile_id, type, at, payload)
       select (r->>'id')::uuid, $2, null, 'profile.created', (r->>'at')::timestamptz, jsonb_build_object('type', 'profile.created', 'name', r->>'name')
         from jsonb_array_elements($1::jsonb) r`,
      [JSON.stringify(rows), environment.id],
    );
    const named = (ids: string[]) => ids.map((id) => rows.find((row) => row.id === id)!.name).sort();
    const page = async (query: { since?: Date; until?: Date }) =>
      named((await eventLogPage(db.em(), environment.id, { since: query.since?.toISOString(), until: query.until?.toISOString() }, 100, 30)).items.map((event) => event.id));
    const inRange = ['at since', 'at since, its id 999 ms early', 'at since, its id 999 ms late', 'just before until', 'just before until, its id 999 ms late'];

    expect(await page({ since, until })).toEqual([...inRange].sort());
    expect(await page({ since })).toEqual([...inRange, 'at until', 'at until, its id 999 ms early'].sort());
    expect(await page({ until })).toEqual([...inRange, 'just before since', 'just before since, its id 999 ms late'].sort());
    const counted = await eventLogPage(db.em(), environment.id, { since: since.toISOString(), until: until.toISOString(), after: encodeId('event', rows[1]!.id) }, 100, 30);
    expect(counted.total).toBe(inRange.length);
  });
});

// Enough rows that the planner's choice shows: on a few hundred rows any plan is cheap and it may
// prefer a sequential scan. 100k events over 60 days, 1,000 profiles, two types; the environment the
// filters ask about holds 1% of them, among a busy one's (the log is every environment's).
const EVENTS = 100_000;

describe('the event log\'s filters use their indexes', () => {
  let environmentId: string;
  const now = Date.now();

  beforeAll(async () => {
    environmentId = (await build.environment()).id;
    const busy = (await build.environment()).id;
    // uuidv7 in SQL: the 48-bit millisecond of `at`, version 7, random below. One payload of the real
    // envelope's size (about 500 bytes) for every row: the rows' width weighs in the planner's choice.
    await db.sql(
      `insert into event (id, environment_id, profile_id, type, at, payload)
       select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send((extract(epoch from e.at) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid,
              case when n % 100 = 0 then $1 else $6 end::uuid, p.id, e.type, e.at, $5::jsonb
         from generate_series(1, $2::int) n
         cross join lateral (select to_timestamp(($3::bigint - $4::bigint + n::bigint * $4::bigint / $2::int) / 1000.0) as at,
                                    case when n % 2 = 0 then 'balance.created' else 'connection.synced.successful' end as type) e
         cross join lateral (select ('00000000-0000-7000-8000-' || lpad(to_hex(n % 1000), 12, '0'))::uuid as id) p`,
      [environmentId, EVENTS, now, 60 * DAY_MS, JSON.stringify({ record: { description: 'x'.repeat(500) } }), busy],
    );
    await db.sql('analyze event');
    for (const { child, parent } of await db.sql<{ child: string; parent: string }>(
      `select c.relname as child, p.relname as parent from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where c.relkind = 'i' and p.relname like 'event%'`,
    )) partitionIndexes.set(child, parent);
    const weeks = await db.sql<{ name: string }>(`select tableoid::regclass::text as name from event group by 1 having count(*) >= $1`, [FILLED]);
    for (const { name } of weeks) filledWeeks.add(name);
    // Eight whole weeks, and the weeks at either end when enough of them has passed.
    expect(filledWeeks.size).toBeGreaterThanOrEqual(8);
  }, 60_000);

  /** The plan of one statement, as EXPLAIN's JSON tree. */
  async function plan(em: EntityManager, { sql, params }: { sql: string; params: readonly unknown[] }): Promise<PlanNode> {
    const [row] = await em.execute<Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>>(`explain (format json) ${sql}`, [...params]);
    return row!['QUERY PLAN'][0]!.Plan;
  }

  /** The plans of a first page of 25 of the filtered log and of its bounded count, the very statements GET /v1/events sends. */
  async function plans(filter: Omit<EventFilter, 'environmentId'>): Promise<PlanNode[]> {
    const em = db.em();
    const where = eventWhere({ environmentId, ...filter });
    const page = em.createQueryBuilder(Event).select('*').where(where as QBFilterQuery<EventEntity>).orderBy({ id: 'asc' }).limit(26).toQuery();
    const count = boundedCountStatement(em, Event, where);
    keepRecentStatements();
    const before = queryStats.statements;
    const { profileId, type, since, until } = filter;
    await eventLogPage(em, environmentId, { profileId: profileId && encodeId('profile', profileId), type, since: since?.toISOString(), until: until?.toISOString() }, 25, 30);
    expect(statementsSince(before)).toEqual(expect.arrayContaining([page.sql, count.sql]));
    return [await plan(em, page), await plan(em, count)];
  }

  it.each([
    ['profileId (a profile with no events)', { profileId: randomUUID() }, 'event_profile_id_id_index', /profile_id = /],
    ['profileId (a profile with events)', { profileId: '00000000-0000-7000-8000-000000000000' }, 'event_profile_id_id_index', /profile_id = /],
    ['a type prefix no event has', { type: 'profile' }, 'event_environment_id_type_index', /type >= 'profile'::text\) AND \(type < 'profile\/'/],
    ['since yesterday', { since: new Date(now - DAY_MS) }, 'event_environment_id_id_index', /id >= /],
    ['until 59 days ago', { until: new Date(now - 59 * DAY_MS) }, 'event_environment_id_id_index', /id <= /],
    ['no filter', {}, 'event_environment_id_id_index', /environment_id = /],
  ])('%s: the page and its count read a range of the index, no sequential scan of event', async (_case, filter, index, condition) => {
    const [page, count] = await plans(filter);
    // An index read by its condition (not walked whole with a filter, as the pkey was before; the
    // count of a filter too, or it would walk the environment's entries until 10,001 matched; an
    // unfiltered count matches from its first entry, in whichever index).
    for (const tree of Object.keys(filter).length > 0 ? [page!, count!] : [page!]) expect(indexConditions(tree), JSON.stringify(tree)).toContainEqual([index, expect.stringMatching(condition)]);
    for (const tree of [page!, count!]) expect(sequentialScans(tree), JSON.stringify(tree)).toEqual([]);
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** Each index of a partition of the log, and the log's index it is part of. */
const partitionIndexes = new Map<string, string>();
/**
 * The partitions of the log that hold enough rows for the plan to matter. The weeks ahead are empty;
 * the week the log starts in, or the one now runs in, holds only minutes of it when the two months
 * begin late on a Sunday or this runs early on a Monday (UTC), and a sequential scan of a few dozen
 * rows is the planner's right choice there (this test failed on a Thursday night for that alone).
 */
const filledWeeks = new Set<string>();
/** Rows a week holds when it counts as filled: a full week holds about 11,700. */
const FILLED = 1_000;

const nodes = (tree: PlanNode): PlanNode[] => [tree, ...(tree.Plans ?? []).flatMap(nodes)];
const indexConditions = (tree: PlanNode) =>
  nodes(tree).flatMap((node) => (node['Index Name'] ? [[partitionIndexes.get(node['Index Name']) ?? node['Index Name'], node['Index Cond'] ?? '']] : []));
const sequentialScans = (tree: PlanNode) => nodes(tree).filter((node) => node['Node Type'] === 'Seq Scan' && filledWeeks.has(node['Relation Name'] ?? ''));
