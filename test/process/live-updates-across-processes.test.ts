import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { buildProfile } from '../support/factories.ts';
import { httpClient, type HttpClient } from '../support/http-client.ts';
import { liveClient } from '../support/live-client.ts';
import { processFixture, startServiceProcess, type ServiceProcess } from '../support/service-process.ts';

/**
 * Two `ROLE=api` processes and a `ROLE=worker` on one PostgreSQL: a subscriber connected to one api
 * process sees the sync the worker finished for a connection made through the other.
 */
let fixture: Awaited<ReturnType<typeof processFixture>>;
let processes: ServiceProcess[] = [];
let clients: HttpClient[] = [];
let apiKey: string;

beforeAll(async () => {
  fixture = await processFixture();
  const env = { MIGRATE_ON_START: 'false', ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, SESSION_SECRET: randomBytes(32).toString('hex'), SANDBOX_HISTORY_DAYS: '30' };
  const [first, second] = [await startServiceProcess(fixture, { ...env, ROLE: 'api' }), await startServiceProcess(fixture, { ...env, ROLE: 'api' })];
  processes = [first, second, await startServiceProcess(fixture, { ...env, ROLE: 'worker' })];
  const ca = readFileSync(inject('tls').certFile, 'utf8');
  clients = [first, second].map((api) => httpClient(`https://localhost:${api.port}`, ca));
  apiKey = JSON.parse(readFileSync(path.join(fixture.dataDir, 'bootstrap.json'), 'utf8')).apiKey;
}, 120_000);

afterAll(async () => {
  for (const client of clients) client.close();
  for (const child of processes) {
    child.child.kill('SIGTERM');
    await child.exited;
  }
  await fixture?.cleanup();
});

it('a subscriber on one api process receives connectionSynced for a sync the worker finished, the connection made through the other', { timeout: 90_000 }, async () => {
  const [making, subscribing] = clients as [HttpClient, HttpClient];
  const profile = (await making.post('/v1/profiles', { auth: apiKey, json: buildProfile() })).body as { id: string };
  const { token } = (await subscribing.post('/v1/users/sessions', { auth: apiKey, json: { userId: profile.id } })).body as { token: string };
  const live = liveClient(`https://localhost:${processes[1]!.port}`, `Bearer ${token}`);
  try {
    const synced = live.subscribe('subscription { connectionSynced { status connection { id lastSyncedAt } } }');
    // Subscribed once a round trip on the socket has come back.
    await new Promise((resolve) => live.client.subscribe({ query: '{ __typename }' }, { next: resolve, error: resolve, complete: () => {} }));
    const created = await making.post('/v1/sandbox/connections', { auth: apiKey, json: { profileId: profile.id, institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good' } });
    expect(created.status).toBe(201);
    const result = await synced.next(1, 60_000);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ connectionSynced: { status: 'SYNCED', connection: { id: created.body.id, lastSyncedAt: expect.any(String) } } });
  } finally {
    await live.dispose();
  }
});
