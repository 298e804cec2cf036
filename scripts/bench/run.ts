/**
 * `npm run bench [-- --quick]`: Tributary against the practical limit of its stack (a bare
 * node:https + pg server running the same SQL and answering the same JSON) and against PostGraphile v5
 * over the same tables, all measured in this one run on this machine, loopback only. Load comes from
 * this process (autocannon); each server is a child process; runs that are compared are measured in
 * interleaved slices. Prints a table and writes bench/results/<time>.json.
 *
 * `npm run bench -- --scale [--sizes 1000000,10000000] [--keep]` measures instead how the hot paths
 * cost at each size of the data (scale.ts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { components } from '../../generated/rest.ts';
import { loadConfig } from '../../src/config.ts';
import { ormConfig } from '../../src/orm/orm.ts';
import { loadTls } from '../../src/http/tls.ts';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { EnvironmentAdmin } from '../../src/modules/environment/environment.service.ts';
import { readBootstrapFile } from '../../src/modules/environment/bootstrap.ts';
import { loadSecrets } from '../../src/secrets.ts';
import { credentialCounters, mintSessions } from './credential-cache.ts';
import { benchDataset } from './dataset.ts';
import { measureIngest } from './ingest.ts';
import { fetchJson, interleaved, peakRssMb, repeat, startServer, stopServer, type Run } from './load.ts';
import { report, type BenchResults } from './report.ts';
import { benchRequests, type BenchSession } from './requests.ts';
import { measureWebhooks } from './webhooks.ts';
import { measureLive } from './live.ts';
import { scaleBench } from './scale.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    scale: { type: 'boolean', default: false },
    sizes: { type: 'string', default: '1000000,10000000' },
    keep: { type: 'boolean', default: false },
  },
});
const quick = values.quick!;
/** `--only graphql.page,rest` runs just the groups starting with one of these (for profiling with BENCH_CPU_PROF=1). */
const selected = (name: string) => !values.only || values.only.split(',').some((prefix) => name.startsWith(prefix));
const SLICES = quick ? { rounds: 2, sliceSeconds: 2 } : { rounds: 5, sliceSeconds: 2 };
/** Tokens an instance of a 100-instance fleet sees for every token a lone instance would. */
const FLEET = 100;
/** BENCH_PORT_BASE moves every port, so that two checkouts on one machine can run the bench at once. */
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 18443);
const PORTS = { tributary: PORT_BASE, baseline: PORT_BASE + 1, postgraphile: PORT_BASE + 2, cacheTributary: PORT_BASE + 3, cacheMetrics: PORT_BASE + 4, liveTributary: PORT_BASE + 5 };
/** The memory target of one process (report.ts's peak RSS row). */
const RSS_TARGET_MB = 250;
const url = (server: keyof typeof PORTS) => `https://localhost:${PORTS[server]}`;
if (values.scale) {
  await scaleBench({ sizes: values.sizes!.split(',').map(Number), keep: values.keep!, port: PORT_BASE + 6 });
  process.exit(0);
}
const since = new Date(Date.now() - 45 * 86_400_000).toISOString().slice(0, 10);

const dataset = await benchDataset(quick ? 'quick' : 'full');
const config = loadConfig({ DATA_DIR: dataset.dataDir, NODE_ENV: 'development' });
const tls = await loadTls(config);
const ca = readFileSync(tls.selfSignedPath!, 'utf8');
const cert = { BENCH_CERT: tls.selfSignedPath!, BENCH_KEY: tls.selfSignedPath!.replace(/\.crt$/, '.key') };
const secrets = loadSecrets(config);
const db = new pg.Client({ connectionString: dataset.url });
await db.connect();
await db.query(`create schema if not exists bench_postgraphile`);
await db.query(`create or replace function bench_postgraphile.profile_debits(profile uuid, since date) returns setof public.transaction language sql stable as
  $$ select * from public.transaction where profile_id = profile and date >= since and amount < 0 order by date desc, id desc $$`);
const profiles = (await db.query<{ id: string }>('select id from profile order by random() limit 300')).rows.map((row) => row.id);
// Earlier runs' tokens would count toward the 10-per-hour issuing limit: this database is the bench's own.
await db.query('update session set revoked_at = now() where revoked_at is null');
const environmentPublicId = readBootstrapFile(`${dataset.dataDir}/bootstrap.json`)!.environmentId;
const environmentId = decodeId('environment', environmentPublicId)!;

// Many API keys: each credential may make 100 requests a second, and the load exceeds that (20,000
// /healthz requests a second with an API key met 429s with 200 keys).
const orm = await MikroORM.init(ormConfig(dataset.url, { poolMax: 2 }));
const apiKeys: string[] = [];
for (let i = 0; i < 500; i++) apiKeys.push((await new EnvironmentAdmin(orm.em.fork()).createKey(environmentPublicId, `bench ${i}`)).secret);

const tributaryEnv = { DATABASE_URL: dataset.url, DATA_DIR: dataset.dataDir, TRUST_PROXY: 'true', LOG_LEVEL: 'warn', NODE_ENV: 'development', WEBHOOK_CA_FILE: tls.selfSignedPath! };
const startTributary = (port: number, env: Record<string, string> = {}) =>
  // As production runs it: the compiled service through its launcher, with the launcher's V8 settings.
  startServer(['sh', 'scripts/start.sh'], { ...tributaryEnv, PORT: String(port), ...env }, { url: `https://localhost:${port}`, ca });
const children = [];
const results: BenchResults = { runs: {} };
try {
  execFileSync(process.execPath, ['scripts/build.ts', '--if-stale'], { stdio: 'inherit' });
  const tributary = await startTributary(PORTS.tributary);
  const baseline = await startServer([process.execPath, 'scripts/bench/baseline-server.ts'], { BENCH_DATABASE_URL: dataset.url, BENCH_PORT: String(PORTS.baseline), ...cert }, { ipc: true });
  const postgraphile = await startServer([process.execPath, 'scripts/bench/postgraphile-server.ts'], { BENCH_DATABASE_URL: dataset.url, BENCH_PORT: String(PORTS.postgraphile), GRAPHILE_ENV: 'production', ...cert }, { ipc: true });
  children.push(tributary, baseline, postgraphile);
  const pid = { tributary: tributary.pid!, baseline: baseline.pid!, postgraphile: postgraphile.pid! };

  const sessions: BenchSession[] = [];
  for (const [index, profile] of profiles.entries()) {
    const response = await fetchJson<components['schemas']['SessionIssued']>(url('tributary'), ca, {
      method: 'POST',
      path: '/v1/users/sessions',
      headers: { Authorization: `Bearer ${apiKeys[index % apiKeys.length]}`, 'Content-Type': 'application/json', 'X-Forwarded-For': `10.1.${index % 250}.1` },
      body: JSON.stringify({ userId: encodeId('profile', profile) }),
    });
    if (response.status !== 201) throw new Error(`session for ${profile}: ${response.status} ${response.text}`);
    sessions.push({ token: response.body.token, profile });
  }
  const { scenarios, checkAnswers, page } = benchRequests({ sessions, apiKeys, environmentId, since });
  await checkAnswers(url, ca);

  const compare = async (group: string, runs: Run[]) => {
    if (selected(group)) Object.assign(results.runs, await interleaved(runs.map((run) => ({ ...run, name: `${group}.${run.name}` })), ca, SLICES));
  };
  const servers = ['baseline', 'tributary', 'postgraphile'] as const;
  for (const connections of [1, 32]) {
    await compare(`graphql.page.c${connections}`, servers.map((server) => ({ name: server, url: url(server), pid: pid[server], connections, script: scenarios.page[server] })));
  }
  await compare('rest', (['baseline', 'tributary'] as const).map((server) => ({ name: server, url: url(server), pid: pid[server], connections: 32, script: scenarios.rest[server] })));
  await compare('auth', [
    { name: 'anonymous', url: url('tributary'), pid: pid.tributary, connections: 32, script: scenarios.healthAnonymous },
    { name: 'apiKey', url: url('tributary'), pid: pid.tributary, connections: 32, script: scenarios.healthApiKey },
  ]);
  // The figure the target is about: the 32-connection GraphQL and REST load above.
  results.peakRssMb = await peakRssMb(pid.tributary);

  await compare('graphql.remoteData', servers.map((server) => ({ name: server, url: url(server), pid: pid[server], connections: 32, script: scenarios.remoteDataPage[server] })));
  await compare('graphql.walk', (['baseline', 'tributary'] as const).map((server) => ({ name: server, url: url(server), pid: pid[server], connections: 32, script: scenarios.walk[server] })));
  if (selected('webhooks')) {
    const events = quick ? 640 : 3200;
    results.webhooks = await measureWebhooks({ orm, db, tributaryUrl: url('tributary'), ca, certFile: cert.BENCH_CERT, keyFile: cert.BENCH_KEY, subscriptions: 32, events });
  }
  results.peakRssMbAllRuns = await peakRssMb(pid.tributary);

  if (selected('credentialCache')) {
    // A fresh instance with /metrics, whose counters tell how each session check was answered.
    const instance = await startTributary(PORTS.cacheTributary, { METRICS_PORT: String(PORTS.cacheMetrics) });
    children.push(instance);
    const fleet = await mintSessions(db, secrets.sessionKeys, environmentId, profiles, sessions.length * FLEET);
    try {
      const pool = (tokens: BenchSession[]) => repeat(() => page(false, tokens[Math.floor(Math.random() * tokens.length)]!));
      const counters = () => credentialCounters(PORTS.cacheMetrics);
      await compare('credentialCache', [
        { name: 'oneInstance', url: url('cacheTributary'), pid: instance.pid!, connections: 32, script: pool(sessions), counters },
        { name: 'hundredInstances', url: url('cacheTributary'), pid: instance.pid!, connections: 32, script: pool(fleet.sessions), counters },
      ]);
    } finally {
      await fleet.discard();
    }
  }

  if (selected('live')) {
    // A fresh instance: its memory is the subscribers' alone.
    const instance = await startTributary(PORTS.liveTributary);
    children.push(instance);
    results.live = await measureLive({
      orm,
      url: url('liveTributary'),
      pid: instance.pid!,
      ca,
      environmentId,
      profiles,
      apiKey: apiKeys[0]!,
      step: 250,
      max: quick ? 2000 : 15_000,
      rssTargetMb: RSS_TARGET_MB,
      events: quick ? 50 : 200,
    });
  }

  if (selected('ingest')) {
    // Measured with no server left running: the sync runs in this process, and the servers' job
    // workers, schedulers and collectors would take turns on the two cores with it and with COPY.
    await Promise.all(children.splice(0).map(stopServer));
    results.ingest = await measureIngest(dataset.url, secrets.cipher, profiles[0]!, environmentId, quick ? 20_000 : 100_000);
  }
} finally {
  await Promise.all(children.map(stopServer));
  await orm.close();
  await db.end();
  await dataset.stop();
}
report(results, { quick, only: values.only, dataset, sliceSeconds: SLICES.sliceSeconds, rounds: SLICES.rounds, fleet: FLEET });
