import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids.ts';
import { asOperator, signIn } from '../support/console.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { buildProfile, createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

describe('creating profiles', () => {
  it('creates a profile with every attribute and a p_ id', async () => {
    const attributes = buildProfile({ names: { first: 'Jane', middle: null, last: 'Doe' } });
    const response = await app.http.post('/v1/profiles', { auth: app.apiKey, json: attributes });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^p_[0-9a-hjkmnp-tv-z]{26}$/),
      uuid: attributes.uuid,
      name: attributes.name,
      names: { first: 'Jane', middle: null, last: 'Doe' },
      email: attributes.email,
      phone: attributes.phone,
      dateOfBirth: '1987-06-15',
      address: attributes.address,
      metadata: { plan: 'gold' },
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it('generates a uuid when none is given, and refuses a taken one with 409', async () => {
    const response = await app.http.post('/v1/profiles', { auth: app.apiKey, json: {} });
    expect(response.status).toBe(201);
    expect(response.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).toMatchObject({ email: null, phone: null, name: null, metadata: null, address: null });
    const taken = await app.http.post('/v1/profiles', { auth: app.apiKey, json: { uuid: response.body.uuid } });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain(response.body.uuid);
  });

  it('records profile.created in the outbox without sensitive fields', async () => {
    const profile = await createProfile(app);
    const [event] = await app.sql(`select type, payload from event where profile_id = $1`, [(await app.sql('select id from profile where uuid = $1', [profile.uuid]))[0].id]);
    expect(event.type).toBe('profile.created');
    expect(event.payload).toEqual({
      type: 'profile.created',
      profile: { id: profile.id, uuid: profile.uuid, metadata: { plan: 'gold' } },
      record: { id: profile.id, uuid: profile.uuid, metadata: { plan: 'gold' }, at: profile.at },
      metadata: {},
    });
    expect(JSON.stringify(event.payload)).not.toContain(profile.email);
  });

  it.each([
    ['email', { email: 'not-an-email' }, 'email'],
    ['phone', { phone: '555-0100' }, 'phone'],
    ['dateOfBirth in the future', { dateOfBirth: '2999-01-01' }, 'dateOfBirth'],
    ['dateOfBirth not a real date', { dateOfBirth: '2001-02-30' }, 'dateOfBirth'],
    ['metadata with an email', { metadata: { contact: 'x@example.com' } }, 'metadata.contact'],
    ['empty metadata', { metadata: {} }, 'metadata'],
    ['an unknown field', { nickname: 'JJ' }, 'nickname'],
  ])('refuses a bad %s with 422 naming the field', async (_case, overrides, field) => {
    const response = await app.http.post('/v1/profiles', { auth: app.apiKey, json: { ...buildProfile(), ...overrides } });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toContain(field);
    expect(response.body.errors[field][0]).toEqual(expect.any(String));
  });
});

describe('reading, listing and updating', () => {
  it('gets one profile and 404s for unknown or garbled ids', async () => {
    const profile = await createProfile(app);
    expect((await app.http.get(`/v1/profiles/${profile.id}`, { auth: app.apiKey })).body).toEqual(profile);
    expect((await app.http.get(`/v1/profiles/${encodeId('profile', crypto.randomUUID())}`, { auth: app.apiKey })).status).toBe(404);
    expect((await app.http.get('/v1/profiles/p_garbled', { auth: app.apiKey })).status).toBe(404);
  });

  it('pages with the pagination headers, default 25, limit at most 100', async () => {
    // An environment of its own, so that the other tests' profiles are not on its pages.
    const { apiKey } = await createEnvironmentWithKey(app);
    for (let i = 0; i < 27; i++) await createProfile(app, {}, apiKey);
    const first = await app.http.get('/v1/profiles', { auth: apiKey });
    expect(first.body).toHaveLength(25);
    expect(first.headers).toMatchObject({ 'current-page': '1', 'page-items': '25', 'total-count': '27', 'total-pages': '2' });
    const second = await app.http.get('/v1/profiles?page=2', { auth: apiKey });
    expect(second.body).toHaveLength(2);
    expect(second.headers).toMatchObject({ 'current-page': '2', 'page-items': '2' });
    const ids = new Set([...first.body, ...second.body].map((p: { id: string }) => p.id));
    expect(ids.size).toBe(27);
    const small = await app.http.get('/v1/profiles?limit=10&page=3', { auth: apiKey });
    expect(small.headers).toMatchObject({ 'page-items': '7', 'total-pages': '3' });
    const tooMany = await app.http.get('/v1/profiles?limit=101', { auth: apiKey });
    expect(tooMany.status).toBe(422);
    expect(Object.keys(tooMany.body.errors)).toContain('limit');
    expect((await app.http.get('/v1/profiles?page=0', { auth: apiKey })).status).toBe(422);
  });

  it('patches attributes, merges metadata and clears fields set to null', async () => {
    const profile = await createProfile(app, { metadata: { plan: 'gold', tier: 2 } });
    const patched = await app.http.patch(`/v1/profiles/${profile.id}`, {
      auth: app.apiKey,
      json: { name: 'Renamed', phone: null, metadata: { tier: null, region: 'eu' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Renamed', phone: null, email: profile.email, metadata: { plan: 'gold', region: 'eu' } });
    const cleared = await app.http.patch(`/v1/profiles/${profile.id}`, { auth: app.apiKey, json: { metadata: { plan: null, region: null } } });
    expect(cleared.body.metadata).toBeNull();
    const invalid = await app.http.patch(`/v1/profiles/${profile.id}`, { auth: app.apiKey, json: { email: 'nope' } });
    expect(invalid.status).toBe(422);
    expect((await app.http.get(`/v1/profiles/${profile.id}`, { auth: app.apiKey })).body.email).toBe(profile.email);
  });
});

describe('encryption at rest', () => {
  it('stores no plaintext of email, phone, birthday or address', async () => {
    const marker = `zq${Date.now().toString(36)}`;
    const [{ start }] = await app.sql('select pg_current_wal_insert_lsn()::text as start');
    const profile = await createProfile(app, { email: `${marker}@example.com`, phone: '+14155550999', address: { line1: `${marker} Street` } });
    const [row] = await app.sql('select * from profile where uuid = $1', [profile.uuid]);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(marker);
    expect(stored).not.toContain('+14155550999');
    expect(row.email_encrypted).toMatch(/^v2\.dev1\./);
    const dataDir = (await app.sql(`select setting from pg_settings where name = 'data_directory'`))[0].setting;
    // The WAL written since the marker was made (the whole run's WAL, up to a gigabyte, is no more to
    // the point), read before the checkpoint below, which may recycle a segment under a new name.
    const [wal] = await app.sql('select pg_walfile_name($1::pg_lsn) as first, pg_walfile_name(pg_current_wal_flush_lsn()) as last', [start]);
    const walFiles = readdirSync(path.join(dataDir, 'pg_wal'))
      .filter((name) => /^[0-9A-F]{24}$/.test(name) && name >= wal.first && name <= wal.last)
      .map((name) => path.join(dataDir, 'pg_wal', name));
    expect(walFiles.length).toBeGreaterThan(0);
    expect(filesContaining(marker, walFiles)).toEqual([]);
    // This database's files, once the checkpoint has written its pages: other databases of the server come and go meanwhile.
    await app.sql('checkpoint');
    const [{ oid }] = await app.sql('select oid from pg_database where datname = current_database()');
    const databaseFiles = readdirSync(path.join(dataDir, 'base', String(oid)), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
    expect(filesContaining(marker, databaseFiles)).toEqual([]);
  });
});

describe('deleting', () => {
  it('answers 202, reads 404 at once, then removes the rows and records profile.deleted', async () => {
    const profile = await createProfile(app);
    const response = await app.http.delete(`/v1/profiles/${profile.id}`, { auth: app.apiKey });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ id: profile.id, status: 'DELETING' });
    expect((await app.http.get(`/v1/profiles/${profile.id}`, { auth: app.apiKey })).status).toBe(404);
    expect((await app.http.patch(`/v1/profiles/${profile.id}`, { auth: app.apiKey, json: { name: 'x' } })).status).toBe(404);
    expect((await app.http.delete(`/v1/profiles/${profile.id}`, { auth: app.apiKey })).status).toBe(404);
    await waitFor(async () => ((await app.sql('select 1 from profile where uuid = $1', [profile.uuid])).length === 0 ? true : undefined), 'profile rows to go');
    const events = await app.sql(`select type, payload from event where payload->'profile'->>'id' = $1 order by at`, [profile.id]);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['profile.created', 'profile.deleted']);
  });
});

describe('tenancy', () => {
  it('never shows one environment\'s profiles to another environment\'s key', async () => {
    const { apiKey: secret } = await createEnvironmentWithKey(app);
    const mine = await createProfile(app);
    const theirs = await createProfile(app, {}, secret);
    expect((await app.http.get(`/v1/profiles/${mine.id}`, { auth: secret })).status).toBe(404);
    expect((await app.http.patch(`/v1/profiles/${mine.id}`, { auth: secret, json: { name: 'hijack' } })).status).toBe(404);
    expect((await app.http.delete(`/v1/profiles/${mine.id}`, { auth: secret })).status).toBe(404);
    const listed = (await app.http.get('/v1/profiles?limit=100', { auth: secret })).body.map((p: { id: string }) => p.id);
    expect(listed).toEqual([theirs.id]);
    // The same uuid may exist once per environment.
    expect((await app.http.post('/v1/profiles', { auth: secret, json: { uuid: mine.uuid } })).status).toBe(201);
  });

  it('never shows one environment\'s profiles to an operator of another environment', async () => {
    const { environmentId: theirEnvironment } = await createEnvironmentWithKey(app);
    const mine = await createProfile(app);
    const first = await signIn(app, app.service.firstOperator!.email, app.service.firstOperator!.password);
    const email = `tenant-${Date.now()}@example.com`;
    const created = await app.http.post('/v1/operators', asOperator(first, theirEnvironment, { json: { email, role: 'OWNER' } }));
    const theirs = await signIn(app, email, created.body.password);
    const myEnvironment = encodeId('environment', app.environmentId);
    for (const environment of [myEnvironment, theirEnvironment]) {
      const read = await app.http.get(`/v1/profiles/${mine.id}`, asOperator(theirs, environment));
      const changed = await app.http.patch(`/v1/profiles/${mine.id}`, asOperator(theirs, environment, { json: { name: 'hijack' } }));
      // Their role is not in this environment: refused; in their own, the profile does not exist.
      expect([read.status, changed.status]).toEqual(environment === myEnvironment ? [403, 403] : [404, 404]);
    }
    expect((await app.http.get('/v1/profiles?limit=100', asOperator(theirs, theirEnvironment))).body).toEqual([]);
  });
});

/** The files among `files` whose bytes contain `text`; a file removed meanwhile (a recycled WAL segment) is skipped. */
function filesContaining(text: string, files: string[]): string[] {
  const needle = Buffer.from(text);
  return files.filter((file) => {
    try {
      return readFileSync(file).includes(needle);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  });
}
