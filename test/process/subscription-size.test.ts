import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { basicAuth, buildProfile } from '../support/factories.ts';
import { liveClient, type LiveClient } from '../support/live-client.ts';
import { withServiceProcess } from '../support/service-process.ts';
import { waitFor } from '../support/wait.ts';
import { asTestSql } from '../support/test-database.ts';
import { uuidv7 } from '../../src/lib/ids.ts';

/**
 * The outside probe of issue #33 against a service process on production's heap settings
 * (scripts/start.sh: 256 MB of old space): one end-user fills each account's metadata to the
 * largest the rules allow and subscribes on ten sockets with a document inside every shape limit
 * that nests accounts three deep. One event of it was about 49 MB per socket, and the process died
 * ("Reached heap limit") before any of it was sent.
 */
const SOCKETS = 10;
const metadataAliases = (count: number) => Array.from({ length: count }, (_, i) => `m${i}: metadata`).join(' ');
const PROBE = `subscription { connectionSynced { connection { accounts { connection { accounts { connection { accounts { ${metadataAliases(30)} } } } } } } } }`;
/** Within the cost limit, and still well past 1 MiB once written (30 copies of each account's 25 KB of metadata). */
const HEAVY = `subscription { connectionSynced { connection { accounts { ${metadataAliases(30)} } } } }`;

const tier = withServiceProcess(
  {
    ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    SANDBOX_HISTORY_DAYS: '30',
    NODE_OPTIONS: '--max-semi-space-size=16 --max-old-space-size=256',
  },
  120_000,
);
let db: pg.Client;
beforeAll(async () => {
  db = new pg.Client({ connectionString: asTestSql(tier.fixture.databaseUrl) });
  await db.connect();
});
afterAll(() => db?.end());

it("survives the probe on ten sockets: its document is refused, an event past 1 MiB arrives on each as a RESPONSE_TOO_LARGE error, and /healthz answers", { timeout: 120_000 }, async () => {
  const apiKey = JSON.parse(readFileSync(path.join(tier.fixture.dataDir, 'bootstrap.json'), 'utf8')).apiKey as string;
  const profile = (await tier.http.post('/v1/profiles', { auth: apiKey, json: buildProfile() })).body as { id: string };
  const auth = basicAuth(profile.id, apiKey);
  const created = await tier.http.post('/v1/sandbox/connections', { auth: apiKey, json: { profileId: profile.id, institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good' } });
  expect(created.status, created.text).toBe(201);
  const [synced] = await waitFor(async () => {
    const { rows } = await db.query<{ id: string }>(`select id from event where type = 'connection.synced.successful' and payload->'record'->>'id' = $1`, [created.body.id]);
    return rows.length > 0 ? rows : undefined;
  }, 'the first sync', 60_000);
  const accounts = (await tier.http.post('/v1/graphql', { auth, json: { query: '{ accounts { id } }' } })).body.data.accounts as { id: string }[];
  expect(accounts.length).toBeGreaterThan(1);
  const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${String(i).padStart(2, '0')}`, 'x'.repeat(500)]));
  for (const { id } of accounts) {
    const update = await tier.http.post('/v1/graphql', { auth, json: { query: 'mutation($input: AccountUpdateInput!) { accountUpdate(input: $input) { success } }', variables: { input: { id, metadata } } } });
    expect(update.body).toEqual({ data: { accountUpdate: { success: true } } });
  }

  const sockets: LiveClient[] = Array.from({ length: SOCKETS }, () => liveClient(`https://localhost:${tier.service.port}`, auth));
  try {
    const subscribed = sockets.map((live) => ({ probe: live.subscribe(PROBE), heavy: live.subscribe(HEAVY) }));
    await waitFor(async () => (subscribed.every(({ probe }) => probe.errors.length > 0) ? true : undefined), "the probe's refusals");
    for (const { probe } of subscribed) expect(probe.errors[0]).toEqual([{ message: expect.stringMatching(/^Query cost \d+ exceeds the limit/), extensions: { code: 'QUERY_TOO_COMPLEX', errorId: expect.stringMatching(/^err_/) } }]);
    // Every socket's subscriptions have started once a refused query on it has been answered.
    await Promise.all(sockets.map((live) => new Promise((resolve) => live.client.subscribe({ query: '{ __typename }' }, { next: resolve, error: resolve, complete: () => {} }))));

    // A copy of the sync's own event, committed like any other.
    await db.query(`insert into event (id, environment_id, profile_id, type, at, payload) select $2, environment_id, profile_id, type, now(), payload from event where id = $1`, [synced!.id, uuidv7()]);
    for (const { heavy } of subscribed) {
      await heavy.next(1, 60_000);
      expect(heavy.results).toEqual([{ errors: [{ message: expect.stringContaining('1048576 bytes'), extensions: { code: 'RESPONSE_TOO_LARGE', errorId: expect.stringMatching(/^err_/) } }] }]);
      expect(heavy.errors).toEqual([]);
    }
    expect((await tier.http.get('/healthz')).status).toBe(200);
    expect([tier.service.child.exitCode, tier.service.child.signalCode]).toEqual([null, null]);
  } finally {
    await Promise.all(sockets.map((live) => live.dispose()));
  }
});
