import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { httpClient, type HttpClient } from './http-client.ts';

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  /** What the service printed on stderr up to "listening". */
  banner: string;
  /** Everything it printed so far: the JSON log on stdout, the banner and anything else on stderr. */
  output(): { stdout: string; stderr: string };
  exited: Promise<number | null>;
}

/**
 * A database cloned from the migrated template (or an empty one, `migrated: false`) and a fresh
 * DATA_DIR, for running `src/main.ts` as users do.
 */
export async function processFixture(options: { migrated?: boolean } = {}) {
  const { adminUrl, template } = inject('database');
  const name = `t_process_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(options.migrated === false ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${template}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-process-'));
  return {
    databaseUrl: adminUrl.replace(/\/[^/]+$/, `/${name}`),
    dataDir,
    async cleanup() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts `node src/main.ts` on an ephemeral port and resolves once it prints where it listens (a
 * `ROLE=worker` once it says it runs; its port is 0). An
 * empty `databaseUrl` runs it on its embedded PostgreSQL under `dataDir`. With `processGroup` it
 * leads a process group of its own, which `process.kill(-child.pid, signal)` signals as a whole;
 * `command` starts it another way (`sh scripts/start.sh`: the compiled build, as production does).
 * A failed job is retried within seconds (`JOB_RETRY_DELAY_SECONDS=1`), as in the in-process test apps.
 */
export async function startServiceProcess(
  fixture: { databaseUrl: string; dataDir: string },
  env: Record<string, string> = {},
  options: { processGroup?: boolean; command?: string[] } = {},
): Promise<ServiceProcess> {
  const tls = inject('tls');
  const [command, ...args] = options.command ?? [process.execPath, 'src/main.ts'];
  const child = spawn(command!, args, {
    env: { ...process.env, PORT: '0', DATA_DIR: fixture.dataDir, DATABASE_URL: fixture.databaseUrl, TLS_CERT_FILE: tls.certFile, TLS_KEY_FILE: tls.keyFile, LOG_LEVEL: 'warn', NODE_ENV: 'development', JOB_RETRY_DELAY_SECONDS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.processGroup ?? false,
  });
  // 'close': once its output is read to the end.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let banner = '';
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      banner += chunk.toString('utf8');
      const match = /listening on https:\/\/localhost:(\d+)/.exec(banner);
      if (match && /\n\n/.test(banner.slice(match.index))) resolve(Number(match[1]));
      // A worker serves nothing: it is up once it says so.
      if (/Tributary worker is running/.test(banner)) resolve(0);
    });
    // 'close': once its stderr is read to the end.
    child.once('close', (code) => reject(new Error(`exited early (code ${code}): ${banner}`)));
  });
  return { child, port, banner, exited, output: () => ({ stdout, stderr }) };
}

/** A test file's one service process, with its database and DATA_DIR and an HTTPS client to it. */
export interface ServiceProcessTier {
  fixture: Awaited<ReturnType<typeof processFixture>>;
  service: ServiceProcess;
  http: HttpClient;
}

/**
 * Starts the service as a process of its own before the file's tests (with `env`) and stops it
 * (SIGTERM, unless it already exited) and drops its database after them. The returned object's
 * fields are set once it has started.
 */
export function withServiceProcess(env: Record<string, string> = {}, startTimeoutMs = 60_000): ServiceProcessTier {
  const tier = {} as ServiceProcessTier;
  beforeAll(async () => {
    tier.fixture = await processFixture();
    tier.service = await startServiceProcess(tier.fixture, env);
    tier.http = httpClient(`https://localhost:${tier.service.port}`, readFileSync(inject('tls').certFile, 'utf8'));
  }, startTimeoutMs);
  afterAll(async () => {
    tier.http?.close();
    const { service } = tier;
    if (service && service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await tier.fixture?.cleanup();
  });
  return tier;
}
