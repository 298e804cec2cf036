import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject, it } from 'vitest';
import { buildProfile } from '../support/factories.ts';
import { httpClient } from '../support/http-client.ts';
import { processFixture, startServiceProcess } from '../support/service-process.ts';

// The tests share nothing (each has its own database or data directory, and its own process), and
// most of their time is waiting for a process or its PostgreSQL to start or stop: they run at once.

it.concurrent('npm start prints where it listens and how to authenticate, serves, and stops cleanly (exit 0, port closed) on SIGTERM', { timeout: 120_000 }, async ({ expect }) => {
  const fixture = await processFixture();
  try {
    const service = await startServiceProcess(fixture);
    const apiKey = /\n {4}(sk_\S+)/.exec(service.banner)![1]!;
    expect(JSON.parse(readFileSync(path.join(fixture.dataDir, 'bootstrap.json'), 'utf8')).apiKey).toBe(apiKey);
    const http = httpClient(`https://localhost:${service.port}`, readFileSync(inject('tls').certFile, 'utf8'));
    expect((await http.get('/v1/profiles', { auth: apiKey })).status).toBe(200);
    http.close();
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    await expect(http.get('/healthz')).rejects.toThrow(/ECONNREFUSED/);
  } finally {
    await fixture.cleanup();
  }
});

// A fresh embedded cluster (initdb, every migration) before the signal.
it.concurrent('Ctrl-C (SIGINT to the whole foreground process group) stops the service, its jobs and its embedded PostgreSQL cleanly: exit 0, no warning, error or stack', { timeout: 120_000 }, async ({ expect }) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-ctrl-c-'));
  const lockFile = path.join(dataDir, 'postgres', 'cluster', 'postmaster.pid');
  try {
    // As `npm start` runs in a terminal: the service leads a process group, which Ctrl-C signals whole.
    const service = await startServiceProcess({ databaseUrl: '', dataDir }, { LOG_LEVEL: 'info' }, { processGroup: true });
    const apiKey = /\n {4}(sk_\S+)/.exec(service.banner)![1]!;
    const http = httpClient(`https://localhost:${service.port}`, readFileSync(inject('tls').certFile, 'utf8'));
    // Jobs at work when the signal comes: a connection's first sync.
    const profile = await http.post('/v1/profiles', { auth: apiKey, json: buildProfile() });
    expect((await http.post('/v1/sandbox/connections', { auth: apiKey, json: { profileId: profile.body.id, institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good' } })).status).toBe(201);
    http.close();
    expect(existsSync(lockFile)).toBe(true);

    process.kill(-service.child.pid!, 'SIGINT');
    expect(await service.exited).toBe(0);
    const { stdout, stderr } = service.output();
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.filter(({ level }) => level >= 40)).toEqual([]);
    // After the signal, nothing but a job cut off at the stop if the first sync outlasted the queue's graceful stop (info: it runs again on the next start).
    const stop = lines.findIndex(({ msg }) => msg === 'shutting down: draining requests, stopping jobs and the database');
    expect(stop).toBeGreaterThan(-1);
    expect(lines.slice(stop + 1).map(({ msg }) => msg)).toEqual(lines.slice(stop + 1).map(() => 'job met a database outage; it will be retried'));
    expect(stderr).not.toMatch(/^\s+at |Unhandled|Error/m);
    // PostgreSQL removes its lock file when it has shut down cleanly.
    expect(existsSync(lockFile)).toBe(false);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

// A fault injected from outside the code under test: a preloaded module throws from a signal handler.
const THROW_ON_SIGUSR2 = `data:text/javascript;base64,${Buffer.from("process.on('SIGUSR2', () => { throw new Error('injected fault'); });").toString('base64')}`;

it.concurrent('an uncaught error stops the service and its embedded PostgreSQL, logs one fatal line and exits 1', { timeout: 120_000 }, async ({ expect }) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-fatal-'));
  const lockFile = path.join(dataDir, 'postgres', 'cluster', 'postmaster.pid');
  try {
    const service = await startServiceProcess({ databaseUrl: '', dataDir }, { NODE_OPTIONS: `--import=${THROW_ON_SIGUSR2}` });
    expect(existsSync(lockFile)).toBe(true);
    service.child.kill('SIGUSR2');
    expect(await service.exited).toBe(1);
    const lines = service.output().stdout.trim().split('\n').map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string } });
    expect(lines.filter(({ level }) => level >= 60)).toEqual([expect.objectContaining({ msg: 'uncaught error: stopping the service and its database', err: expect.objectContaining({ message: 'injected fault' }) })]);
    // PostgreSQL removes its lock file when it has shut down cleanly: it did not outlive the service.
    expect(existsSync(lockFile)).toBe(false);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
