import { fork, type ChildProcess } from 'node:child_process';
import { request } from 'node:https';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  failures: number;
}

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Drives `url` with `connections` concurrent keep-alive connections for `seconds`; each request from `next()`. */
export async function load(url: string, ca: string, connections: number, seconds: number, next: () => LoadRequest): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    tlsOptions: { ca },
    requests: [{ setupRequest: (req) => ({ ...req, ...next() }) }],
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** One HTTPS request, for setup and correctness checks before the load. */
export function fetchJson<Body = unknown>(url: string, ca: string, options: LoadRequest): Promise<{ status: number; body: Body }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(options.path, url), { method: options.method, headers: options.headers, ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, body: (text ? JSON.parse(text) : undefined) as Body });
      });
    });
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

/** Starts a server script as a child process and waits until it reports ready (IPC) or answers `readyPath`. */
export async function startServer(script: string, env: Record<string, string>, ready: { ipc: true } | { url: string; ca: string }): Promise<ChildProcess> {
  // BENCH_CPU_PROF=1 writes a V8 CPU profile of each server to bench/profiles when it stops.
  const execArgv = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=bench/profiles'] : [];
  const child = fork(script, [], { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`))));
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

/** Peak resident memory (VmHWM) of a process, in MB. */
export async function peakRssMb(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024);
}
