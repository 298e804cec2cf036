import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { decodeId } from '../../src/lib/ids.ts';
import type { TestApp } from './test-app.ts';
import { waitFor } from './wait.ts';

let sequence = 0;

/** Profile attributes as a client would send them; every call is distinct. */
export function buildProfile(overrides: Record<string, unknown> = {}) {
  sequence++;
  return {
    uuid: randomUUID(),
    name: `Jane Tester ${sequence}`,
    email: `jane.${sequence}.${randomUUID().slice(0, 8)}@example.com`,
    phone: `+1415555${String(1000 + sequence).slice(-4)}`,
    dateOfBirth: '1987-06-15',
    address: { line1: '1 Market St', line2: null, city: 'San Francisco', region: 'CA', postalCode: '94105', country: 'US' },
    metadata: { plan: 'gold' },
    ...overrides,
  };
}

/** Creates a profile through the REST API and returns its body. */
export async function createProfile(app: TestApp, overrides: Record<string, unknown> = {}, apiKey = app.apiKey) {
  const response = await app.http.post('/v1/profiles', { auth: apiKey, json: buildProfile(overrides) });
  if (response.status !== 201) throw new Error(`createProfile: ${response.status} ${response.text}`);
  return response.body;
}

/** `Basic` credentials acting as a profile. */
export function basicAuth(profileId: string, apiKey: string): string {
  return `Basic ${Buffer.from(`${profileId}:${apiKey}`).toString('base64')}`;
}

/** A session token for the profile (of the environment of `apiKey`), as an app's backend would issue it. */
export async function sessionFor(app: TestApp, profileId: string, apiKey = app.apiKey): Promise<string> {
  const response = await app.http.post('/v1/users/sessions', { auth: apiKey, json: { userId: profileId } });
  expect(response.status).toBe(201);
  return response.body.token;
}

/** A new profile with a synced sandbox connection at each institution (with its default products), and Basic credentials acting as it. */
export async function syncedSandboxProfile(app: TestApp, institutions: string[]): Promise<{ id: string; auth: string }> {
  const profile = await createProfile(app);
  for (const institutionId of institutions) {
    const response = await app.http.post('/v1/sandbox/connections', { auth: app.apiKey, json: { profileId: profile.id, institutionId, username: 'user_good', password: 'pass_good' } });
    expect(response.status, response.text).toBe(201);
    await waitFor(async () => {
      const [row] = await app.sql('select status from connection where id = $1', [decodeId('connection', response.body.id)]);
      return row.status === 'SYNCED' ? true : undefined;
    }, `${institutionId} to sync`);
  }
  return { id: profile.id, auth: basicAuth(profile.id, app.apiKey) };
}
