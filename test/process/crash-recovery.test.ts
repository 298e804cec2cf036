import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { expect, inject, it } from 'vitest';
import { FieldCipher } from '../../src/lib/field-cipher.ts';
import { createLogger } from '../../src/logger.ts';
import { sweepStuckConnections } from '../../src/modules/sync/connection-sweeper.ts';
import { SYNC } from '../../src/modules/sync/connection.jobs.ts';
import { builders } from '../support/builders.ts';
import { buildProfile } from '../support/factories.ts';
import { httpClient } from '../support/http-client.ts';
import { expectedRemoteIds } from '../support/sandbox-view.ts';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.ts';
import { startTestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

const CONNECTIONS = 6;
const RESTARTS = 3;
const SANDBOX_LOGIN = { institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good' };

/** SQL on the embedded PostgreSQL of the service on `dataDir`, wherever its latest start put it. */
async function sqlOn<T extends pg.QueryResultRow = pg.QueryResultRow>(dataDir: string, text: string, values: unknown[] = []): Promise<T[]> {
  const dir = path.join(dataDir, 'postgres');
  const port = Number(readFileSync(path.join(dir, 'cluster', 'postmaster.pid'), 'utf8').split('\n')[3]);
  const password = readFileSync(path.join(dir, 'password'), 'utf8').trim();
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'tributary' });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * SIGKILL to the service's process group and to its postmaster, which leads a group of its own: both
 * die at once, as in an OOM kill of the container.
 */
async function crash(service: ServiceProcess, dataDir: string): Promise<void> {
  const postmaster = Number(readFileSync(path.join(dataDir, 'postgres', 'cluster', 'postmaster.pid'), 'utf8').split('\n')[0]);
  process.kill(-service.child.pid!, 'SIGKILL');
  process.kill(postmaster, 'SIGKILL');
  await service.exited;
}

/**
 * Stops the postmaster a service that died during start-up may have left on `dataDir`, so a failing
 * run leaks no server. Only a process whose command line names this cluster is signalled.
 */
async function stopLeftoverPostgres(dataDir: string): Promise<void> {
  const cluster = path.join(dataDir, 'postgres', 'cluster');
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(cluster)) return;
  } catch {
    return;
  }
  process.kill(pid, 'SIGINT');
  await waitFor(async () => (existsSync(`/proc/${pid}/cmdline`) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(cluster) ? undefined : true), 'the leftover PostgreSQL to stop');
}

it('finishes every first sync with exactly its transactions after SIGKILLs of the service and its embedded PostgreSQL, each restarted 0.5 s later', { timeout: 180_000 }, async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-crash-'));
  const fixture = { databaseUrl: '', dataDir };
  const env = { JOB_HEARTBEAT_SECONDS: '10' };
  const ca = readFileSync(inject('tls').certFile, 'utf8');
  let service = await startServiceProcess(fixture, env, { processGroup: true });
  try {
    const apiKey = JSON.parse(readFileSync(path.join(dataDir, 'bootstrap.json'), 'utf8')).apiKey;
    const http = httpClient(`https://localhost:${service.port}`, ca);
    const profile = await http.post('/v1/profiles', { auth: apiKey, json: buildProfile() });
    const connectionIds: string[] = [];
    for (let i = 0; i < CONNECTIONS; i++) {
      const created = await http.post('/v1/sandbox/connections', { auth: apiKey, json: { profileId: profile.body.id, ...SANDBOX_LOGIN } });
      expect(created.status).toBe(201);
      connectionIds.push(created.body.id);
    }
    http.close();
    const early = await waitFor(async () => {
      const [row] = await sqlOn(dataDir, `select count(*) filter (where status = 'SYNCED')::int as synced, (select count(*)::int from transaction) as stored from connection`);
      return row.stored > 0 ? row : undefined;
    }, 'the first pages of the first syncs');
    await crash(service, dataDir);
    expect(early.synced).toBeLessThan(CONNECTIONS);

    for (let restart = 1; restart <= RESTARTS; restart++) {
      await sleep(500);
      service = await startServiceProcess(fixture, env, { processGroup: true });
      if (restart < RESTARTS) await crash(service, dataDir);
    }

    // A dead worker's job is retried after 10 s without its heartbeat, a supervisor pass (5 s) and its
    // retry delay (1 s here, JOB_RETRY_DELAY_SECONDS); pg-boss's default expiry left it active for 15 minutes.
    const connections = await waitFor(async () => {
      const rows = await sqlOn<{ id: string; status: string; sync_cursor: string; credential_encrypted: string }>(dataDir, 'select id, status, sync_cursor, credential_encrypted from connection');
      return rows.every((row) => row.status === 'SYNCED') ? rows : undefined;
    }, 'every connection to be SYNCED', 90_000);
    const cipher = FieldCipher.fromKeyList(JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).encryptionKeys);
    for (const connection of connections) {
      const stored = await sqlOn(dataDir, 'select remote_id from transaction where connection_id = $1', [connection.id]);
      const credential = cipher.decrypt('credential', connection, connection.credential_encrypted);
      expect(stored.map((row) => row.remote_id).sort()).toEqual(await expectedRemoteIds(credential, Number(connection.sync_cursor)));
    }
    const events = await sqlOn(dataDir, `select type, payload->'record'->>'id' as id from event where type in ('connection.synced.successful', 'profile.ready')`);
    expect(events.filter((event) => event.type === 'connection.synced.successful').map((event) => event.id).sort()).toEqual([...connectionIds].sort());
    expect(events.filter((event) => event.type === 'profile.ready')).toHaveLength(1);
    // Each first sync is one run of the history, however many of its workers died: the retries went on with it.
    const runs = await sqlOn<{ connection_id: string; outcome: string }>(dataDir, `select connection_id, outcome from connection_sync where trigger = 'LINK'`);
    expect(runs.map((run) => `${run.connection_id} ${run.outcome}`).sort()).toEqual(connections.map((connection) => `${connection.id} SUCCEEDED`).sort());
  } finally {
    if (service.child.exitCode === null && service.child.signalCode === null) {
      process.kill(-service.child.pid!, 'SIGTERM');
      await service.exited;
    }
    await stopLeftoverPostgres(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

it('queues again the sync or disconnection of a connection left without a job, and leaves one with a job alone', async () => {
  const app = await startTestApp();
  try {
    const build = builders(app);
    const profile = await build.profile();
    // As a crash between the status change and sending its job leaves them, a minute ago.
    const createdAt = new Date(Date.now() - 60_000);
    const { connection: lostSync } = await build.sandboxConnection({ profile, status: 'INITIALIZING', createdAt });
    const { connection: lostDisconnect } = await build.sandboxConnection({ profile, status: 'DISCONNECTING', createdAt });
    // Not stuck: its job waits to run.
    const { connection: queued } = await build.sandboxConnection({ profile, status: 'SYNCING', createdAt });
    await app.service.boss.send(SYNC, { connectionId: queued.id }, { startAfter: 3600 });
    // Swept here after 30 s without a job (the service's own sweep waits STUCK_CONNECTION_SECONDS, 120 s, so it stays out of this).
    const deps = { orm: app.service.orm, jobs: app.service.connectionJobs, logger: createLogger('silent'), stuckAfterSeconds: 30 };
    expect((await sweepStuckConnections(deps)).sort()).toEqual([lostSync.id, lostDisconnect.id].sort());
    await waitFor(async () => {
      const rows = await app.sql('select id, status from connection order by id');
      const status = Object.fromEntries(rows.map((row) => [row.id, row.status]));
      return status[lostSync.id] === 'SYNCED' && status[lostDisconnect.id] === 'DISCONNECTED' ? status : undefined;
    }, 'the swept connections to be synced and disconnected');
    expect(await sweepStuckConnections(deps)).toEqual([]);
    expect((await app.sql('select status from connection where id = $1', [queued.id]))[0].status).toBe('SYNCING');
  } finally {
    await app.stop();
  }
});
