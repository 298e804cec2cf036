import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { applyLogRetention, type LogRetentionDependencies } from '../../src/db/log-retention.ts';
import { timePartitions, WEEK_MS, WEEKS_AHEAD } from '../../src/db/time-partitions.ts';
import { decodeId, encodeId, uuidv7, uuidv7Edge, uuidv7Ms } from '../../src/lib/ids.ts';
import { SYNC_HISTORY_LOG } from '../../src/modules/sync/connection-sync.store.ts';
import { ATTEMPT_LOG, EVENT_LOG } from '../../src/modules/webhook/attempt-retention.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { cloneTemplate, asTestSql } from '../support/test-database.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { DAY_MS } from '../../src/lib/dates.ts';

// The event log, webhook attempts and sync history are partitioned by week (docs/decisions/logs-partitioned-by-time.md):
// a job makes the weeks ahead and drops those past LOG_RETENTION_DAYS, never one an owed attempt
// needs; the event log answers a cursor older than what it keeps with 410 CURSOR_EXPIRED.


let app: TestApp;
let retention: LogRetentionDependencies;
beforeAll(async () => {
  app = await startTestApp({ WEBHOOK_CA_FILE: inject('tls').certFile });
  retention = { orm: app.orm, logger: pino({ level: 'silent' }), retentionDays: 30, logs: [EVENT_LOG, ATTEMPT_LOG, SYNC_HISTORY_LOG] };
});
afterAll(() => app?.stop());


/** A uuidv7 made at millisecond `ms`, as recordEvent makes it then. */
const idAt = (ms: number) => `${uuidv7Edge(ms, 'first').slice(0, 14)}7${randomUUID().slice(15)}`;

describe('the logs kept by the week', () => {
  it('makes the weeks ahead, drops the weeks past the retention (not while an attempt of their events is owed), and refuses a cursor before what is kept', async () => {
    const { environmentId, apiKey } = await createEnvironmentWithKey(app);
    const receiver = await startReceiver();
    const subscription = await app.http.post('/v1/webhooks/subscriptions', { auth: apiKey, json: { name: 'retention', targetUrl: receiver.url, eventTypes: ['profile.deleted'] } });
    expect(subscription.status, subscription.text).toBe(201);
    const now = Date.now();
    const old = idAt(now - 40 * DAY_MS);
    const recent = uuidv7();
    await app.sql(
      `insert into event (id, environment_id, profile_id, type, at, payload)
       select id, $2, null, 'profile.deleted', now(), jsonb_build_object('type', 'profile.deleted', 'profile', null, 'metadata', '{}'::jsonb,
                'record', jsonb_build_object('id', 'p_${'0'.repeat(26)}', 'uuid', gen_random_uuid(), 'metadata', null, 'at', now()))
         from unnest($1::uuid[]) as id`,
      [[old, recent], decodeId('environment', environmentId)],
    );
    // A redelivery of the old event, owed tomorrow.
    const owed = uuidv7();
    await app.sql(
      `insert into webhook_delivery (id, subscription_id, event_id, attempt, redelivery, status, at) values ($1, $2, $3, 2, true, 'PENDING', now() + interval '1 day')`,
      [owed, decodeId('webhookSubscription', subscription.body.id), old],
    );
    const cursorBeforeKept = `/v1/events?after=${encodeId('event', old)}`;
    expect((await app.http.get(cursorBeforeKept, { auth: apiKey })).body.map((event: { id: string }) => event.id)).toEqual([encodeId('event', recent)]);

    // Sixty days on: weeks are made up to WEEKS_AHEAD past then; the event log's and the attempts' first
    // partitions, holding both events and the owed attempt, stay, and so does every week after them.
    // The sync history, which nothing holds, loses its weeks past the retention.
    const later = now + 60 * DAY_MS;
    const first = await applyLogRetention(retention, later);
    expect(first.dropped).toContain('connection_sync_initial');
    expect(first.dropped.filter((name) => !name.startsWith('connection_sync_'))).toEqual([]);
    for (const table of ['event', 'webhook_delivery', 'connection_sync']) {
      const partitions = await timePartitions(app.sql, table);
      if (table !== 'connection_sync') expect(partitions[0]).toMatchObject({ name: `${table}_initial`, from: null });
      expect(uuidv7Ms(partitions.at(-1)!.to)).toBeGreaterThan(later + WEEKS_AHEAD * WEEK_MS);
      expect(first.created).toEqual(expect.arrayContaining([partitions.at(-1)!.name]));
    }
    expect(await app.sql(`select id from event where id = any($1::uuid[]) order by id`, [[old, recent]])).toHaveLength(2);

    // Once the attempt is settled, every week that ended over 30 days before then goes, the first partition with them.
    await app.sql(`update webhook_delivery set status = 'SUCCEEDED' where id = $1`, [owed]);
    const second = await applyLogRetention(retention, later);
    expect(second.created).toEqual([]);
    expect(second.dropped).toEqual(expect.arrayContaining(['event_initial', 'webhook_delivery_initial']));
    for (const table of ['event', 'webhook_delivery', 'connection_sync']) {
      const [oldest] = await timePartitions(app.sql, table);
      // The oldest kept week is the one that ends after `later` − 30 days.
      expect(uuidv7Ms(oldest!.to)).toBeGreaterThan(later - 30 * DAY_MS);
      expect(uuidv7Ms(oldest!.to) - WEEK_MS).toBeLessThanOrEqual(later - 30 * DAY_MS);
    }
    expect(await app.sql(`select id from event where id = any($1::uuid[])`, [[old, recent]])).toEqual([]);
    expect(await app.sql(`select id from webhook_delivery where id = $1`, [owed])).toEqual([]);

    // A cursor before the oldest kept event: the events after it may be gone, so no page is made from it.
    const expired = await app.http.get(cursorBeforeKept, { auth: apiKey });
    expect(expired.status).toBe(410);
    expect(expired.body).toEqual({
      code: 'CURSOR_EXPIRED',
      message: expect.stringMatching(/^Entries before \d{4}-\d\d-\d\dT00:00:00\.000Z are no longer kept \(LOG_RETENTION_DAYS is 30\)/),
      instruction: expect.stringContaining('without `after`'),
      requestId: expect.stringMatching(/^req_/),
      errorId: expect.stringMatching(/^err_/),
    });
    // Without a cursor the log starts with the oldest kept event.
    const restart = await app.http.get('/v1/events', { auth: apiKey });
    expect(restart.status).toBe(200);
    expect(restart.body).toEqual([]);
    await receiver.close();
  });

  it('makes the weeks ahead as a worker starts: a deployment stopped for weeks does not wait for the hourly run', async () => {
    const clone = await cloneTemplate();
    const setup = new pg.Client({ connectionString: asTestSql(clone.url) });
    await setup.connect();
    const sql = async <T,>(text: string, values?: readonly unknown[]) => (await setup.query(text, values && [...values])).rows as T[];
    let started: TestApp | undefined;
    try {
      // Only the first of the weeks ahead is left: as if the job had not run for three weeks.
      for (const table of ['event', 'webhook_delivery', 'connection_sync']) {
        for (const week of (await timePartitions(sql, table)).slice(2)) await sql(`drop table "${week.name}"`);
        expect(uuidv7Ms((await timePartitions(sql, table)).at(-1)!.to)).toBeLessThan(Date.now() + 3 * WEEK_MS);
      }
      started = await startTestApp({}, { databaseUrl: clone.url });
      await waitFor(async () => {
        for (const table of ['event', 'webhook_delivery', 'connection_sync']) {
          if (uuidv7Ms((await timePartitions(sql, table)).at(-1)!.to) <= Date.now() + WEEKS_AHEAD * WEEK_MS) return undefined;
        }
        return true;
      }, 'the weeks ahead to be made');
    } finally {
      await started?.stop();
      await setup.end();
      await clone.drop();
    }
  });
});

