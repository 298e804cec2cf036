/**
 * `npm run bench [-- --quick]`: Tributary against the practical limit of its stack (a bare
 * node:https + pg server running the same SQL) and against PostGraphile v5 over the same tables, all
 * measured in this one run on this machine, loopback only. Load comes from this process (autocannon);
 * each server is a child process. Prints a table and writes bench/results/<date>.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { ormConfig } from '../../src/db/orm.ts';
import { loadTls } from '../../src/http/tls.ts';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { EnvironmentAdmin } from '../../src/modules/environment/environment.service.ts';
import { readBootstrapFile } from '../../src/modules/environment/bootstrap.ts';
import { loadSecrets } from '../../src/secrets.ts';
import { benchDataset } from './dataset.ts';
import { measureIngest } from './ingest.ts';
import { fetchJson, load, peakRssMb, startServer, stopServer, type LoadRequest, type LoadResult } from './load.ts';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } } });
const quick = values.quick!;
/** `--only graphql.tributary` runs just the matching runs (for profiling with BENCH_CPU_PROF=1). */
const selected = (name: string) => !values.only || name.startsWith(values.only);
const SECONDS = quick ? 3 : 10;
const PORTS = { tributary: 18443, baseline: 18444, postgraphile: 18445 };
const since = new Date(Date.now() - 45 * 86_400_000).toISOString().slice(0, 10);
const QUERY = `query Page($since: Date!) { transactions(first: 100, sort: DATE_DESC, filter: {date_gte: $since, entryType: DEBIT}) {
  edges { node { id date amount description account { id name kind } } } } }`;
const PEER_QUERY = `query Page($profile: UUID!, $since: Date!) { benchPostgraphileProfileDebits(profile: $profile, since: $since, first: 100) {
  edges { node { rowId date amount description accountByAccountId { rowId name kind } } } } }`;

const dataset = await benchDataset(quick ? 'quick' : 'full');
const config = loadConfig({ DATA_DIR: dataset.dataDir, NODE_ENV: 'development' });
const tls = await loadTls(config);
const ca = readFileSync(tls.selfSignedPath!, 'utf8');
const cert = { BENCH_CERT: tls.selfSignedPath!, BENCH_KEY: tls.selfSignedPath!.replace(/\.crt$/, '.key') };
const db = new pg.Client({ connectionString: dataset.url });
await db.connect();
await db.query(`create schema if not exists bench_postgraphile`);
await db.query(`create or replace function bench_postgraphile.profile_debits(profile uuid, since date) returns setof public.transaction language sql stable as
  $$ select * from public.transaction where profile_id = profile and date >= since and amount < 0 order by date desc, id desc $$`);
const profiles = (await db.query<{ id: string }>('select id from profile order by random() limit 300')).rows.map((row) => row.id);
// Earlier runs' tokens would count toward the 10-per-hour issuing limit: this database is the bench's own.
await db.query('update session set revoked_at = now() where revoked_at is null');
const environmentId = readBootstrapFile(`${dataset.dataDir}/bootstrap.json`)!.environmentId;

// Many API keys: each credential may make 100 requests a second, and the load exceeds that.
const orm = await MikroORM.init(ormConfig(dataset.url, { poolMax: 2 }));
const apiKeys: string[] = [];
for (let i = 0; i < 200; i++) apiKeys.push((await new EnvironmentAdmin(orm.em.fork()).createKey(environmentId, `bench ${i}`)).secret);
await orm.close();

const children = [];
const results: Record<string, LoadResult | number | Record<string, number>> = {};
try {
  const tributary = await startServer(
    'src/main.ts',
    { DATABASE_URL: dataset.url, DATA_DIR: dataset.dataDir, PORT: String(PORTS.tributary), TRUST_PROXY: 'true', LOG_LEVEL: 'warn', NODE_ENV: 'development' },
    { url: `https://localhost:${PORTS.tributary}`, ca },
  );
  children.push(tributary);
  const baseline = await startServer('scripts/bench/baseline-server.ts', { BENCH_DATABASE_URL: dataset.url, BENCH_PORT: String(PORTS.baseline), ...cert }, { ipc: true });
  children.push(baseline);
  const postgraphile = await startServer('scripts/bench/postgraphile-server.ts', { BENCH_DATABASE_URL: dataset.url, BENCH_PORT: String(PORTS.postgraphile), GRAPHILE_ENV: 'production', ...cert }, { ipc: true });
  children.push(postgraphile);

  const url = (server: keyof typeof PORTS) => `https://localhost:${PORTS[server]}`;
  const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;
  // Behind TRUST_PROXY, X-Forwarded-For spreads anonymous requests over many client addresses.
  const forwarded = () => ({ 'X-Forwarded-For': `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.1` });
  const sessions: string[] = [];
  for (const profile of profiles) {
    const response = await fetchJson<{ token: string }>(url('tributary'), ca, {
      method: 'POST',
      path: '/v1/users/sessions',
      headers: { Authorization: `Bearer ${pick(apiKeys)}`, 'Content-Type': 'application/json', ...forwarded() },
      body: JSON.stringify({ userId: encodeId('profile', profile) }),
    });
    if (response.status !== 201) throw new Error(`session for ${profile}: ${response.status} ${JSON.stringify(response.body)}`);
    sessions.push(response.body.token);
  }
  const sessionProfile = new Map(sessions.map((token, index) => [token, profiles[index]!]));

  const requests: Record<'tributary' | 'baseline' | 'postgraphile', () => LoadRequest> = {
    tributary: () => ({
      method: 'POST',
      path: '/v1/graphql',
      headers: { Authorization: `Bearer ${pick(sessions)}`, 'Content-Type': 'application/json', ...forwarded() },
      body: JSON.stringify({ query: QUERY, variables: { since } }),
    }),
    baseline: () => ({ method: 'POST', path: '/transactions', headers: { 'X-Profile-Id': pick(profiles), 'Content-Type': 'application/json' }, body: JSON.stringify({ since }) }),
    postgraphile: () => ({
      method: 'POST',
      path: '/graphql',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: PEER_QUERY, variables: { profile: pick(profiles), since } }),
    }),
  };
  await checkSameAnswers(url, requests, sessions[0]!, sessionProfile.get(sessions[0]!)!);

  const measure = async (name: string, server: keyof typeof PORTS, connections: number, next: () => LoadRequest) => {
    if (!selected(name)) return;
    await load(url(server), ca, 8, 2, next); // warm-up: JIT, pools, caches
    results[name] = await load(url(server), ca, connections, SECONDS, next);
    console.log(name, results[name]);
  };
  for (const server of ['baseline', 'tributary', 'postgraphile'] as const) {
    for (const connections of [1, 32]) await measure(`graphql.${server}.c${connections}`, server, connections, requests[server]);
  }

  const rest = {
    tributary: () => ({ method: 'GET' as const, path: `/v1/profiles/${encodeId('profile', pick(profiles))}`, headers: { Authorization: `Bearer ${pick(apiKeys)}`, ...forwarded() } }),
    baseline: () => ({ method: 'GET' as const, path: `/profiles/${pick(profiles)}`, headers: {} }),
  };
  for (const server of ['baseline', 'tributary'] as const) await measure(`rest.${server}`, server, 32, rest[server]);
  const health = (authorized: boolean) => () => ({
    method: 'GET' as const,
    path: '/healthz',
    headers: { ...(authorized ? { Authorization: `Bearer ${pick(apiKeys)}` } : {}), ...forwarded() },
  });
  await measure('auth.anonymous', 'tributary', 32, health(false));
  await measure('auth.apiKey', 'tributary', 32, health(true));
  results.peakRssMb = await peakRssMb(tributary.pid!);

  const { cipher } = loadSecrets(config);
  if (selected('ingest')) results.ingest = { ...(await measureIngest(dataset.url, cipher, profiles[0]!, decodeId('environment', environmentId)!, quick ? 20_000 : 100_000)) };
} finally {
  await Promise.all(children.map(stopServer));
  await db.end();
  await dataset.stop();
}
report();

/** The same profile's page from all three servers must hold the same transactions, or the comparison means nothing. */
async function checkSameAnswers(url: (server: keyof typeof PORTS) => string, requests: Record<string, () => LoadRequest>, token: string, profile: string) {
  const ids = async (server: 'tributary' | 'baseline' | 'postgraphile', request: LoadRequest) => {
    type Edges = { edges: Array<{ node: { id?: string; rowId?: string } }> };
    const { status, body } = await fetchJson<{ errors?: unknown; data: { transactions?: Edges; benchPostgraphileProfileDebits: Edges } }>(url(server), ca, request);
    if (status !== 200 || body.errors) throw new Error(`${server} answered ${status}: ${JSON.stringify(body).slice(0, 500)}`);
    const { edges } = body.data.transactions ?? body.data.benchPostgraphileProfileDebits;
    return edges.map(({ node }) => node.rowId ?? (node.id!.startsWith('txn_') ? decodeId('transaction', node.id!) : node.id));
  };
  const baselineIds = await ids('baseline', { ...requests.baseline!(), headers: { 'X-Profile-Id': profile } });
  const peerIds = await ids('postgraphile', { ...requests.postgraphile!(), body: JSON.stringify({ query: PEER_QUERY, variables: { profile, since } }) });
  const tributaryIds = await ids('tributary', { ...requests.tributary!(), headers: { ...requests.tributary!().headers, Authorization: `Bearer ${token}` } });
  if (baselineIds.length === 0 || JSON.stringify(tributaryIds) !== JSON.stringify(baselineIds) || JSON.stringify(peerIds) !== JSON.stringify(baselineIds)) {
    throw new Error(`the servers disagree on profile ${profile}'s page: ${tributaryIds.length}/${baselineIds.length}/${peerIds.length} transactions`);
  }
}

function report() {
  const r = results as Record<string, LoadResult | undefined> & { peakRssMb: number; ingest?: { transactions: number; syncPerSecond: number; copyPerSecond: number } };
  const ratio = (a: number | undefined, b: number | undefined) => (a && b ? `${(a / b).toFixed(2)}×` : '–');
  const row = (label: string, result: LoadResult | undefined) => (result ? `| ${label} | ${result.requestsPerSecond} | ${result.p50} | ${result.p99} | ${result.failures} |` : `| ${label} | – | – | – | – |`);
  const lines = [
    `Tributary benchmark — ${new Date().toISOString()} — ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    `Dataset: ${dataset.profiles.toLocaleString('en-US')} profiles, ${dataset.transactions.toLocaleString('en-US')} transactions${dataset.reused ? ' (reused)' : ''}; ${SECONDS} s per run${quick ? ' (--quick)' : ''}`,
    '',
    '| Run | req/s | p50 ms | p99 ms | failures |',
    '|---|---|---|---|---|',
    ...(['c1', 'c32'] as const).flatMap((c) => (['tributary', 'baseline', 'postgraphile'] as const).map((s) => row(`GraphQL transactions page, ${s}, ${c.slice(1)} conn.`, r[`graphql.${s}.${c}`]))),
    row('REST GET /v1/profiles/{id}, tributary, 32 conn.', r['rest.tributary']),
    row('REST GET /profiles/{id}, baseline, 32 conn.', r['rest.baseline']),
    row('GET /healthz anonymous, 32 conn.', r['auth.anonymous']),
    row('GET /healthz with API key, 32 conn.', r['auth.apiKey']),
    '',
    '| Ratio | Value | Target |',
    '|---|---|---|',
    `| GraphQL Tributary / baseline (32 conn.) | ${ratio(r['graphql.tributary.c32']?.requestsPerSecond, r['graphql.baseline.c32']?.requestsPerSecond)} | ≥ 0.60× |`,
    `| GraphQL Tributary / PostGraphile (32 conn.) | ${ratio(r['graphql.tributary.c32']?.requestsPerSecond, r['graphql.postgraphile.c32']?.requestsPerSecond)} | ≥ 1.5× |`,
    `| GraphQL Tributary p99 (32 conn.) | ${r['graphql.tributary.c32']?.p99 ?? '–'} ms | ≤ 25 ms |`,
    `| REST Tributary / baseline | ${ratio(r['rest.tributary']?.requestsPerSecond, r['rest.baseline']?.requestsPerSecond)} | ≥ 0.70× |`,
    `| Auth + rate limit (API key / anonymous on /healthz) | ${ratio(r['auth.apiKey']?.requestsPerSecond, r['auth.anonymous']?.requestsPerSecond)} | |`,
    r.ingest
      ? `| Sync ingest (${r.ingest.transactions.toLocaleString('en-US')} transactions) | ${r.ingest.syncPerSecond.toLocaleString('en-US')}/s; COPY ${r.ingest.copyPerSecond.toLocaleString('en-US')}/s (${ratio(r.ingest.syncPerSecond, r.ingest.copyPerSecond)}) | ≥ 50,000/s |`
      : '| Sync ingest | – | ≥ 50,000/s |',
    `| Tributary peak RSS under this load | ${r.peakRssMb} MB | ≤ 250 MB |`,
  ];
  console.log(`\n${lines.join('\n')}`);
  if (values.only) return; // a partial run (for profiling) is not a result
  mkdirSync('bench/results', { recursive: true });
  const file = `bench/results/${new Date().toISOString().slice(0, 10)}${quick ? '-quick' : ''}.json`;
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), quick, machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version }, dataset: { profiles: dataset.profiles, transactions: dataset.transactions }, results }, null, 2)}\n`);
  console.log(`\nSaved ${file}`);
}
