import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { startFakePlaid, type FakePlaid } from '../fakes/plaid/index.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** Plaid Link's real script address: the connect page loads it, browser tests answer it with a stand-in. */
export const PLAID_LINK_SCRIPT_URL = 'https://cdn.plaid.com/link/v2/stable/link-initialize.js';

/** The public origin the Plaid tests' service is configured with (PUBLIC_URL); the fake routes its webhooks to the service. */
export const PUBLIC_URL = 'https://tributary.example';

/**
 * The service with its bootstrap environment on Plaid: a fake of Plaid's sandbox over HTTPS (its CA
 * trusted through PROVIDER_CA_FILE, Tributary's trusted for its webhooks), configured the way an
 * operator does it, with `npm run cli -- providers set`. Plaid reaches it at `PUBLIC_URL`, unless
 * `env` says otherwise; `logs` receives what it logs (with LOG_LEVEL set in `env`).
 */
export async function startPlaidApp(
  env: Record<string, string> = {},
  options: { logs?: string[] } = {},
): Promise<{ app: TestApp; plaid: FakePlaid; environmentId: string; cliOutput: string }> {
  const tls = inject('tls');
  const plaid = await startFakePlaid({ webhookCa: readFileSync(tls.certFile), transactionCount: 2_200 });
  const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'fake-plaid-')), 'ca.pem');
  writeFileSync(caFile, plaid.ca);
  const app = await startTestApp({ PROVIDER_CA_FILE: caFile, PLAID_LINK_SCRIPT_URL, PUBLIC_URL, ...env }, { log: options.logs && { write: (line: string) => void options.logs!.push(line) } });
  plaid.routeWebhooks(PUBLIC_URL, app.service.url);
  const environmentId = app.service.bootstrap.created!.environmentId;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['scripts/cli.ts', 'providers', 'set', environmentId, 'plaid', '--client-id', plaid.clientId, '--secret', plaid.secret, '--plaid-env', 'sandbox', '--base-url', plaid.url],
    { env: { ...process.env, DATABASE_URL: app.databaseUrl, DATA_DIR: app.dataDir, NODE_ENV: 'test', LOG_LEVEL: 'silent' } },
  );
  return { app, plaid, environmentId, cliOutput: stdout };
}
