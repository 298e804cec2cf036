import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { credentialCounters } from '../../scripts/bench/credential-cache.ts';
import { decodeId } from '../../src/lib/ids.ts';
import { buildProfile } from '../support/factories.ts';
import { httpClient, type HttpClient } from '../support/http-client.ts';
import { processFixture, startServiceProcess, type ServiceProcess } from '../support/service-process.ts';
import { waitFor } from '../support/wait.ts';
import { asTestSql } from '../support/test-database.ts';

/**
 * Two `ROLE=api` processes on one PostgreSQL, each holding the credential answers it knows until the
 * revocation feed announces a change (src/http/revocation-feed.ts): what one process (or anyone
 * writing the database) revokes, the other refuses within a second, feed or no feed.
 */
/** Longer than the one-second re-check that applies while the feed does not vouch for an answer. */
const PAST_RECHECK_MS = 1500;

let fixture: Awaited<ReturnType<typeof processFixture>>;
const processes: ServiceProcess[] = [];
let clients: HttpClient[] = [];
let metricsPorts: number[] = [];
let apiKey: string;
let db: pg.Client;

/** A port free on loopback now (the process binds its metrics server to it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  fixture = await processFixture();
  const env = { MIGRATE_ON_START: 'false', ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, SESSION_SECRET: randomBytes(32).toString('hex') };
  metricsPorts = [await freePort(), await freePort()];
  for (const port of metricsPorts) processes.push(await startServiceProcess(fixture, { ...env, ROLE: 'api', METRICS_PORT: String(port) }));
  const ca = readFileSync(inject('tls').certFile, 'utf8');
  clients = processes.map((api) => httpClient(`https://localhost:${api.port}`, ca));
  apiKey = JSON.parse(readFileSync(`${fixture.dataDir}/bootstrap.json`, 'utf8')).apiKey;
  db = new pg.Client({ connectionString: asTestSql(fixture.databaseUrl) });
  await db.connect();
}, 120_000);

afterAll(async () => {
  for (const client of clients) client.close();
  for (const child of processes) {
    child.child.kill('SIGTERM');
    await child.exited;
  }
  await db?.end();
  await fixture?.cleanup();
});

/** A session token of a new profile, issued through the first process. */
async function newSession(): Promise<{ auth: string; sessionId: string }> {
  const profile = (await clients[0]!.post('/v1/profiles', { auth: apiKey, json: buildProfile() })).body as { id: string };
  const issued = await clients[0]!.post('/v1/users/sessions', { auth: apiKey, json: { userId: profile.id } });
  expect(issued.status).toBe(201);
  const auth = `Bearer ${issued.body.token}`;
  const session = await clients[0]!.get('/v1/users/session', { auth });
  return { auth, sessionId: decodeId('session', session.body.id)! };
}

/** Whether the second process answers the session from memory now, past the one-second re-check since it last looked it up. */
async function heldPastRecheck(auth: string): Promise<boolean> {
  await sleep(PAST_RECHECK_MS);
  const before = await credentialCounters(metricsPorts[1]!);
  expect((await clients[1]!.get('/v1/users/session', { auth })).status).toBe(200);
  const after = await credentialCounters(metricsPorts[1]!);
  return after.sessionsFromDatabase === before.sessionsFromDatabase && after.sessionsFromMemory > before.sessionsFromMemory;
}

/** After the second a known credential may be trusted without the feed has passed since `revoked`, the second process refuses it. */
async function refusedBySecondWithinASecond(revoked: number, auth: string) {
  await sleep(Math.max(0, revoked + 1000 - Date.now()));
  expect((await clients[1]!.get('/v1/users/session', { auth })).status).toBe(401);
}

const listeners = async () =>
  (await db.query<{ pid: number }>(`select pid from pg_stat_activity where application_name = 'tributary-revocations' and datname = current_database()`)).rows.map(
    (row) => row.pid,
  );

it('a session revoked through one process is refused by the other within a second, while the other held it past its re-check', { timeout: 60_000 }, async () => {
  const { auth } = await newSession();
  expect((await clients[1]!.get('/v1/users/session', { auth })).status).toBe(200);
  expect(await heldPastRecheck(auth)).toBe(true);
  expect((await clients[0]!.delete('/v1/users/session', { auth })).status).toBe(204);
  await refusedBySecondWithinASecond(Date.now(), auth);
});

it('with the feed\'s connection terminated, a revocation meanwhile is still refused within a second, and the feed reconnects and vouches again', { timeout: 60_000 }, async () => {
  const { auth, sessionId } = await newSession();
  expect((await clients[1]!.get('/v1/users/session', { auth })).status).toBe(200);
  expect(await heldPastRecheck(auth)).toBe(true);
  const before = await listeners();
  expect(before).toHaveLength(2);
  // The listeners are gone (terminate waits for them) before the revocation commits, so its announcement is lost to both processes.
  await db.query('begin');
  await db.query('select pg_terminate_backend(pid, 5000) from unnest($1::int[]) as pid', [before]);
  await db.query('update session set revoked_at = now() where id = $1', [sessionId]);
  await db.query('commit');
  await refusedBySecondWithinASecond(Date.now(), auth);
  await waitFor(async () => ((await listeners()).filter((pid) => !before.includes(pid)).length === 2 ? true : undefined), 'both processes to listen again', 20_000);
  const next = await newSession();
  // A lookup made before the reconnected feed was confirmed holds a second only; the next one is vouched for.
  await waitFor(async () => ((await heldPastRecheck(next.auth)) ? true : undefined), 'the feed to vouch for answers again', 20_000);
  expect((await clients[0]!.delete('/v1/users/session', { auth: next.auth })).status).toBe(204);
  await refusedBySecondWithinASecond(Date.now(), next.auth);
});
