import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { stripTypeScriptTypes } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds: over one load, or the median of the slices' figures over interleaved slices. */
  p50: number;
  p99: number;
  requests: number;
  failures: number;
  /** CPU time the server process (all its threads) spent per request, in ms: less sensitive to other load on the machine than req/s. */
  cpuMsPerRequest?: number;
  /** KB the server's JavaScript heap allocated per request (heap-probe.ts): what its garbage collector has to clear. */
  allocatedKbPerRequest?: number;
  /** KB per request that scavenges moved into the old generation: what its full collections have to clear. */
  promotedKbPerRequest?: number;
  /** The old generation's full collections (mark-compacts) per 1,000 requests. */
  fullCollectionsPerThousand?: number;
  /** Increases of the run's counters over its slices (see Run.counters). */
  counters?: Record<string, number>;
}

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What each connection sends: autocannon's request steps, walked from the first again and again. */
export type Script = autocannon.Request[];

/** One request, made anew by `next()` each time. */
export function repeat(next: () => LoadRequest): Script {
  return [{ setupRequest: (req) => ({ ...req, ...next() }) as autocannon.Request }];
}

/**
 * `steps` requests in a row on one connection, each made from what the previous answers left in
 * the connection's `context` (`read` takes it from a response body), then the walk starts over.
 */
export function walk<C extends object>(steps: number, step: (context: Partial<C>) => LoadRequest, read: (body: string, context: Partial<C>) => void): Script {
  return Array.from({ length: steps }, () => ({
    setupRequest: (req: autocannon.Request, context: object) => ({ ...req, ...step(context as Partial<C>) }) as autocannon.Request,
    onResponse: (_status: number, body: string, context: object) => read(body, context as Partial<C>),
  }));
}

/** Drives `url` with `connections` concurrent keep-alive connections for `seconds`. */
export async function load(url: string, ca: string, connections: number, seconds: number, script: Script): Promise<LoadResult & { seconds: number }> {
  const result = await autocannon({ url, connections, duration: seconds, tlsOptions: { ca }, requests: script });
  return {
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    seconds: result.duration,
  };
}

export interface Run {
  name: string;
  url: string;
  connections: number;
  script: Script;
  /** The server's process, whose CPU time is read before and after each slice. */
  pid: number;
  /** Counters read before and after each slice (e.g. from /metrics); the result sums their increases. */
  counters?: () => Promise<Record<string, number>>;
}

/**
 * Runs that are compared with each other, measured in turns: after a warm-up of each (JIT, pools,
 * caches), `rounds` slices of `sliceSeconds` each, run after run. On cores shared with other work,
 * a change of load then shifts every run alike and the ratios between them hold. req/s is all
 * requests over all the time; p50 and p99 are the medians of the slices' figures; CPU per request
 * is the server's CPU time over the slices divided by their requests.
 */
export async function interleaved(runs: Run[], ca: string, options: { rounds: number; sliceSeconds: number }): Promise<Record<string, LoadResult>> {
  for (const run of runs) await load(run.url, ca, 8, 2, run.script);
  const slices = new Map<string, Array<LoadResult & { seconds: number }>>(runs.map((run) => [run.name, []]));
  const counted = new Map<string, Record<string, number>>();
  const cpuMs = new Map<string, number>();
  const heap = new Map<string, HeapReading>();
  for (let round = 0; round < options.rounds; round++) {
    for (const run of runs) {
      const before = await run.counters?.();
      const cpuBefore = await processCpuMs(run.pid);
      const heapBefore = await heapReading(run.pid);
      slices.get(run.name)!.push(await load(run.url, ca, run.connections, options.sliceSeconds, run.script));
      cpuMs.set(run.name, (cpuMs.get(run.name) ?? 0) + (await processCpuMs(run.pid)) - cpuBefore);
      const heapAfter = await heapReading(run.pid);
      const sum = heap.get(run.name);
      heap.set(run.name, {
        allocated: (sum?.allocated ?? 0) + heapAfter.allocated - heapBefore.allocated,
        promoted: (sum?.promoted ?? 0) + heapAfter.promoted - heapBefore.promoted,
        fullCollections: (sum?.fullCollections ?? 0) + heapAfter.fullCollections - heapBefore.fullCollections,
      });
      const after = await run.counters?.();
      if (before && after) {
        const sums = counted.get(run.name) ?? {};
        for (const [name, value] of Object.entries(after)) sums[name] = (sums[name] ?? 0) + value - (before[name] ?? 0);
        counted.set(run.name, sums);
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return Object.fromEntries(
    runs.map((run) => {
      const parts = slices.get(run.name)!;
      const requests = parts.reduce((sum, part) => sum + part.requests, 0);
      const seconds = parts.reduce((sum, part) => sum + part.seconds, 0);
      const result: LoadResult = {
        requestsPerSecond: Math.round(requests / seconds),
        p50: median(parts.map((part) => part.p50)),
        p99: median(parts.map((part) => part.p99)),
        requests,
        failures: parts.reduce((sum, part) => sum + part.failures, 0),
        cpuMsPerRequest: Number((cpuMs.get(run.name)! / requests).toFixed(3)),
        allocatedKbPerRequest: Math.round(heap.get(run.name)!.allocated / 1024 / requests),
        promotedKbPerRequest: Number((heap.get(run.name)!.promoted / 1024 / requests).toFixed(1)),
        fullCollectionsPerThousand: Number(((heap.get(run.name)!.fullCollections * 1000) / requests).toFixed(1)),
        ...(counted.has(run.name) ? { counters: counted.get(run.name) } : {}),
      };
      console.log(run.name, JSON.stringify(result));
      return [run.name, result];
    }),
  );
}

/**
 * One HTTPS request, for setup and correctness checks before the load. `Body` is what the caller
 * expects a JSON answer to hold; it is not checked (the body is undefined when the answer is not JSON).
 */
export function fetchJson<Body = unknown>(url: string, ca: string, options: LoadRequest): Promise<{ status: number; body: Body; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(options.path, url), { method: options.method, headers: options.headers, ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, body: text && /json/.test(res.headers['content-type'] ?? '') ? (JSON.parse(text) as Body) : (undefined as Body), text });
      });
    });
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

/**
 * Starts a server (`argv`: a command and its arguments) and waits until it reports ready over IPC or
 * answers `/healthz` at `ready.url`. BENCH_CPU_PROF=1 adds NODE_OPTIONS that write a V8 CPU profile of
 * it to bench/profiles when it stops. Every server loads heap-probe.ts, which heapAllocated asks.
 */
export async function startServer(argv: string[], env: Record<string, string>, ready: { ipc: true } | { url: string; ca: string }): Promise<ChildProcess> {
  const profiling = process.env.BENCH_CPU_PROF ? '--cpu-prof --cpu-prof-dir=bench/profiles' : '';
  const probe = `--import ${PROBE_FILE}`;
  const child = spawn(argv[0]!, argv.slice(1), {
    env: { ...process.env, ...env, BENCH_HEAP_PROBE: PROBE_DIR, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${probe} ${profiling}`.trim() },
    stdio: ['ignore', 'ignore', 'inherit', ...('ipc' in ready ? (['ipc'] as const) : [])],
  });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${argv.join(' ')} exited with ${code}`))));
  const started =
    'ipc' in ready
      ? new Promise<void>((resolve) => child.once('message', () => resolve()))
      : (async () => {
          for (;;) {
            try {
              if ((await fetchJson(ready.url, ready.ca, { method: 'GET', path: '/healthz', headers: {} })).status === 200) return;
            } catch {
              // not listening yet
            }
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        })();
  await Promise.race([started, exited]);
  return child;
}

/** Asks a server to stop and waits until it has (so it can flush profiles and close its connections). */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Where the servers' heap probes listen, one socket per process id. */
const PROBE_DIR = mkdtempSync(`${tmpdir()}/tributary-bench-`);
/**
 * heap-probe.ts as JavaScript: loading TypeScript would load Node's type stripper into Tributary,
 * which runs compiled JavaScript (~30 MB of RSS, and a smaller heap left under the memory target).
 */
const PROBE_FILE = `${PROBE_DIR}/heap-probe.mjs`;
writeFileSync(PROBE_FILE, stripTypeScriptTypes(readFileSync(new URL('heap-probe.ts', import.meta.url), 'utf8')));

/** A server's JavaScript heap so far, as its heap probe (heap-probe.ts) reads it: bytes allocated and promoted, full collections. */
interface HeapReading {
  allocated: number;
  promoted: number;
  fullCollections: number;
}

function heapReading(pid: number): Promise<HeapReading> {
  return new Promise((resolve, reject) => {
    let answer = '';
    connect(`${PROBE_DIR}/${pid}.sock`)
      .setEncoding('utf8')
      .on('data', (chunk: string) => (answer += chunk))
      .on('end', () => resolve(JSON.parse(answer) as HeapReading))
      .on('error', reject);
  });
}

/** CPU time a process has used so far (user and system, all threads), in ms. */
export async function processCpuMs(pid: number): Promise<number> {
  // Fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses; in clock ticks of 10 ms.
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A process's resident memory now, in MB. */
export async function currentRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024);
}

/** Peak resident memory (VmHWM) of a process so far, in MB. */
export async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024);
}
