import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionStatements, dueForSync } from '../../src/modules/connection/connection.store.ts';
import { SYNC_INTERVAL_HOURS } from '../../src/modules/sync/connection.jobs.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

/** Connections generated in SQL: enough that the planner prefers an index when one fits. */
const PROFILES = 2000;
const CONNECTIONS_PER_PROFILE = 10;

/** Every node of an EXPLAIN (FORMAT JSON) plan. */
function planNodes(plan: Record<string, unknown>): Record<string, unknown>[] {
  return [plan, ...((plan.Plans as Record<string, unknown>[] | undefined) ?? []).flatMap(planNodes)];
}

describe('the due-sync sweep', () => {
  let db: TestDatabase;
  const now = new Date();

  beforeAll(async () => {
    db = await openTestDatabase();
    await db.sql(`insert into profile (id, environment_id, uuid, created_at) select gen_random_uuid(), $1, gen_random_uuid(), now() from generate_series(1, $2)`, [
      db.environmentId,
      PROFILES,
    ]);
    // Mostly SYNCED within the last 6¼ hours (the sweep's interval and a tick), some disconnected,
    // a few in each other state; budgets and upstream refusals on some.
    await db.sql(
      `insert into connection (id, environment_id, profile_id, provider, institution_id, institution_name, status, products, credential_encrypted, created_at,
                               last_synced_at, next_read_at, upstream_refuses_until)
       select gen_random_uuid(), $1, p.id, 'sandbox', 'ins_1', 'Bank', s.status, '["transactions"]', 'x', now(),
              $2::timestamptz - make_interval(mins => (random() * 375)::int),
              case when n % 17 = 0 then $2::timestamptz + make_interval(hours => 1) when n % 19 = 0 then $2::timestamptz - make_interval(hours => 1) end,
              case when n % 23 = 0 then $2::timestamptz + make_interval(mins => 5) end
         from (select id, row_number() over () as r from profile) p, generate_series(1, $3) n,
              lateral (select case when n <= 6 then 'SYNCED' when n <= 8 then 'DISCONNECTED'
                                   else (array['ERROR_SERVICE', 'ERROR_PROVIDER', 'ERROR_INSTITUTION', 'ERROR_REPAIRABLE', 'SYNCING', 'INITIALIZING'])[1 + (p.r + n) % 6] end as status) s`,
      [db.environmentId, now, CONNECTIONS_PER_PROFILE],
    );
    await db.sql('analyze connection');
  });
  afterAll(() => db?.close());

  it('finds the due connections through its partial index, without reading the whole table', async () => {
    const [{ 'QUERY PLAN': [explained] }] = await db.sql(`explain (format json) ${connectionStatements.dueForSync}`, [SYNC_INTERVAL_HOURS, now]);
    const nodes = planNodes(explained.Plan);
    expect(nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name'])).toEqual([]);
    expect(nodes.map((node) => node['Index Name']).filter(Boolean)).toContain('connection_sync_due_index');
  });

  it('still finds exactly the SYNCED connections past the interval and those in a retried error, that their budget and upstream let be read, with their profiles', async () => {
    const rows = await db.sql<{ id: string; profile_id: string; status: string; last_synced_at: Date; next_read_at: Date | null; upstream_refuses_until: Date | null }>(
      'select id, profile_id, status, last_synced_at, next_read_at, upstream_refuses_until from connection',
    );
    const cutoff = now.getTime() - SYNC_INTERVAL_HOURS * 3600_000;
    const expected = rows
      .filter((row) => (row.status === 'SYNCED' && row.last_synced_at.getTime() < cutoff) || ['ERROR_SERVICE', 'ERROR_PROVIDER', 'ERROR_INSTITUTION'].includes(row.status))
      .filter((row) => (row.next_read_at === null || row.next_read_at <= now) && (row.upstream_refuses_until === null || row.upstream_refuses_until <= now))
      .map((row) => `${row.id} of ${row.profile_id}`);
    expect(expected.length).toBeGreaterThan(100);
    // Each with its profile, which the sync job it queues carries.
    expect((await dueForSync(db.em(), SYNC_INTERVAL_HOURS, now)).map((due) => `${due.id} of ${due.profileId}`).sort()).toEqual(expected.sort());
  });
});
