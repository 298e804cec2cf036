import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { BenchDataset } from './dataset.ts';
import type { IngestResult } from './ingest.ts';
import type { LoadResult } from './load.ts';
import { WALK_PAGES } from './requests.ts';
import type { WebhookResult } from './webhooks.ts';
import type { LiveResult } from './live.ts';

export interface BenchResults {
  /** Every load run by name (`<group>.<server>`). */
  runs: Record<string, LoadResult>;
  /** Tributary's peak RSS after the 32-connection GraphQL and REST runs (the target's figure). */
  peakRssMb?: number;
  /** …and after every run on it (remoteData pages, walks, webhooks). */
  peakRssMbAllRuns?: number;
  webhooks?: WebhookResult;
  live?: LiveResult;
  ingest?: IngestResult;
}

export interface RunSettings {
  quick: boolean;
  only: string | undefined;
  dataset: BenchDataset;
  rounds: number;
  sliceSeconds: number;
  fleet: number;
}

/** Prints the runs and the ratios the targets are about, and saves every figure to bench/results/. */
export function report(results: BenchResults, settings: RunSettings): void {
  const { runs } = results;
  const ratio = (a: number | undefined, b: number | undefined) => (a && b ? `${(a / b).toFixed(2)}×` : '–');
  const rps = (name: string) => runs[name]?.requestsPerSecond;
  const p99 = (name: string) => runs[name]?.p99;
  /** Work per request, baseline over Tributary: the share of the baseline's efficiency Tributary reaches. */
  const efficiency = (tributary: string, baseline: string) => ratio(runs[baseline]?.cpuMsPerRequest, runs[tributary]?.cpuMsPerRequest);
  /** Heap allocated, and promoted into the old generation, per request by Tributary and by the baseline, in KB. */
  const heap = (tributary: string, baseline: string) =>
    `heap ${runs[tributary]?.allocatedKbPerRequest ?? '–'} vs ${runs[baseline]?.allocatedKbPerRequest ?? '–'} KB/req, promoted ${runs[tributary]?.promotedKbPerRequest ?? '–'} vs ${runs[baseline]?.promotedKbPerRequest ?? '–'}`;
  const share = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(0)} %` : '–');
  const cache = (name: string) => {
    const run = runs[`credentialCache.${name}`];
    const counters = run?.counters;
    if (!run || !counters) return '–';
    const checks = counters.sessionsFromMemory! + counters.sessionsFromDatabase!;
    return `${share(counters.sessionsFromMemory!, checks)} of session checks from memory, ${(counters.statements! / run.requests).toFixed(2)} ORM statements a request`;
  };
  const { webhooks, ingest, live } = results;
  const lines = [
    `Tributary benchmark — ${new Date().toISOString()} — ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    `Dataset: ${settings.dataset.profiles.toLocaleString('en-US')} profiles, ${settings.dataset.transactions.toLocaleString('en-US')} transactions${settings.dataset.reused ? ' (reused)' : ''}; ` +
      `compared runs interleaved, ${settings.rounds} × ${settings.sliceSeconds} s each${settings.quick ? ' (--quick)' : ''}${settings.only ? `; only ${settings.only}` : ''}`,
    '',
    '| Run | req/s | p50 ms | p99 ms | server CPU ms/req | server heap KB/req | promoted KB/req | full GCs per 1,000 req | failures |',
    '|---|---|---|---|---|---|---|---|---|',
    ...Object.entries(runs).map(
      ([name, run]) =>
        `| ${name} | ${run.requestsPerSecond} | ${run.p50} | ${run.p99} | ${run.cpuMsPerRequest ?? '–'} | ${run.allocatedKbPerRequest ?? '–'} | ${run.promotedKbPerRequest ?? '–'} | ${run.fullCollectionsPerThousand ?? '–'} | ${run.failures} |`,
    ),
    '',
    '| Ratio | Value | Target |',
    '|---|---|---|',
    `| GraphQL page, Tributary / baseline (32 conn.) | ${ratio(rps('graphql.page.c32.tributary'), rps('graphql.page.c32.baseline'))} (CPU per request: ${efficiency('graphql.page.c32.tributary', 'graphql.page.c32.baseline')}; ${heap('graphql.page.c32.tributary', 'graphql.page.c32.baseline')}) | ≥ 0.65× |`,
    `| GraphQL page, Tributary / PostGraphile (32 conn.) | ${ratio(rps('graphql.page.c32.tributary'), rps('graphql.page.c32.postgraphile'))} | ≥ 1.2× |`,
    `| GraphQL page p99, Tributary / baseline (32 conn.) | ${ratio(p99('graphql.page.c32.tributary'), p99('graphql.page.c32.baseline'))} (${p99('graphql.page.c32.tributary') ?? '–'} vs ${p99('graphql.page.c32.baseline') ?? '–'} ms) | ≤ 1.5× |`,
    `| GraphQL page, Tributary / baseline (1 conn.) | ${ratio(rps('graphql.page.c1.tributary'), rps('graphql.page.c1.baseline'))} | |`,
    `| GraphQL page with remoteData, Tributary / baseline | ${ratio(rps('graphql.remoteData.tributary'), rps('graphql.remoteData.baseline'))} (CPU per request: ${efficiency('graphql.remoteData.tributary', 'graphql.remoteData.baseline')}) | |`,
    `| GraphQL page with remoteData, Tributary / PostGraphile | ${ratio(rps('graphql.remoteData.tributary'), rps('graphql.remoteData.postgraphile'))} | |`,
    `| Walk of ${WALK_PAGES} pages by cursor, Tributary / baseline (pages/s) | ${ratio(rps('graphql.walk.tributary'), rps('graphql.walk.baseline'))} (CPU per request: ${efficiency('graphql.walk.tributary', 'graphql.walk.baseline')}) | |`,
    `| REST GET /v1/profiles/{id}, Tributary / baseline | ${ratio(rps('rest.tributary'), rps('rest.baseline'))} (CPU per request: ${efficiency('rest.tributary', 'rest.baseline')}; ${heap('rest.tributary', 'rest.baseline')}) | ≥ 0.60× |`,
    `| Auth + rate limit (API key / anonymous on /healthz) | ${ratio(rps('auth.apiKey'), rps('auth.anonymous'))} | |`,
    `| Session tokens, one instance's traffic | ${cache('oneInstance')} | |`,
    `| Session tokens, one instance's share of ${settings.fleet} instances' traffic (${settings.fleet}× the tokens) | ${cache('hundredInstances')}; req/s ${ratio(rps('credentialCache.hundredInstances'), rps('credentialCache.oneInstance'))} of one instance's | ≥ 90 % from memory (fleet) |`,
    webhooks
      ? `| Webhook delivery (${webhooks.subscriptions} subscriptions, ${webhooks.events} events in ${webhooks.rounds} alternating rounds), outbox to receiver | ${webhooks.tributaryPerSecond}/s; bare signed POST loop ${webhooks.baselinePerSecond}/s (${ratio(webhooks.tributaryPerSecond, webhooks.baselinePerSecond)}) | ≥ 0.80× |`
      : '| Webhook delivery | – | |',
    live
      ? `| Live updates: idle graphql-ws subscribers one process holds within ${live.rssTargetMb} MB; commit to delivery at that load (${live.events} events) | ${live.subscribers.toLocaleString('en-US')} (RSS ${live.idleRssMb} → ${live.rssMb} MB); p50 ${live.p50Ms} ms, p99 ${live.p99Ms} ms | |`
      : '| Live updates | – | |',
    ingest
      ? `| Sync ingest (${ingest.transactions.toLocaleString('en-US')} transactions) | ${ingest.syncPerSecond.toLocaleString('en-US')}/s; COPY ${ingest.copyPerSecond.toLocaleString('en-US')}/s (${ratio(ingest.syncPerSecond, ingest.copyPerSecond)}); enrichment ${ingest.enrichMicros} µs a transaction, ${(ingest.enrichShare * 100).toFixed(0)} % of the sync; CPU µs a transaction (this process + database): sync ${ingest.cpuMicros.sync} + ${ingest.cpuMicros.syncDatabase}, COPY ${ingest.cpuMicros.copy} + ${ingest.cpuMicros.copyDatabase} | ≥ 0.50× COPY |`
      : '| Sync ingest | – | ≥ 0.50× COPY |',
    `| Tributary peak RSS, 32-connection GraphQL and REST load | ${results.peakRssMb ?? '–'} MB | ≤ 250 MB |`,
    `| Tributary peak RSS after every run | ${results.peakRssMbAllRuns ?? '–'} MB | |`,
  ];
  console.log(`\n${lines.join('\n')}`);
  mkdirSync('bench/results', { recursive: true });
  const at = new Date().toISOString();
  const file = `bench/results/${at.slice(0, 19).replaceAll(':', '-')}${settings.quick ? '-quick' : ''}${settings.only ? '-partial' : ''}.json`;
  const machine = { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
  const { profiles, transactions } = settings.dataset;
  writeFileSync(file, `${JSON.stringify({ at, quick: settings.quick, only: settings.only ?? null, machine, dataset: { profiles, transactions }, slices: { rounds: settings.rounds, seconds: settings.sliceSeconds }, results }, null, 2)}\n`);
  console.log(`\nSaved ${file}`);
}
