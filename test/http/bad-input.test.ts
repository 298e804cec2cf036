import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.ts';
import { decodeId, encodeId, uuidv7 } from '../../src/lib/ids.ts';
import { builders } from '../support/builders.ts';
import { answerToFailure } from '../support/failing-app.ts';
import { basicAuth, buildProfile, createProfile } from '../support/factories.ts';
import type { TestResponse } from '../support/http-client.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
/**
 * The service's clock, a second further on for each test: every test's requests count in a fresh
 * rate-limit window of the key, however fast the tests before it ran (this file sends a few hundred).
 */
let offsetMs = 0;
beforeAll(async () => {
  app = await startTestApp({}, { now: () => new Date(Date.now() + offsetMs) });
});
beforeEach(() => {
  offsetMs += 1_000;
});
afterAll(() => app?.stop());

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];

/** An object with `key` as an own property, even for "__proto__" (an object literal would set the prototype). */
const own = (key: string, value: unknown): Record<string, unknown> => Object.fromEntries([[key, value]]);

/** The contract's error body, with the rate-limit headers every response carries. */
function expectErrorResponse(response: TestResponse, status: number) {
  expect(response.status, response.text).toBe(status);
  expect(response.body).toMatchObject({ message: expect.any(String), requestId: expect.any(String), errorId: expect.stringMatching(/^err_/) });
  expect(response.headers).toHaveProperty('ratelimit-limit');
  expect(response.headers).toHaveProperty('ratelimit-remaining');
}

const graphql = (auth: string, query: string, variables?: Record<string, unknown>) => app.http.post('/v1/graphql', { auth, json: { query, variables } });

const PROFILE_UPDATE = 'mutation($input: ProfileUpdateInput!) { profileUpdate(input: $input) { success record { name metadata } errors { path message } } }';

describe('keys named after Object.prototype members', () => {
  it.each(PROTOTYPE_KEYS)('a top-level body key %s is an unknown field: 422 on create and on update', async (key) => {
    const created = await app.http.post('/v1/profiles', { auth: app.apiKey, json: { ...buildProfile(), ...own(key, 'x') } });
    expectErrorResponse(created, 422);
    expect(Object.keys(created.body.errors)).toEqual([key]);
    expect(created.body.errors[key]).toEqual(['is not a known field']);

    const profile = await createProfile(app);
    const updated = await app.http.patch(`/v1/profiles/${profile.id}`, { auth: app.apiKey, json: { name: 'Ada', ...own(key, { plan: 'x' }) } });
    expectErrorResponse(updated, 422);
    expect(updated.body.errors[key]).toEqual(['is not a known field']);
  });

  const ORDINARY_KEYS = PROTOTYPE_KEYS.filter((key) => key !== '__proto__');

  it('metadata keys named after them are ordinary keys over REST (stored, read back, merged, deleted), except "__proto__", which is refused', async () => {
    const metadata = { plan: 'gold', ...Object.fromEntries(ORDINARY_KEYS.map((key, index) => [key, `v${index}`])) };
    const created = await app.http.post('/v1/profiles', { auth: app.apiKey, json: buildProfile({ metadata }) });
    expect(created.status, created.text).toBe(201);
    expect(created.body.metadata).toEqual(metadata);
    const [row] = await app.sql('select metadata from profile where id = $1', [decodeId('profile', created.body.id)]);
    expect(row.metadata).toEqual(metadata);

    const updated = await app.http.patch(`/v1/profiles/${created.body.id}`, { auth: app.apiKey, json: { metadata: { constructor: null, toString: 'changed' } } });
    expect(updated.status, updated.text).toBe(200);
    const { constructor: _deleted, ...rest } = metadata;
    expect(updated.body.metadata).toEqual({ ...rest, toString: 'changed' });
    const read = await app.http.get(`/v1/profiles/${created.body.id}`, { auth: app.apiKey });
    expect(read.body.metadata).toEqual(updated.body.metadata);

    for (const refused of [app.http.post('/v1/profiles', { auth: app.apiKey, json: buildProfile({ metadata: own('__proto__', 'x') }) }), app.http.patch(`/v1/profiles/${created.body.id}`, { auth: app.apiKey, json: { metadata: own('__proto__', 'x') } })]) {
      const response = await refused;
      expectErrorResponse(response, 422);
      expect(response.body.errors).toEqual({ 'metadata.__proto__': ['"__proto__" cannot be a metadata key'] });
    }
  });

  it('metadata keys named after them are ordinary keys over GraphQL, in variables and inline, except "__proto__", which is refused', async () => {
    const profile = await createProfile(app, { metadata: null });
    const auth = basicAuth(profile.id, app.apiKey);
    const viaVariables = await graphql(auth, PROFILE_UPDATE, { input: { metadata: Object.fromEntries(ORDINARY_KEYS.map((key) => [key, key.length])) } });
    expect(viaVariables.status, viaVariables.text).toBe(200);
    expect(viaVariables.body.data.profileUpdate.success).toBe(true);
    expect(viaVariables.body.data.profileUpdate.record.metadata).toEqual(Object.fromEntries(ORDINARY_KEYS.map((key) => [key, key.length])));

    const inline = await graphql(auth, 'mutation { profileUpdate(input: {metadata: {constructor: null, toString: "t"}}) { success record { metadata } } }');
    expect(inline.body.data.profileUpdate).toEqual({ success: true, record: { metadata: { toString: 't', valueOf: 7, hasOwnProperty: 14 } } });

    const refused = await graphql(auth, PROFILE_UPDATE, { input: { metadata: own('__proto__', 'x') } });
    expect(refused.body.data.profileUpdate).toEqual({ success: false, record: null, errors: [{ path: ['attributes', 'metadata', '__proto__'], message: '"__proto__" cannot be a metadata key' }] });
    const refusedInline = await graphql(auth, 'mutation { profileUpdate(input: {metadata: {__proto__: "x"}}) { success } }');
    expect(refusedInline.body.data).toBeUndefined();
    expect(refusedInline.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/"__proto__" cannot be a key/), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
    const [row] = await app.sql('select metadata from profile where id = $1', [decodeId('profile', profile.id)]);
    expect(row.metadata).toEqual({ toString: 't', valueOf: 7, hasOwnProperty: 14 });
  });
});

describe('a request body that is a JSON string', () => {
  it('is not an object, even when the string holds a valid body: 422, and nothing is created', async () => {
    const profile = buildProfile();
    const response = await app.http.post('/v1/profiles', { auth: app.apiKey, json: JSON.stringify(profile) });
    expectErrorResponse(response, 422);
    expect(await app.sql('select id from profile where uuid = $1', [profile.uuid])).toEqual([]);
  });
});

describe('malformed percent-encoding in the path', () => {
  it.each(['/v1/profiles/%ff', '/v1/profiles/%E0%A4%A', '/v1/profiles/p_%', '/v1/%ff/profiles'])('GET %s answers 400 in the contract shape', async (path) => {
    const response = await app.http.get(path, { auth: app.apiKey });
    expectErrorResponse(response, 400);
    expect(response.body.message).toMatch(/percent-encod/);
  });

  it('is told apart from a well-formed id that decodes to nonsense, which is simply not found', async () => {
    expectErrorResponse(await app.http.get('/v1/profiles/%00', { auth: app.apiKey }), 404);
    expectErrorResponse(await app.http.get('/v1/profiles/p_%ED%A0%80', { auth: app.apiKey }), 400);
  });

  it('is also a 400 for a profile acting through Basic Auth and in a PATCH', async () => {
    const profile = await createProfile(app);
    expectErrorResponse(await app.http.patch('/v1/profiles/%C0%AF', { auth: basicAuth(profile.id, app.apiKey), json: { name: 'x' } }), 400);
  });
});

describe('page numbers beyond the contract\'s bound', () => {
  const someSubscription = encodeId('webhookSubscription', uuidv7());
  const lists = ['/v1/profiles', '/v1/webhooks/subscriptions', `/v1/webhooks/subscriptions/${someSubscription}/deliveries`, '/v1/sandbox/institutions'];

  it.each(lists.flatMap((list) => ['1e400', '1e26', '9007199254740993', '1000001'].map((page) => [list, page])))('GET %s?page=%s is a 422 naming page', async (list, page) => {
    const response = await app.http.get(`${list}?page=${page}`, { auth: app.apiKey });
    expectErrorResponse(response, 422);
    expect(Object.keys(response.body.errors)).toEqual(['page']);
  });

  it.each(['/v1/profiles', '/v1/webhooks/subscriptions', '/v1/sandbox/institutions'])('GET %s at the last allowed page (items 9,901 to 10,000) answers an empty page', async (list) => {
    const response = await app.http.get(`${list}?page=100&limit=100`, { auth: app.apiKey });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual([]);
    expect(response.headers['current-page']).toBe('100');
  });

  it.each(lists.flatMap((list) => [['101', '100'], ['401', '25'], ['10000', '2']].map(([page, limit]) => [list, page, limit])))('GET %s?page=%s&limit=%s, past the first 10,000 items, is a 422 telling to page with after', async (list, page, limit) => {
    const response = await app.http.get(`${list}?page=${page}&limit=${limit}`, { auth: app.apiKey });
    expectErrorResponse(response, 422);
    expect(response.body.errors.page).toEqual([expect.stringContaining('`after`')]);
  });
});

describe('text PostgreSQL cannot store (NUL, unpaired surrogates)', () => {
  it.each([
    ['a NUL in a top-level string', { name: 'a\u0000b' }, 'name'],
    ['an unpaired high surrogate', { name: 'x\ud800' }, 'name'],
    ['an unpaired low surrogate', { name: '\udc00x' }, 'name'],
    ['a NUL in a nested string', { names: { first: 'Ada\u0000' } }, 'names.first'],
    ['a NUL in a metadata value', { metadata: { note: 'a\u0000b' } }, 'metadata.note'],
    ['an unpaired surrogate in a metadata value', { metadata: { note: 'a\udfffb' } }, 'metadata.note'],
    ['a NUL in a metadata key', { metadata: { 'a\u0000b': 'x' } }, 'metadata'],
    ['an unpaired surrogate in a metadata key', { metadata: { '\ud83d': 'x' } }, 'metadata'],
  ])('%s is a 422 naming the field, on create and on update', async (_case, attributes, field) => {
    const created = await app.http.post('/v1/profiles', { auth: app.apiKey, json: buildProfile(attributes) });
    expectErrorResponse(created, 422);
    expect(Object.keys(created.body.errors)).toEqual([field]);
    expect(created.body.errors[field][0]).toMatch(/NUL|unpaired surrogate/);

    const profile = await createProfile(app);
    const updated = await app.http.patch(`/v1/profiles/${profile.id}`, { auth: app.apiKey, json: attributes });
    expectErrorResponse(updated, 422);
    expect(Object.keys(updated.body.errors)).toEqual([field]);
  });

  it.each([
    ['objects', (leaf: string) => `{"a":${'{"a":'.repeat(100_000)}${leaf}${'}'.repeat(100_000)}}`],
    ['arrays', (leaf: string) => `{"a":${'['.repeat(100_000)}${leaf}${']'.repeat(100_000)}}`],
  ])('is found in bodies of %s nested 100,000 deep (422), and such bodies without it are no 500 either', async (_shape, nested) => {
    const post = (path: string, raw: string) => app.http.post(path, { auth: app.apiKey, raw, headers: { 'Content-Type': 'application/json' } });
    const webhook = '/v1/providers/plaid/webhooks?environment=env_x';
    const refused = await post(webhook, nested('"\\u0000"'));
    expectErrorResponse(refused, 422);
    expect(Object.values(refused.body.errors)).toEqual([[expect.stringMatching(/NUL/)]]);
    expectErrorResponse(await post(webhook, nested('1')), 401);
    expectErrorResponse(await post(`/v1/webhooks/subscriptions/${encodeId('webhookSubscription', uuidv7())}/rotate-secret`, nested('1')), 404);
  });

  it('accepts well-formed text outside the Basic Multilingual Plane (paired surrogates)', async () => {
    const created = await app.http.post('/v1/profiles', { auth: app.apiKey, json: buildProfile({ name: 'Zoë 😀 𝔄', metadata: { mood: '😀' } }) });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'Zoë 😀 𝔄', metadata: { mood: '😀' } });
  });

  it('is refused in query strings before they reach the database', async () => {
    const response = await app.http.get('/v1/events?type=connection%00x', { auth: app.apiKey });
    expectErrorResponse(response, 422);
    expect(Object.keys(response.body.errors)).toEqual(['type']);
  });

  it('makes a GraphQL mutation fail as data, naming the attribute, and changes nothing', async () => {
    const profile = await createProfile(app, { name: 'Unchanged' });
    const auth = basicAuth(profile.id, app.apiKey);
    for (const [input, path] of [
      [{ name: 'a\u0000b' }, ['attributes', 'name']],
      [{ names: { first: '\ud800' } }, ['attributes', 'names', 'first']],
      [{ metadata: { note: 'x\u0000' } }, ['attributes', 'metadata', 'note']],
      [{ metadata: { note: '\udc00' } }, ['attributes', 'metadata', 'note']],
      [{ metadata: { 'bad\u0000key': 'x' } }, ['attributes', 'metadata']],
    ] as const) {
      const response = await graphql(auth, PROFILE_UPDATE, { input });
      expect(response.status, response.text).toBe(200);
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data.profileUpdate).toEqual({ success: false, record: null, errors: [{ path, message: expect.stringMatching(/NUL|unpaired surrogate/) }] });
    }
    const inline = await graphql(auth, 'mutation { profileUpdate(input: {name: "a\\u0000b"}) { success errors { path message } } }');
    expect(inline.body.data.profileUpdate).toEqual({ success: false, errors: [{ path: ['attributes', 'name'], message: expect.stringMatching(/NUL/) }] });
    const [row] = await app.sql('select name, metadata from profile where id = $1', [decodeId('profile', profile.id)]);
    expect(row).toEqual({ name: 'Unchanged', metadata: { plan: 'gold' } });
  });

  it('in a GraphQL metadata filter is BAD_USER_INPUT, not an internal error', async () => {
    const profile = await createProfile(app);
    const auth = basicAuth(profile.id, app.apiKey);
    const response = await graphql(auth, 'query($filter: TransactionFilter) { transactions(filter: $filter) { count } }', { filter: { metadata: { note: 'a\u0000b' } } });
    expect(response.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
    expect(response.body.errors[0].message).toMatch(/NUL/);
    const inline = await graphql(auth, '{ accounts(filter: {metadata: {note: "a\\u0000b"}}) { id } }');
    expect(inline.body.data).toBeUndefined();
    expect(inline.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/NUL/), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
  });

  it('in any GraphQL mutation, such as an account\'s display name, fails as data', async () => {
    const profile = await createProfile(app);
    const auth = basicAuth(profile.id, app.apiKey);
    const build = builders(app);
    const account = await build.account({ connection: await build.connection({ profile: { id: decodeId('profile', profile.id)! } }) });
    const accountId = encodeId('account', account.id);
    const response = await graphql(auth, 'mutation($input: AccountUpdateInput!) { accountUpdate(input: $input) { success errors { path message } } }', {
      input: { id: accountId, name: 'Joint\u0000household' },
    });
    expect(response.body.data.accountUpdate).toEqual({ success: false, errors: [{ path: ['attributes', 'name'], message: expect.stringMatching(/NUL/) }] });
  });
});

describe('dates PostgreSQL cannot hold: before the year 0001, after 9999, leap seconds', () => {
  it.each([
    ['since', '/v1/events?since=0000-01-01T00:00:00Z'],
    ['until', '/v1/events?until=0000-12-31T23:59:59.999Z'],
    ['since', '/v1/events?since=0001-01-01T00:30:00%2B01:00'],
    ['since', '/v1/events?since=9999-12-31T23:59:59.999-23:59'],
    ['until', '/v1/events?until=2016-12-31T23:59:60Z'],
  ])('bound listEvents with a 422 naming %s (%s)', async (field, path) => {
    const response = await app.http.get(path, { auth: app.apiKey });
    expectErrorResponse(response, 422);
    expect(response.body.errors).toEqual({ [field]: [`${field} must be a real instant from 0001-01-01 to 9999-12-31 UTC`] });
  });

  it('still bound listEvents at the edges of that range', async () => {
    for (const path of ['/v1/events?since=0001-01-01T00:00:00Z', '/v1/events?until=9999-12-31T23:59:59.999Z']) {
      const response = await app.http.get(path, { auth: app.apiKey });
      expect(response.status, response.text).toBe(200);
    }
  });

  it('are BAD_USER_INPUT in a GraphQL transactions filter, inline or as variables, not an internal error', async () => {
    const profile = await createProfile(app);
    const auth = basicAuth(profile.id, app.apiKey);
    const responses = [
      await graphql(auth, '{ transactions(filter: {date_gte: "0000-01-01"}) { count } }'),
      await graphql(auth, 'query($filter: TransactionFilter) { transactions(filter: $filter) { count } }', { filter: { date_lte: '0000-02-29' } }),
    ];
    for (const response of responses) {
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/real date/), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
    }
    const earliest = await graphql(auth, '{ transactions(filter: {date_gte: "0001-01-01"}) { count } }');
    expect(earliest.body).toEqual({ data: { transactions: { count: 0 } } });
  });
});

describe('logging an unexpected database failure', () => {
  const SECRET = 'Sensitive-Fragment';

  it.each([
    ['jsonb with a NUL (quoted in "where")', 'select ?::jsonb', [JSON.stringify({ note: `${SECRET}\u0000` })], '22P05'],
    ['a bad cast (quoted in the message)', 'select ?::text::integer', [SECRET], '22P02'],
    ['a not-null violation (the failing row in "detail")', 'insert into profile (id, uuid, name) values (gen_random_uuid(), gen_random_uuid(), ?)', [SECRET], '23502'],
  ])('%s: logged by code and place under the errorId, without the data', async (_case, statement, params, code) => {
    const { lines, ...response } = await answerToFailure(() => app.service.orm.em.fork().execute(statement, params));
    expect(response.status).toBe(500);
    const { errorId } = JSON.parse(response.body);
    const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.errorId === errorId);
    expect(logged.err).toMatchObject({ code, stack: expect.stringContaining(' at ') });
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  it('logs a refused request by its code, without the field names it quotes', async () => {
    const { lines, ...response } = await answerToFailure(() => {
      throw new ValidationError([{ path: ['metadata', SECRET], message: 'is not allowed' }]);
    });
    expect(response.status).toBe(422);
    expect(JSON.parse(response.body).errors).toEqual({ [`metadata.${SECRET}`]: ['is not allowed'] });
    expect(lines.map((line) => JSON.parse(line))).toContainEqual(expect.objectContaining({ level: 20, code: 'VALIDATION_FAILED', errorId: JSON.parse(response.body).errorId }));
    expect(lines.join('\n')).not.toContain(SECRET);
  });
});
