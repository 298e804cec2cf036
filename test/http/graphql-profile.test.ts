import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

const graphql = (auth: string, query: string, variables?: Record<string, unknown>) => app.http.post('/v1/graphql', { auth, json: { query, variables } });

describe('GraphQL profile', () => {
  it('reads the authenticated profile with its decrypted fields', async () => {
    const profile = await createProfile(app);
    const response = await graphql(basicAuth(profile.id, app.apiKey), '{ profile { id uuid name email phone dateOfBirth address { city country } metadata at } }');
    expect(response.status).toBe(200);
    expect(response.body.data.profile).toEqual({
      id: profile.id,
      uuid: profile.uuid,
      name: profile.name,
      email: profile.email,
      phone: profile.phone,
      dateOfBirth: '1987-06-15',
      address: { city: 'San Francisco', country: 'US' },
      metadata: { plan: 'gold' },
      at: profile.at,
    });
  });

  it('updates through profileUpdate, merging metadata, and returns rule violations as data', async () => {
    const profile = await createProfile(app);
    const auth = basicAuth(profile.id, app.apiKey);
    const mutation = 'mutation($input: ProfileUpdateInput!) { profileUpdate(input: $input) { success record { name metadata } errors { path message } } }';
    const ok = await graphql(auth, mutation, { input: { name: 'New Name', metadata: { plan: null, tier: 'b' } } });
    expect(ok.body.data.profileUpdate).toEqual({ success: true, record: { name: 'New Name', metadata: { tier: 'b' } }, errors: null });
    const bad = await graphql(auth, mutation, { input: { email: 'not-an-email' } });
    expect(bad.status).toBe(200);
    expect(bad.body.data.profileUpdate).toEqual({ success: false, record: null, errors: [{ path: ['attributes', 'email'], message: expect.stringMatching(/valid email/) }] });
  });

  it('is discoverable through introspection', async () => {
    const profile = await createProfile(app);
    const response = await graphql(basicAuth(profile.id, app.apiKey), '{ __type(name: "Query") { fields { name } } }');
    expect(response.body.data.__type.fields.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['profile', 'transactions', 'accounts']));
  });

  it('reports a record that is not the profile\'s as an error with a code and errorId, and a null field', async () => {
    const profile = await createProfile(app);
    const response = await graphql(basicAuth(profile.id, app.apiKey), '{ account(id: "acct_01jdq3v6x8f9k2m4n7p0r5s8tw") { id } }');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ account: null });
    expect(response.body.errors[0], JSON.stringify(response.body)).toMatchObject({ path: ['account'], extensions: { code: 'NOT_FOUND', errorId: expect.stringMatching(/^err_/) } });
  });
});
