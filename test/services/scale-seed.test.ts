import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskUse, EVENT_DAYS, growProfiles, seedEvents, seedTemplates, setDueConnections } from '../../scripts/bench/scale-seed.ts';
import { asTestSql, openTestDatabase, type TestDatabase } from '../support/test-database.ts';

let db: TestDatabase;
let client: pg.Client;
beforeAll(async () => {
  db = await openTestDatabase();
  client = new pg.Client({ connectionString: asTestSql(db.url) });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await db?.close();
});

describe('the scale bench seed', () => {
  it('copies the template profiles with all their rows under new ids, and writes an event log of 60 days', async () => {
    await seedTemplates(db.url, { environmentId: db.environmentId, cipher: db.cipher, perProfile: 100 });
    await growProfiles(client, db.environmentId, 10);
    const [counts] = await db.sql(
      `select (select count(*)::int from profile) as profiles, (select count(*)::int from transaction) as transactions,
              (select count(distinct profile_id)::int from transaction) as "profilesWithTransactions",
              (select count(*)::int from account a where not exists (select 1 from balance b where b.id = a.latest_balance_id and b.account_id = a.id)) as "accountsWithoutBalance",
              (select count(*)::int from transaction t where not exists (select 1 from account a where a.id = t.account_id and a.profile_id = t.profile_id and a.connection_id = t.connection_id)) as "transactionsOfOthers",
              (select count(distinct uuid)::int from profile) as "profileUuids"`,
    );
    expect(counts).toEqual({ profiles: 10, transactions: 1000, profilesWithTransactions: 10, accountsWithoutBalance: 0, transactionsOfOthers: 0, profileUuids: 10 });
    // A copy reads like its template: the same remote data.
    const [copies] = await db.sql(`select count(*)::int as n from transaction t join profile p on p.id = t.profile_id where p.name like 'Scale User %' and t.remote_data ? 'sandbox'`);
    expect(copies.n).toBe(700);

    const [quiet] = await db.sql('select id from profile order by id limit 1');
    await seedEvents(client, db.environmentId, 500, quiet.id);
    const [events] = await db.sql(
      `select count(*)::int as n, count(*) filter (where profile_id = $1)::int as quiet, (select count(*) from event_outbox)::int as undispatched,
              bool_and(payload->>'type' = type) as typed, round(extract(epoch from max(at) - min(at)) / 86400)::int as days,
              count(*) filter (where id::text like '________-____-7%')::int as v7
         from event`,
      [quiet.id],
    );
    expect(events).toEqual({ n: 500, quiet: 0, undispatched: 0, typed: true, days: EVENT_DAYS, v7: 500 });
    // Ids are time-ordered, as the service makes them (to the millisecond).
    const [ordered] = await db.sql(`select count(*)::int as n from (select at, lag(at) over (order by id) as before from event) e where at < before - interval '1 ms'`);
    expect(ordered.n).toBe(0);
    // Laid out a week a partition, as a log that has run for 60 days is.
    const [weeks] = await db.sql(`select count(distinct tableoid)::int as n from event`);
    expect(weeks.n).toBeGreaterThanOrEqual(9);

    expect(await setDueConnections(client, 2)).toBe(2);
    const [due] = await db.sql(`select count(*)::int as n from connection where last_synced_at < now() - interval '6 hours'`);
    expect(due.n).toBe(2);
    const use = await diskUse(client, ['transaction', 'event']);
    expect(use.transaction!.rows).toBe(1000);
    expect(use.event!.bytes).toBeGreaterThan(500 * 500);
  });
});
