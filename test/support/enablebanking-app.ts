import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { startFakeEnableBanking, type FakeEnableBanking } from '../fakes/enablebanking/index.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The service with its bootstrap environment on Enable Banking: the fake over HTTPS (its CA trusted
 * through PROVIDER_CA_FILE), an application registered there whose allowed redirect URL is the
 * service's callback, configured the way the README tells an operator to, with `npm run cli --
 * providers set … enablebanking`. End-users reach the service at `https://localhost:<port>`.
 * `env` and `options` go to startTestApp (a log level and where log lines go, a metrics port).
 */
export async function startEnableBankingApp(env: Record<string, string> = {}, options: Parameters<typeof startTestApp>[1] = {}): Promise<{ app: TestApp; fake: FakeEnableBanking; callbackUrl: string }> {
  const fake = await startFakeEnableBanking();
  const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'fake-enablebanking-')), 'ca.pem');
  writeFileSync(caFile, fake.ca);
  const app = await startTestApp({ PROVIDER_CA_FILE: caFile, ...env }, options);
  const callbackUrl = `https://localhost:${app.service.port}/v1/connect/callback`;
  await configureEnableBanking(app, app.service.bootstrap.created!.environmentId, fake.registerApplication([callbackUrl]), fake.url);
  return { app, fake, callbackUrl };
}

/** `npm run cli -- providers set <environment> enablebanking …` for `application`, with the API at `baseUrl`. */
export async function configureEnableBanking(app: TestApp, environmentId: string, application: { applicationId: string; privateKeyPem: string }, baseUrl: string): Promise<void> {
  const keyFile = path.join(mkdtempSync(path.join(tmpdir(), 'enablebanking-key-')), 'application.pem');
  writeFileSync(keyFile, application.privateKeyPem, { mode: 0o600 });
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['scripts/cli.ts', 'providers', 'set', environmentId, 'enablebanking', '--application-id', application.applicationId, '--private-key-file', keyFile, '--base-url', baseUrl],
    { env: { ...process.env, DATABASE_URL: app.databaseUrl, DATA_DIR: app.dataDir, NODE_ENV: 'test', LOG_LEVEL: 'silent' } },
  );
  expect(stdout).toContain('enablebanking configured');
}
