import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTITUTIONS, type FakePlaid } from '../fakes/plaid/index.ts';
import { createProfile } from '../support/factories.ts';
import { startPlaidApp } from '../support/plaid-app.ts';
import { plaidConnections } from '../support/plaid-connections.ts';
import type { TestApp } from '../support/test-app.ts';

let app: TestApp;
let plaid: FakePlaid;
const logs: string[] = [];
const { settled, sessionToken } = plaidConnections(() => ({ app, plaid }));
const WEBHOOKS_OFF = "plaid webhooks are off until PUBLIC_URL is set to this service's public https origin; connections sync on schedule and on refresh only";

beforeAll(async () => {
  // No PUBLIC_URL: the service only knows the loopback address it listens on.
  ({ app, plaid } = await startPlaidApp({ PUBLIC_URL: '', LOG_LEVEL: 'warn' }, { logs }));
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await plaid?.stop();
});

describe('Plaid without PUBLIC_URL', () => {
  it('sends Plaid no webhook URL (it could never reach one on loopback), says so once, and links and syncs all the same', async () => {
    const profile = await createProfile(app);
    const token = await sessionToken(profile.id);
    for (let attempt = 0; attempt < 2; attempt++) expect((await app.http.post('/v1/connect/link', { auth: token, json: {} })).status).toBe(200);
    const created = await app.http.post('/v1/sandbox/connections', {
      auth: app.apiKey,
      json: { profileId: profile.id, provider: 'plaid', institutionId: INSTITUTIONS[0]!.id, username: 'user_good', password: 'pass_good' },
    });
    expect(created.status).toBe(201);
    await settled(created.body.id);

    const linkRequests = plaid.requests.filter((request) => request.endpoint === '/link/token/create' || request.endpoint === '/sandbox/public_token/create');
    expect(linkRequests.map((request) => request.status)).toEqual([200, 200, 200]);
    for (const request of linkRequests) expect(JSON.stringify(request.body)).not.toContain('webhook');
    expect(plaid.items().map((item) => item.webhook)).toEqual([null]);
    expect(logs.map((line) => JSON.parse(line)).filter((line) => line.msg === WEBHOOKS_OFF)).toEqual([expect.objectContaining({ level: 40, provider: 'plaid' })]);
  });
});
