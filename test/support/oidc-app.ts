import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FakeOidcProvider } from '../fakes/oidc/server.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** What the service is called at the fake provider, and what its console's button says. */
export const OIDC_CLIENT = { clientId: 'tributary-console', name: 'Example SSO' } as const;

/**
 * The service with OpenID Connect sign-in configured as the README tells an operator to (OIDC_*),
 * against a fake provider over loopback HTTPS (its CA trusted through OIDC_CA_FILE) where the service
 * is a registered client whose redirect URI is `https://localhost:<port>/v1/console/oidc/callback`.
 * `options` go to startTestApp (the sessions' clock).
 */
export async function startOidcApp(options: Parameters<typeof startTestApp>[1] = {}): Promise<{ app: TestApp; provider: FakeOidcProvider; stop: () => Promise<void> }> {
  const provider = new FakeOidcProvider();
  await provider.start();
  const caDir = mkdtempSync(path.join(tmpdir(), 'fake-oidc-'));
  writeFileSync(path.join(caDir, 'ca.pem'), provider.ca);
  const clientSecret = 'a-client-secret-the-service-never-logs';
  const app = await startTestApp(
    { OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: OIDC_CLIENT.clientId, OIDC_CLIENT_SECRET: clientSecret, OIDC_NAME: OIDC_CLIENT.name, OIDC_CA_FILE: path.join(caDir, 'ca.pem') },
    options,
  );
  provider.register({ clientId: OIDC_CLIENT.clientId, clientSecret, redirectUri: `https://localhost:${app.service.port}/v1/console/oidc/callback` });
  return {
    app,
    provider,
    async stop() {
      await app.stop();
      await provider.close();
      rmSync(caDir, { recursive: true, force: true });
    },
  };
}
