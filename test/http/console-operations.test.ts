import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { asOperator, signIn, type ConsoleSession } from '../support/console.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

/** The operations the console added to the contract, through the front door with an API key and with console sessions. */
let app: TestApp;
let environmentId: string;
let owner: ConsoleSession;

beforeAll(async () => {
  app = await startTestApp({ METRICS_PORT: '0' });
  environmentId = encodeId('environment', app.environmentId);
  owner = await signIn(app, app.service.firstOperator!.email, app.service.firstOperator!.password);
});
afterAll(() => app?.stop());

async function operatorWith(role: 'DEVELOPER' | 'VIEWER'): Promise<ConsoleSession> {
  const email = `${role.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.com`;
  const created = await app.http.post('/v1/operators', asOperator(owner, environmentId, { json: { email, role } }));
  return signIn(app, email, created.body.password);
}

describe('API keys', () => {
  it('creates a key whose secret is shown once and works, lists keys without secrets, and revokes one', async () => {
    const created = await app.http.post('/v1/api-keys', { auth: app.apiKey, json: { name: 'Reporting' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^key_/), name: 'Reporting', generation: 'CURRENT', revokedAt: null, secret: expect.stringMatching(/^sk_/) });
    expect(created.body.lastFour).toBe(created.body.secret.slice(-4));
    expect((await app.http.get('/v1/profiles', { auth: created.body.secret })).status).toBe(200);
    const listed = await app.http.get('/v1/api-keys', { auth: app.apiKey });
    expect(listed.body.map((key: { id: string }) => key.id)).toContain(created.body.id);
    expect(listed.text).not.toContain(created.body.secret);
    const revoked = await app.http.delete(`/v1/api-keys/${created.body.id}`, { auth: app.apiKey });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    await waitFor(async () => ((await app.http.get('/v1/profiles', { auth: created.body.secret })).status === 401 ? true : undefined), 'the revoked key refused');
  });

  it('refuses a key revoking itself, and reaches no other environment\'s key', async () => {
    const own = (await app.http.get('/v1/api-keys', { auth: app.apiKey })).body.find((key: { lastFour: string }) => key.lastFour === app.apiKey.slice(-4));
    expect((await app.http.delete(`/v1/api-keys/${own.id}`, { auth: app.apiKey })).status).toBe(409);
    const other = await createEnvironmentWithKey(app);
    expect((await app.http.delete(`/v1/api-keys/${other.apiKeyId}`, { auth: app.apiKey })).status).toBe(404);
    expect((await app.http.get('/v1/profiles', { auth: other.apiKey })).status).toBe(200);
  });

  it('lets a developer create a key in the console session\'s environment, and refuses a viewer', async () => {
    const developer = await operatorWith('DEVELOPER');
    const made = await app.http.post('/v1/api-keys', asOperator(developer, environmentId, { json: { name: 'From the console' } }));
    expect(made.status).toBe(201);
    const viewer = await operatorWith('VIEWER');
    expect((await app.http.get('/v1/api-keys', asOperator(viewer, environmentId))).status).toBe(200);
    expect((await app.http.post('/v1/api-keys', asOperator(viewer, environmentId, { json: { name: 'Nope' } }))).status).toBe(403);
    expect((await app.http.delete(`/v1/api-keys/${made.body.id}`, asOperator(viewer, environmentId))).status).toBe(403);
  });
});

describe('environments', () => {
  it('lists the API key\'s own environment, and every environment for an owner of all', async () => {
    const other = await createEnvironmentWithKey(app);
    expect((await app.http.get('/v1/environments', { auth: app.apiKey })).body).toEqual([{ id: environmentId, name: expect.any(String), mode: 'SANDBOX', at: expect.any(String), publicUrl: null, providerWebhookUrl: null }]);
    const all = (await app.http.get('/v1/environments', asOperator(owner))).body.map((environment: { id: string }) => environment.id);
    expect(all).toEqual(expect.arrayContaining([environmentId, other.environmentId]));
    const viewer = await operatorWith('VIEWER');
    expect((await app.http.get('/v1/environments', asOperator(viewer))).body.map((environment: { id: string }) => environment.id)).toEqual([environmentId]);
  });
});

describe('provider settings', () => {
  it('stores checked settings encrypted and shows their names, never their values', async () => {
    const wrong = await app.http.send('PUT', '/v1/provider-settings/plaid', { auth: app.apiKey, json: { clientId: 'client-1' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toMatch(/secret/);
    const set = await app.http.send('PUT', '/v1/provider-settings/plaid', { auth: app.apiKey, json: { clientId: 'client-1', secret: 'plaid-secret-value', plaidEnv: 'sandbox' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ provider: 'plaid', names: ['clientId', 'secret', 'plaidEnv'], at: expect.any(String) });
    const listed = await app.http.get('/v1/provider-settings', { auth: app.apiKey });
    expect(listed.body).toEqual([set.body]);
    expect(listed.text).not.toContain('plaid-secret-value');
    expect(JSON.stringify(await app.sql('select * from provider_setting'))).not.toContain('plaid-secret-value');
    expect((await app.http.send('PUT', '/v1/provider-settings/sandbox', { auth: app.apiKey, json: {} })).status).toBe(422);
    expect((await app.http.delete('/v1/provider-settings/plaid', { auth: app.apiKey })).status).toBe(204);
    expect((await app.http.delete('/v1/provider-settings/plaid', { auth: app.apiKey })).status).toBe(404);
    expect((await app.http.get('/v1/provider-settings', { auth: app.apiKey })).body).toEqual([]);
  });
});

describe('profiles', () => {
  it('finds profiles by uuid and by metadata compared by JSON type', async () => {
    const tag = `t${Date.now()}`;
    const gold = await createProfile(app, { metadata: { tag, plan: 'gold', tier: 2 } });
    const silver = await createProfile(app, { metadata: { tag, plan: 'silver', tier: '2' } });
    const ids = async (query: string) => (await app.http.get(`/v1/profiles?${query}`, { auth: app.apiKey })).body.map((profile: { id: string }) => profile.id);
    expect(await ids(`uuid=${gold.uuid}`)).toEqual([gold.id]);
    expect(await ids(`metadata=${encodeURIComponent(JSON.stringify({ tag }))}`)).toEqual([gold.id, silver.id]);
    expect(await ids(`metadata=${encodeURIComponent(JSON.stringify({ tag, plan: 'gold' }))}`)).toEqual([gold.id]);
    expect(await ids(`metadata=${encodeURIComponent(JSON.stringify({ tag, tier: 2 }))}`)).toEqual([gold.id]);
    expect(await ids(`metadata=${encodeURIComponent(JSON.stringify({ tag, tier: '2' }))}`)).toEqual([silver.id]);
    for (const bad of ['not json', '[1]', '{}', '{"a":{"b":1}}', '{"a":null}']) {
      const refused = await app.http.get(`/v1/profiles?metadata=${encodeURIComponent(bad)}`, { auth: app.apiKey });
      expect(refused.status, bad).toBe(422);
      expect(refused.body.errors).toHaveProperty('metadata');
    }
  });

  it("lists a profile's connections, each with its last sync run and why it failed", async () => {
    const profile = await createProfile(app);
    const linked = await app.http.post('/v1/sandbox/connections', { auth: app.apiKey, json: { profileId: profile.id, institutionId: 'ins_houndstooth', username: 'user_institution_down', password: 'any' } });
    await waitFor(async () => ((await app.sql('select count(*)::int as n from connection_sync where connection_id = $1', [decodeId('connection', linked.body.id)]))[0].n > 0 ? true : undefined), 'the first sync');
    const listed = await app.http.get(`/v1/profiles/${profile.id}/connections`, { auth: app.apiKey });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({ id: linked.body.id, status: 'ERROR_INSTITUTION', provider: 'sandbox', lastSync: expect.objectContaining({ outcome: 'FAILED', errorMessage: expect.stringMatching(/\w/) }) }),
    ]);
    const other = await createEnvironmentWithKey(app);
    expect((await app.http.get(`/v1/profiles/${profile.id}/connections`, { auth: other.apiKey })).status).toBe(404);
    expect((await app.http.get(`/v1/profiles/${(await createProfile(app)).id}/connections`, { auth: app.apiKey })).body).toEqual([]);
  });
});

describe('the metrics summary', () => {
  it("is the environment's: an API key's own, or the one a console session names, for a viewer too", async () => {
    const profile = await createProfile(app);
    const linked = await app.http.post('/v1/sandbox/connections', { auth: app.apiKey, json: { profileId: profile.id, institutionId: 'ins_houndstooth', username: 'user_provider_error', password: 'any' } });
    await waitFor(async () => ((await app.sql('select count(*)::int as n from connection_sync where connection_id = $1', [decodeId('connection', linked.body.id)]))[0].n > 0 ? true : undefined), 'the failed sync');
    const byKey = await app.http.get('/v1/metrics/summary', { auth: app.apiKey });
    expect(byKey.status).toBe(200);
    expect(byKey.body.syncs.find((row: { provider: string }) => row.provider === 'sandbox').lastHour.failed).toBeGreaterThan(0);
    expect(byKey.body.queues.map((queue: { name: string }) => queue.name)).toContain('webhook.deliver');
    const viewer = await operatorWith('VIEWER');
    const bySession = await app.http.get('/v1/metrics/summary', asOperator(viewer, environmentId));
    expect(bySession.status).toBe(200);
    expect(bySession.body.syncs.map((row: { provider: string }) => row.provider)).toEqual(byKey.body.syncs.map((row: { provider: string }) => row.provider));
    const other = await createEnvironmentWithKey(app);
    expect((await app.http.get('/v1/metrics/summary', asOperator(viewer, other.environmentId))).status).toBe(403);
    expect((await app.http.get('/v1/metrics/summary', { auth: other.apiKey })).body).toMatchObject({ syncs: [], webhookBacklog: { due: 0, scheduled: 0 } });
  });
});
