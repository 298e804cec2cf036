import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FieldCipher } from '../../src/lib/field-cipher.ts';
import { encodeId } from '../../src/lib/ids.ts';
import { burstPerWindow, nextSecond, warm } from '../support/bursts.ts';
import { buildProfile } from '../support/factories.ts';
import { httpClient, type HttpClient } from '../support/http-client.ts';
import { machineRedisUrl } from '../support/machine-redis.ts';
import { expectedRemoteIds } from '../support/sandbox-view.ts';
import { processFixture, startServiceProcess, type ServiceProcess } from '../support/service-process.ts';
import { waitFor } from '../support/wait.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { asTestSql } from '../support/test-database.ts';

/**
 * The production topology without containers: two `ROLE=api` processes and `ROLE=worker`
 * processes of `src/main.ts` on one PostgreSQL (migrated beforehand; the instances do not migrate)
 * and one Redis (the machine's: this test needs it, and fails without it).
 */
const CONNECTIONS = 100;
const LOGIN = { institutionId: 'ins_houndstooth', username: 'user_good', password: 'pass_good' };

let fixture: Awaited<ReturnType<typeof processFixture>>;
let env: Record<string, string>;
let apis: ServiceProcess[] = [];
let worker: ServiceProcess;
let clients: HttpClient[];
let apiKey: string;
let db: pg.Client;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let subscriptionId: string;

beforeAll(async () => {
  const redisUrl = await machineRedisUrl();
  fixture = await processFixture();
  // Instances of one deployment share their secrets.
  const key = randomBytes(32).toString('base64');
  env = {
    REDIS_URL: redisUrl,
    MIGRATE_ON_START: 'false',
    ENCRYPTION_KEYS: `k1:${key}`,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    WEBHOOK_CA_FILE: inject('tls').certFile,
    JOB_HEARTBEAT_SECONDS: '10',
    // Two months of history per connection: 100 syncs carry volume without dominating the test run.
    SANDBOX_HISTORY_DAYS: '60',
  };
  // Started side by side, as a deployment's instances are (a startup lock in the service orders their
  // key checks). Each one that started is kept before a failure is thrown, for afterAll to stop.
  const started = await Promise.allSettled([
    startServiceProcess(fixture, { ...env, ROLE: 'api' }),
    startServiceProcess(fixture, { ...env, ROLE: 'api' }),
    startServiceProcess(fixture, { ...env, ROLE: 'worker' }, { processGroup: true }),
  ]);
  const [first, second, third] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
  apis = [first, second].filter((api) => api !== undefined);
  if (third) worker = third;
  for (const result of started) if (result.status === 'rejected') throw result.reason;
  const ca = readFileSync(inject('tls').certFile, 'utf8');
  clients = apis.map((api) => httpClient(`https://localhost:${api.port}`, ca));
  apiKey = JSON.parse(readFileSync(path.join(fixture.dataDir, 'bootstrap.json'), 'utf8')).apiKey;
  db = new pg.Client({ connectionString: asTestSql(fixture.databaseUrl) });
  await db.connect();
  receiver = await startReceiver(() => ({ status: 200 }));
  const subscription = await clients[0]!.post('/v1/webhooks/subscriptions', { auth: apiKey, json: { name: 'topology', targetUrl: receiver.url } });
  expect(subscription.status).toBe(201);
  subscriptionId = subscription.body.id;
}, 120_000);

afterAll(async () => {
  for (const client of clients ?? []) client.close();
  for (const process of [...apis, worker]) {
    if (process && process.child.exitCode === null && process.child.signalCode === null) {
      process.child.kill('SIGTERM');
      await process.exited;
    }
  }
  await db?.end();
  await receiver?.close();
  await fixture?.cleanup();
});

async function rows<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await db.query<T>(text, values)).rows;
}

/** A POST that waits out the key's 100/s window when it is full (this test makes hundreds in a row). */
async function post(client: HttpClient, url: string, json: unknown) {
  for (;;) {
    const response = await client.post(url, { auth: apiKey, json });
    if (response.status !== 429) return response;
    await nextSecond();
  }
}

/** Connects `count` new profiles, alternating between the api processes, eight at a time. */
async function connectMany(count: number, start = 0): Promise<void> {
  let next = start;
  const connectOne = async () => {
    for (let i = next++; i < start + count; i = next++) {
      const client = clients[i % clients.length]!;
      const profile = await post(client, '/v1/profiles', buildProfile());
      const created = await post(client, '/v1/sandbox/connections', { profileId: profile.body.id, ...LOGIN });
      expect(created.status).toBe(201);
    }
  };
  await Promise.all(Array.from({ length: 8 }, connectOne));
}

async function allSynced(timeoutMs: number) {
  return waitFor(async () => {
    const connections = await rows<{ id: string; status: string; sync_cursor: string; credential_encrypted: string }>('select id, status, sync_cursor, credential_encrypted from connection');
    return connections.every((row) => row.status === 'SYNCED') ? connections : undefined;
  }, 'every connection to be SYNCED', timeoutMs);
}

/** Every connection stores exactly what the sandbox reports for it: nothing lost, nothing twice. */
async function expectExactTransactions(connections: Array<{ id: string; sync_cursor: string; credential_encrypted: string }>) {
  const cipher = FieldCipher.fromKeyList(env.ENCRYPTION_KEYS!);
  for (const connection of connections) {
    const stored = await rows('select remote_id from transaction where connection_id = $1', [connection.id]);
    const credential = cipher.decrypt('credential', connection, connection.credential_encrypted);
    expect(stored.map((row) => row.remote_id).sort()).toEqual(await expectedRemoteIds(credential, Number(connection.sync_cursor)));
  }
}

describe('two api processes and a worker on one PostgreSQL and one Redis', { timeout: 240_000 }, () => {
  it('serves HTTPS only from the api processes, and the worker migrates nothing and listens nowhere', () => {
    expect(apis.every((api) => api.port > 0)).toBe(true);
    expect(worker.port).toBe(0);
    expect(worker.banner).toContain('worker');
  });

  it('shares one rate-limit window per credential across both api processes: the window that refuses admitted 100', async () => {
    // Each process gets 75 of the 150 requests: counting apart, neither would ever refuse one. At most
    // one window refuses (that takes 101 of them), and one that does admitted exactly 100, numbered
    // 1…100 across both processes, however the burst fell across seconds.
    let turn = 0;
    const send = () => clients[turn++ % 2]!.get('/healthz', { auth: apiKey });
    // As many connections as the burst will use: 32 to each process (the client's cap).
    await warm(send, 64);
    expect((await burstPerWindow(150, send, 100)).admitted[0]).toBe(100);
  });

  it('syncs 100 connections in the worker, each job run once, every transaction stored once', async () => {
    await connectMany(CONNECTIONS);
    const connections = await allSynced(180_000);
    expect(connections).toHaveLength(CONNECTIONS);
    const jobs = await rows(`select data->>'connectionId' as id, count(*)::int as runs, max(retry_count)::int as retries from pgboss.job where name = 'connection.sync' group by 1`);
    expect(jobs).toHaveLength(CONNECTIONS);
    expect(jobs.every((job) => job.runs === 1 && job.retries === 0)).toBe(true);
    await expectExactTransactions(connections);
  });

  it('a refresh claimed through one api process answers 409 through the other', async () => {
    const [connection] = await rows<{ id: string }>(`select id from connection limit 1`);
    const id = encodeId('connection', connection!.id);
    // The worker is paused, so the claimed refresh cannot finish before the second request.
    process.kill(-worker.child.pid!, 'SIGSTOP');
    try {
      const first = await clients[0]!.post(`/v1/connections/${id}/transactions/refresh`, { auth: apiKey });
      const second = await clients[1]!.post(`/v1/connections/${id}/transactions/refresh`, { auth: apiKey });
      expect([first.status, second.status]).toEqual([202, 409]);
    } finally {
      process.kill(-worker.child.pid!, 'SIGCONT');
    }
    await allSynced(60_000);
  });

  it('a worker SIGKILLed mid-sync is replaced by another that finishes: 0 duplicates, 0 lost', async () => {
    await connectMany(20, CONNECTIONS);
    await waitFor(async () => {
      const [row] = await rows(`select count(*) filter (where status = 'SYNCED')::int as synced from connection`);
      return row.synced > CONNECTIONS ? true : undefined;
    }, 'the new syncs to be under way');
    process.kill(-worker.child.pid!, 'SIGKILL');
    await worker.exited;
    worker = await startServiceProcess(fixture, { ...env, ROLE: 'worker' }, { processGroup: true });
    await expectExactTransactions(await allSynced(120_000));
  });

  it('delivers every event to the webhook receiver, each exactly once', async () => {
    // The events so far; jobs that follow the syncs (recurring payments) may add more meanwhile, which
    // may be delivered before some of these: wait for these, not for as many deliveries as these.
    const events = await rows<{ id: string }>(`select id from event`);
    expect(events.length).toBeGreaterThan(CONNECTIONS);
    const ids = events.map((event) => event.id);
    await waitFor(async () => {
      const [row] = await rows(
        `select count(distinct event_id)::int as delivered from webhook_delivery
          where subscription_id = (select id from webhook_subscription limit 1) and status = 'SUCCEEDED' and event_id = any($1::uuid[])`,
        [ids],
      );
      return row!.delivered === events.length ? true : undefined;
    }, 'every event to be delivered', 120_000);
    const twice = await rows(`select event_id from webhook_delivery where status = 'SUCCEEDED' group by subscription_id, event_id having count(*) > 1`);
    expect(twice).toEqual([]);
    const received = new Set(receiver.received.map((request) => request.headers['webhook-id']));
    expect(ids.map((id) => encodeId('event', id)).filter((id) => !received.has(id))).toEqual([]);
    const log = await clients[0]!.get(`/v1/webhooks/subscriptions/${subscriptionId}/deliveries`, { auth: apiKey });
    expect(log.status).toBe(200);
  });
});
