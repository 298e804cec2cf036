import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { decodeId } from '../../src/lib/ids.ts';
import { startFakeSimplefin, type FakeSimplefin } from '../fakes/simplefin/index.ts';
import { createProfile } from './factories.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import { waitFor } from './wait.ts';

/**
 * The service with its bootstrap environment on SimpleFIN: a fake Bridge over HTTPS (its CA trusted
 * through PROVIDER_CA_FILE), configured the way an operator does it, with `npm run cli -- providers
 * set`, its loopback address allowed. Resolves to the service, the Bridge and the CLI's output.
 */
export async function startSimplefinApp(): Promise<{ app: TestApp; bridge: FakeSimplefin; cliOutput: string }> {
  const bridge = await startFakeSimplefin();
  const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'fake-simplefin-')), 'ca.pem');
  writeFileSync(caFile, bridge.ca);
  const app = await startTestApp({ PROVIDER_CA_FILE: caFile });
  const environmentId = app.service.bootstrap.created!.environmentId;
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/cli.ts', 'providers', 'set', environmentId, 'simplefin', '--allowed-hosts', '127.0.0.1'], {
    env: { ...process.env, DATABASE_URL: app.databaseUrl, DATA_DIR: app.dataDir, NODE_ENV: 'test', LOG_LEVEL: 'silent' },
  });
  return { app, bridge, cliOutput: stdout };
}

/** A session token (`Bearer …`) of the profile, as the connect page holds one. */
export async function sessionTokenOf(app: TestApp, profileId: string): Promise<string> {
  const response = await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profileId } });
  expect(response.status).toBe(201);
  return `Bearer ${response.body.token}`;
}

/** The stored row of a connection, by its public id. */
export async function connectionRowOf(app: TestApp, connectionId: string) {
  const [row] = await app.sql('select * from connection where id = $1', [decodeId('connection', connectionId)]);
  return row;
}

/** A new profile connected through the connect page's calls with a Setup Token of a new Bridge user, first sync done. */
export async function connectSimplefin(app: TestApp, bridge: FakeSimplefin) {
  const profile = await createProfile(app);
  const token = await sessionTokenOf(app, profile.id);
  const link = await app.http.post('/v1/connect/link', { auth: token, json: { provider: 'simplefin' } });
  expect(link.status).toBe(200);
  expect(link.body).toMatchObject({ provider: 'simplefin', kind: 'SETUP_TOKEN', createUrl: expect.stringMatching(/^https:\/\//) });
  const { setupToken, connectionId: bridgeConnection } = bridge.createSetupToken();
  const created = await app.http.post('/v1/connect/connections', { auth: token, json: { provider: 'simplefin', setupToken } });
  expect(created.status).toBe(201);
  expect(created.body.provider).toBe('simplefin');
  const row = await waitFor(async () => {
    const current = await connectionRowOf(app, created.body.id);
    return current.status === 'SYNCED' ? current : undefined;
  }, 'the first SimpleFIN sync', 60_000);
  return { profile, token, setupToken, bridgeConnection, connection: created.body, row };
}
