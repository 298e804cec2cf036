import { randomUUID } from 'node:crypto';
import type { EntityManager, QBFilterQuery } from '@mikro-orm/postgresql';
import { beforeAll, describe, expect, it } from 'vitest';
import { boundedCountStatement } from '../../src/db/list-page.ts';
import { encodeId, uuidv7Edge } from '../../src/lib/ids.ts';
import { Event, type EventEntity } from '../../src/modules/event/event.entity.ts';
import { eventLogPage } from '../../src/modules/event/event.service.ts';
import { eventWhere, type EventFilter } from '../../src/modules/event/event.store.ts';
import type { Builders } from '../support/builders.ts';
import { withServiceTier } from '../support/service-tier.ts';
import type { TestDatabase } from '../support/test-database.ts';

let db: TestDatabase;
let build: Builders;

withServiceTier((tier) => ({ db, build } = tier));

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
      named((await eventLogPage(db.em(), environment.id, { since: query.since?.toISOString(), until: query.until?.toISOString() }, 100)).items.map((event) => event.id));
    const inRange = ['at since', 'at since, its id 999 ms early', 'at since, its id 999 ms late', 'just before until', 'just before until, its id 999 ms late'];

    expect(await page({ since, until })).toEqual([...inRange].sort());
    expect(await page({ since })).toEqual([...inRange, 'at until', 'at until, its id 999 ms early'].sort());
    expect(await page({ until })).toEqual([...inRange, 'just before since', 'just before since, its id 999 ms late'].sort());
    const counted = await eventLogPage(db.em(), environment.id, { since: since.toISOString(), until: until.toISOString(), after: encodeId('event', rows[1]!.id) }, 100);
    expect(counted.total).toBe(inRange.length);
  });
});

// Enough rows that the planner's choice shows: on a few hundred rows any plan is cheap and it may
// prefer a sequential scan. 200k events over 60 days in one environment, 1,000 profiles, two types.
const EVENTS = 200_000;
const DAY_MS = 86_400_000;

describe('the event log\'s filters use their indexes', () => {
  let environmentId: string;
  const now = Date.now();

  beforeAll(async () => {
    environmentId = (await build.environment()).id;
    // uuidv7 in SQL: the 48-bit millisecond of `at`, version 7, random below.
    await db.sql(
      `insert into event (id, environment_id, profile_id, type, at, payload)
       select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send((extract(epoch from e.at) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid,
              $1, p.id, e.type, e.at, jsonb_build_object('type', e.type, 'profile', null, 'record', jsonb_build_object('id', 'x'), 'metadata', '{}'::jsonb)
         from generate_series(1, $2::int) n
         cross join lateral (select to_timestamp(($3::bigint - $4::bigint + n::bigint * $4::bigint / $2::int) / 1000.0) as at,
                                    case when n % 2 = 0 then 'balance.created' else 'connection.synced.successful' end as type) e
         cross join lateral (select ('00000000-0000-7000-8000-' || lpad(to_hex(n % 1000), 12, '0'))::uuid as id) p`,
      [environmentId, EVENTS, now, 60 * DAY_MS],
    );
    await db.sql('analyze event');
  }, 60_000);

  /** The plan of one statement, as EXPLAIN's JSON tree. */
  async function plan(em: EntityManager, { sql, params }: { sql: string; params: readonly unknown[] }): Promise<PlanNode> {
    const [row] = await em.execute<Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>>(`explain (format json) ${sql}`, [...params]);
    return row!['QUERY PLAN'][0]!.Plan;
  }

  /** The plans of a page of the filtered log and of its bounded count. */
  async function plans(filter: Omit<EventFilter, 'environmentId'>): Promise<PlanNode[]> {
    const em = db.em();
    const where = eventWhere({ environmentId, ...filter });
    // What idOrderPage's em.find sends for a first page of 25.
    const page = em.createQueryBuilder(Event).select('*').where(where as QBFilterQuery<EventEntity>).orderBy({ id: 'asc' }).limit(26).toQuery();
    return [await plan(em, page), await plan(em, boundedCountStatement(em, Event, where))];
  }

  it.each([
    ['profileId (a profile with no events)', { profileId: randomUUID() }, 'event_profile_id_id_index', /profile_id = /],
    ['profileId (a profile with events)', { profileId: '00000000-0000-7000-8000-000000000007' }, 'event_profile_id_id_index', /profile_id = /],
    ['a type prefix no event has', { type: 'profile' }, 'event_environment_id_type_index', /type >= 'profile\.'/],
    ['since yesterday', { since: new Date(now - DAY_MS) }, 'event_pkey', /id >= /],
    ['until 59 days ago', { until: new Date(now - 59 * DAY_MS) }, 'event_pkey', /id <= /],
  ])('%s: the page reads a range of the index, no sequential scan of event', async (_case, filter, index, condition) => {
    const [page, count] = await plans(filter);
    // An index read by its condition (not walked whole with a filter, as the pkey was before id bounds).
    expect(indexConditions(page!), JSON.stringify(page)).toContainEqual([index, expect.stringMatching(condition)]);
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

const nodes = (tree: PlanNode): PlanNode[] => [tree, ...(tree.Plans ?? []).flatMap(nodes)];
const indexConditions = (tree: PlanNode) => nodes(tree).flatMap((node) => (node['Index Name'] ? [[node['Index Name'], node['Index Cond'] ?? '']] : []));
const sequentialScans = (tree: PlanNode) => nodes(tree).filter((node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'event');
