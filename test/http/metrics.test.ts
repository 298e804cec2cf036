import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { runOnce } from '../../src/db/scratch.ts';
import { MAX_OPERATION_NAMES, Metrics } from '../../src/metrics/metrics.ts';
import { decodeId, uuidv7, uuidv7Edge } from '../../src/lib/ids.ts';
import { burstUntilRefused, nextSecond, tally } from '../support/bursts.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { basicAuth, createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

const TOKEN = 'metrics-token-0123456789abcdef0123456789';

let app: TestApp;
let database: { adminUrl: string; name: string };
let succeeding: Awaited<ReturnType<typeof startReceiver>>;
let failing: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  // A database of our own, so the replica pool can be pointed at it too (a read-only view of the primary).
  const { adminUrl, template } = inject('database');
  database = { adminUrl, name: `t_metrics_${Math.random().toString(36).slice(2, 8)}` };
  await runOnce(adminUrl, `CREATE DATABASE ${database.name} TEMPLATE ${template}`);
  const databaseUrl = adminUrl.replace(/\/[^/]+$/, `/${database.name}`);
  app = await startTestApp({ METRICS_PORT: '0', METRICS_TOKEN: TOKEN, WEBHOOK_CA_FILE: inject('tls').certFile, DATABASE_REPLICA_URL: databaseUrl }, { databaseUrl });
  succeeding = await startReceiver(() => ({ status: 204 }));
  failing = await startReceiver(() => ({ status: 500 }));
});
afterAll(async () => {
  await app?.stop();
  await succeeding?.close();
  await failing?.close();
  if (database) await runOnce(database.adminUrl, `DROP DATABASE IF EXISTS ${database.name} WITH (FORCE)`);
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** One plain-HTTP GET of the metrics port. */
function get(path: string, headers: Record<string, string> = {}, port = app.service.metricsPort!): Promise<{ status: number; type: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], text }));
    })
      .on('error', reject)
      .end();
  });
}

/** Scrapes and parses Prometheus's text format. */
async function scrape(): Promise<Sample[]> {
  const response = await get('/metrics', { Authorization: `Bearer ${TOKEN}` });
  expect(response.status).toBe(200);
  expect(response.type).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(response.text);
}

/** The subset of the text format prom-client writes (no timestamps). */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, name, value]) => [name!, value!]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The sum of the samples named `name` whose labels include `labels`. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

function labelValues(samples: Sample[], name: string, label: string): Set<string> {
  return new Set(samples.filter((sample) => sample.name === name).map((sample) => sample.labels[label]!));
}

const graphql = (auth: string, query: string, operationName?: string) => app.http.post('/v1/graphql', { auth, json: { query, operationName } });

describe('the metrics endpoint', () => {
  it('is off unless METRICS_PORT is set, and never served on the API port', async () => {
    const plain = await startTestApp();
    try {
      expect(plain.service.metricsPort).toBeUndefined();
      const onApi = await plain.http.get('/metrics');
      expect(onApi.status).toBe(404);
      expect(onApi.body).toMatchObject({ message: expect.any(String), requestId: expect.any(String), errorId: expect.any(String) });
    } finally {
      await plain.stop();
    }
    expect((await app.http.get('/metrics')).status).toBe(404);
  });

  it('refuses a scrape without the token, or with a wrong one, and answers only GET /metrics', async () => {
    const missing = await get('/metrics');
    expect(missing.status).toBe(401);
    expect(missing.text).not.toContain('tributary_');
    expect((await get('/metrics', { Authorization: `Bearer ${TOKEN.slice(0, -1)}x` })).status).toBe(401);
    expect((await get('/metrics', { Authorization: `Basic ${TOKEN}` })).status).toBe(401);
    expect((await get('/other', { Authorization: `Bearer ${TOKEN}` })).status).toBe(404);
    expect((await get('/metrics', { Authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  it('serves a worker, which has no API listener, without a token on loopback', async () => {
    const worker = await startTestApp({ ROLE: 'worker', METRICS_PORT: '0' }, { shareDatabaseOf: app });
    try {
      expect(worker.service.url).toBe('');
      const scraped = await get('/metrics', {}, worker.service.metricsPort);
      expect(scraped.status).toBe(200);
      const samples = parse(scraped.text);
      expect(labelValues(samples, 'tributary_db_pool_max', 'pool')).toEqual(new Set(['orm', 'sync', 'jobs']));
      expect(labelValues(samples, 'tributary_job_queue_jobs', 'queue')).toContain('connection.sync');
    } finally {
      await worker.stop();
    }
  });

  it('binds to loopback by default and needs a token anywhere else', () => {
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ host: '127.0.0.1', port: 9464, token: undefined });
    expect(loadConfig({}).metrics).toBeUndefined();
    expect(() => loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toThrow(/METRICS_TOKEN is required/);
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: TOKEN }).metrics?.host).toBe('0.0.0.0');
    expect(() => loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: 'short' })).toThrow(/at least 32/);
    expect(() => loadConfig({ METRICS_TOKEN: TOKEN })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_PORT: '8443' })).toThrow(/differ from PORT/);
  });
});

describe('what the metrics count', () => {
  it('HTTP requests by method, contract route and status, never by raw path', async () => {
    const profile = await createProfile(app);
    const before = await scrape();
    const labels = { method: 'GET', route: '/v1/profiles/{profileId}', status: '200' };
    expect((await app.http.get(`/v1/profiles/${profile.id}`, { auth: app.apiKey })).status).toBe(200);
    expect((await app.http.get(`/v1/profiles/${profile.id}/`, { auth: app.apiKey })).status).toBe(200);
    expect((await app.http.get('/v1/no-such-thing/123', { auth: app.apiKey })).status).toBe(404);
    expect((await app.http.get('/v1/profiles/prof_unknown', { auth: 'Bearer not-a-key' })).status).toBe(401);
    const after = await scrape();
    const count = 'tributary_http_request_duration_seconds_count';
    expect(total(after, count, labels) - total(before, count, labels)).toBe(2);
    expect(total(after, count, { route: 'unmatched', status: '404' }) - total(before, count, { route: 'unmatched', status: '404' })).toBe(1);
    expect(total(after, count, { route: '/v1/profiles/{profileId}', status: '401' })).toBeGreaterThanOrEqual(1);
    expect(total(after, 'tributary_http_request_duration_seconds_sum', labels)).toBeGreaterThan(total(before, 'tributary_http_request_duration_seconds_sum', labels));
    for (const route of labelValues(after, count, 'route')) expect(route === 'unmatched' || route === '/v1/graphql' || route.startsWith('/')).toBe(true);
    expect([...labelValues(after, count, 'route')].some((route) => route.includes(profile.id) || route.includes('no-such-thing'))).toBe(false);
  });

  it('rate-limit refusals by whose window refused them, one per 429', async () => {
    const before = await scrape();
    // Bursts that no window refused are sent again (burstUntilRefused): they add no 429s.
    const { limited } = tally(await burstUntilRefused(40, () => app.http.get('/healthz')));
    const after = await scrape();
    const answered429 = total(after, 'tributary_http_request_duration_seconds_count', { route: '/healthz', status: '429' }) - total(before, 'tributary_http_request_duration_seconds_count', { route: '/healthz', status: '429' });
    expect(answered429).toBe(limited);
    const refusals = (samples: Sample[]) => total(samples, 'tributary_rate_limit_refusals_total', { subject: 'address' });
    expect(refusals(after) - refusals(before)).toBe(limited);
    // The address's window is spent: a new credential takes a slot of it before it is looked up.
    await nextSecond();
  });

  it('GraphQL operations by type and name with their cost, and refusals', async () => {
    const profile = await createProfile(app);
    const auth = basicAuth(profile.id, app.apiKey);
    const before = await scrape();
    expect((await graphql(auth, 'query WhoAmI { profile { id } }')).status).toBe(200);
    expect((await graphql(auth, '{ profile { id } accounts { id } }')).body.errors).toBeUndefined();
    const invalid = await graphql(auth, '{ profile { nope } }');
    expect(invalid.body.errors).toHaveLength(1);
    expect((await graphql(auth, 'query A { profile { id } } query B { profile { id } }')).body.errors).toHaveLength(1);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => total(after, name, labels) - total(before, name, labels);
    expect(moved('tributary_graphql_operations_total', { type: 'query', name: 'WhoAmI' })).toBe(1);
    expect(moved('tributary_graphql_operations_total', { type: 'query', name: 'anonymous' })).toBe(1);
    expect(moved('tributary_graphql_operation_cost_sum', { type: 'query', name: 'WhoAmI' })).toBe(1);
    expect(moved('tributary_graphql_operation_cost_sum', { type: 'query', name: 'anonymous' })).toBeGreaterThan(1);
    expect(moved('tributary_graphql_refusals_total', {})).toBe(2);
    expect(moved('tributary_http_request_duration_seconds_count', { method: 'POST', route: '/v1/graphql', status: '200' })).toBe(4);
  });

  it('credential checks by kind and by what answered them, and the ORM statements they cost', async () => {
    const profile = await createProfile(app);
    const issued = await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profile.id } });
    expect(issued.status).toBe(201);
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await graphql(`Bearer ${issued.body.token}`, '{ profile { id } }')).body.errors).toBeUndefined();
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => total(after, name, labels) - total(before, name, labels);
    const lookups = moved('tributary_credential_checks_total', { kind: 'session', answer: 'database' });
    // Answered from memory while the ended sessions vouch for it (even a token this process has not
    // seen), else looked up and then held: each check counted once, as one or the other.
    expect(lookups + moved('tributary_credential_checks_total', { kind: 'session', answer: 'memory' })).toBe(3);
    // Each lookup and each request's profile read is a statement (jobs and the relay may add more).
    expect(moved('tributary_db_statements_total', {})).toBeGreaterThanOrEqual(lookups + 3);
  });

  it('jobs, syncs and webhook attempts after a sandbox connection syncs and its events are delivered', async () => {
    for (const receiver of [succeeding, failing]) {
      const subscribed = await app.http.post('/v1/webhooks/subscriptions', { auth: app.apiKey, json: { name: 'Metrics', targetUrl: receiver.url } });
      expect(subscribed.status).toBe(201);
    }
    const before = await scrape();
    const profile = await createProfile(app);
    const created = await app.http.post('/v1/sandbox/connections', {
      auth: app.apiKey,
      json: { profileId: profile.id, institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good' },
    });
    expect(created.status).toBe(201);
    await waitFor(async () => {
      const [row] = await app.sql('select status from connection where id = $1', [decodeId('connection', created.body.id)]);
      return row.status === 'SYNCED' ? row : undefined;
    }, 'the connection to sync');
    await waitFor(async () => (succeeding.received.length > 0 && failing.received.length > 0 ? true : undefined), 'webhook attempts');
    // A job's completion is counted after its handler returns, so after the attempt it made is
    // counted: wait for both, or a scrape can land between the two.
    const completed = (samples: Sample[], queue: string) => total(samples, 'tributary_job_duration_seconds_count', { queue, outcome: 'completed' }) - total(before, 'tributary_job_duration_seconds_count', { queue, outcome: 'completed' });
    const after = await waitFor(async () => {
      const samples = await scrape();
      const counted =
        total(samples, 'tributary_webhook_attempts_total', { outcome: 'failed' }) > 0 && completed(samples, 'connection.sync') >= 1 && completed(samples, 'webhook.deliver') >= 2;
      return counted ? samples : undefined;
    }, 'the failed attempt, the sync job and both delivery jobs to be counted');
    const moved = (name: string, labels: Record<string, string> = {}) => total(after, name, labels) - total(before, name, labels);

    expect(moved('tributary_job_duration_seconds_count', { queue: 'connection.sync', outcome: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(moved('tributary_job_duration_seconds_count', { queue: 'webhook.deliver', outcome: 'completed' })).toBeGreaterThanOrEqual(2);
    expect(moved('tributary_sync_duration_seconds_count', { provider: 'sandbox', outcome: 'synced' })).toBe(1);
    expect(moved('tributary_sync_pages_total', { provider: 'sandbox' })).toBeGreaterThanOrEqual(1);
    const [{ count: stored }] = await app.sql('select count(*)::int as count from transaction where connection_id = $1', [decodeId('connection', created.body.id)]);
    expect(stored).toBeGreaterThan(0);
    expect(moved('tributary_sync_transactions_total', { provider: 'sandbox', change: 'added' })).toBe(stored);

    expect(moved('tributary_webhook_attempts_total', { outcome: 'succeeded' })).toBeGreaterThanOrEqual(1);
    expect(moved('tributary_webhook_attempts_total', { outcome: 'failed' })).toBeGreaterThanOrEqual(1);
    expect(moved('tributary_webhook_delivery_lag_seconds_count', { attempt: 'first' })).toBeGreaterThanOrEqual(2);
    expect(total(after, 'tributary_webhook_delivery_lag_seconds_sum', { attempt: 'first' })).toBeGreaterThan(0);
  });

  it('database pools and job queues, read when scraped', async () => {
    const samples = await scrape();
    expect(labelValues(samples, 'tributary_db_pool_max', 'pool')).toEqual(new Set(['orm', 'replica', 'sync', 'jobs']));
    expect(total(samples, 'tributary_db_pool_max', { pool: 'replica' })).toBe(8);
    expect(total(samples, 'tributary_db_pool_max', { pool: 'orm' })).toBe(8);
    expect(total(samples, 'tributary_db_pool_max', { pool: 'sync' })).toBe(4);
    expect(total(samples, 'tributary_db_pool_max', { pool: 'jobs' })).toBe(4);
    expect(total(samples, 'tributary_db_pool_connections', { pool: 'orm' })).toBeGreaterThan(0);
    expect(total(samples, 'tributary_db_pool_connections', { pool: 'sync' })).toBeGreaterThan(0);
    expect(labelValues(samples, 'tributary_db_pool_connections', 'state')).toEqual(new Set(['busy', 'idle']));
    expect(labelValues(samples, 'tributary_db_pool_waiting', 'pool')).toEqual(new Set(['orm', 'replica', 'sync', 'jobs']));
    const queues = labelValues(samples, 'tributary_job_queue_jobs', 'queue');
    for (const queue of ['connection.sync', 'webhook.deliver', 'profile.delete']) expect(queues).toContain(queue);
    expect(labelValues(samples, 'tributary_job_queue_jobs', 'state')).toEqual(new Set(['ready', 'deferred', 'active']));
    expect(total(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });
});

describe('the health figures, read from the database', () => {
  const HOUR = 3_600_000;

  /** An environment of its own with one sandbox connection whose first sync succeeded; its ids (public and internal). */
  async function environmentWithSyncedConnection() {
    const environment = await createEnvironmentWithKey(app);
    const profile = await createProfile(app, {}, environment.apiKey);
    const created = await app.http.post('/v1/sandbox/connections', {
      auth: environment.apiKey,
      json: { profileId: profile.id, institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good' },
    });
    expect(created.status).toBe(201);
    const connectionId = decodeId('connection', created.body.id)!;
    await waitFor(async () => ((await app.sql('select count(*)::int as n from connection_sync where connection_id = $1', [connectionId]))[0].n > 0 ? true : undefined), 'the first sync');
    return { ...environment, id: decodeId('environment', environment.environmentId)!, profileId: decodeId('profile', profile.id)!, connectionId };
  }

  /** A failed run that an earlier process (or another one) recorded, started `ago` ms ago. */
  async function recordFailedRun(where: { id: string; profileId: string; connectionId: string }, ago: number): Promise<void> {
    const startedAt = new Date(Date.now() - ago);
    await app.sql(
      `insert into connection_sync (id, profile_id, connection_id, environment_id, trigger, started_at, ended_at, outcome, status, error_message)
       values ($1, $2, $3, $4, 'SCHEDULED', $5, $5, 'FAILED', 'ERROR_PROVIDER', 'recorded by another process')`,
      [`${uuidv7Edge(startedAt.getTime(), 'first').slice(0, 14)}7000-8000-${Math.random().toString(16).slice(2, 14).padEnd(12, '0')}`, where.profileId, where.connectionId, where.id, startedAt],
    );
  }

  /** The summary's shape, rebuilt from one scrape's gauges of one environment. */
  function figuresOf(samples: Sample[], environment: string) {
    const tallies = new Map<string, Record<string, Record<string, number>>>();
    for (const sample of samples.filter((each) => each.name === 'tributary_sync_runs' && each.labels.environment === environment)) {
      const { provider, outcome, window } = sample.labels as Record<string, string>;
      const row = tallies.get(provider!) ?? { lastHour: { succeeded: 0, failed: 0, deferred: 0, cancelled: 0 }, lastDay: { succeeded: 0, failed: 0, deferred: 0, cancelled: 0 } };
      row[window === '1h' ? 'lastHour' : 'lastDay']![outcome!]! += sample.value;
      tallies.set(provider!, row);
    }
    return {
      syncs: [...tallies].sort(([a], [b]) => (a < b ? -1 : 1)).map(([provider, row]) => ({ provider, ...row })),
      webhookBacklog: { due: total(samples, 'tributary_webhook_backlog', { environment, state: 'due' }), scheduled: total(samples, 'tributary_webhook_backlog', { environment, state: 'scheduled' }) },
    };
  }

  it("count each environment's runs of the last hour and day and its webhook backlog alike in every process: the summary and /metrics agree", async () => {
    const first = await environmentWithSyncedConnection();
    const second = await environmentWithSyncedConnection();
    // Runs recorded by other processes, or before a restart: in the day but not the hour, too old, and the second environment's.
    await recordFailedRun(first, 3 * HOUR);
    await recordFailedRun(first, 25 * HOUR);
    await recordFailedRun(second, HOUR / 2);
    await recordFailedRun(second, HOUR / 2);
    // A retry owed to the first environment's receiver an hour from now.
    const subscribed = await app.http.post('/v1/webhooks/subscriptions', { auth: first.apiKey, json: { name: 'Backlog', targetUrl: failing.url, eventTypes: ['statement'] } });
    expect(subscribed.status).toBe(201);
    await app.sql(`insert into webhook_delivery (id, subscription_id, event_id, attempt, status, at) values ($1, $2, gen_random_uuid(), 2, 'PENDING', now() + interval '1 hour')`, [
      uuidv7(),
      decodeId('webhookSubscription', subscribed.body.id),
    ]);

    // Another API process on the same database, started after every run was recorded.
    const other = await startTestApp({ ROLE: 'api', METRICS_PORT: '0' }, { shareDatabaseOf: app });
    try {
      const summaryOf = async (from: TestApp, apiKey: string) => {
        const answered = await from.http.get('/v1/metrics/summary', { auth: apiKey });
        expect(answered.status).toBe(200);
        return { syncs: answered.body.syncs, webhookBacklog: answered.body.webhookBacklog };
      };
      const otherScrape = async () => parse((await get('/metrics', {}, other.service.metricsPort)).text);
      expect(await summaryOf(app, first.apiKey)).toEqual({
        syncs: [{ provider: 'sandbox', lastHour: { succeeded: 1, failed: 0, deferred: 0, cancelled: 0 }, lastDay: { succeeded: 1, failed: 1, deferred: 0, cancelled: 0 } }],
        webhookBacklog: { due: 0, scheduled: 1 },
      });
      expect(await summaryOf(other, second.apiKey)).toEqual({
        syncs: [{ provider: 'sandbox', lastHour: { succeeded: 1, failed: 2, deferred: 0, cancelled: 0 }, lastDay: { succeeded: 1, failed: 2, deferred: 0, cancelled: 0 } }],
        webhookBacklog: { due: 0, scheduled: 0 },
      });
      for (const { environmentId, apiKey } of [first, second]) {
        const expected = await summaryOf(app, apiKey);
        expect(await summaryOf(other, apiKey)).toEqual(expected);
        expect(figuresOf(await scrape(), environmentId)).toEqual(expected);
        expect(figuresOf(await otherScrape(), environmentId)).toEqual(expected);
      }
      // An instance whose clock is two hours on reads the windows and the backlog at its own time.
      const later = await startTestApp({ ROLE: 'api' }, { shareDatabaseOf: app, now: () => new Date(Date.now() + 2 * HOUR) });
      try {
        expect(await summaryOf(later, first.apiKey)).toEqual({
          syncs: [{ provider: 'sandbox', lastHour: { succeeded: 0, failed: 0, deferred: 0, cancelled: 0 }, lastDay: { succeeded: 1, failed: 1, deferred: 0, cancelled: 0 } }],
          webhookBacklog: { due: 1, scheduled: 0 },
        });
      } finally {
        await later.stop();
      }
    } finally {
      await other.stop();
    }
  });
});

describe('label values clients choose', () => {
  it('keep a bounded set: the first operation names, then "other"; unknown methods are "other"', async () => {
    const metrics = new Metrics();
    for (let i = 0; i < MAX_OPERATION_NAMES + 50; i++) metrics.graphqlOperation('query', `Op${i}`, 1);
    metrics.graphqlOperation('query', 'Op0', 1);
    metrics.graphqlOperation('query', `Long${'x'.repeat(100)}`, 1);
    metrics.httpRequest('BREW', undefined, 404, 0.001);
    const samples = parse(await metrics.scrape());
    const names = labelValues(samples, 'tributary_graphql_operations_total', 'name');
    expect(names.size).toBe(MAX_OPERATION_NAMES + 1);
    expect(names).toContain('other');
    expect(total(samples, 'tributary_graphql_operations_total', { name: 'other' })).toBe(51);
    expect(total(samples, 'tributary_graphql_operations_total', { name: 'Op0' })).toBe(2);
    expect(labelValues(samples, 'tributary_http_request_duration_seconds_count', 'method')).toEqual(new Set(['other']));
    expect(labelValues(samples, 'tributary_http_request_duration_seconds_count', 'route')).toEqual(new Set(['unmatched']));
  });
});
