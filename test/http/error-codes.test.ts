import { readdirSync, readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { GraphQLError } from 'graphql';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { AppError, badUserInput, conflict, forbidden, unauthorized, type ErrorCode } from '../../src/errors.ts';
import { formatGraphQLError } from '../../src/graphql/errors.ts';
import { DatabaseOutage } from '../../src/db/database-outage.ts';
import { basicAuth, buildProfile, createProfile } from '../support/factories.ts';
import type { RequestOptions, TestResponse } from '../support/http-client.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const schema = parse(readFileSync('contracts/rest.yaml', 'utf8')).components.schemas.ErrorCode as { description: string; enum: string[] };

describe('the contract\'s ErrorCode list', () => {
  it('documents every code in its table, once and in the same order', () => {
    const documented = [...schema.description.matchAll(/^\| `([A-Z_]+)` \| (\d{3}|GraphQL) \| \S/gm)].map((row) => row[1]);
    expect(documented).toEqual(schema.enum);
  });

  it('lists only codes the service produces (the compiler checks the other way round: a code it does not list does not compile)', () => {
    const files = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const source = files.map((file) => readFileSync(`src/${file}`, 'utf8')).join('\n');
    expect(schema.enum.filter((code) => !source.includes(`'${code}'`))).toEqual([]);
  });
});

describe('GraphQL errors from resolvers', () => {
  const logged: Array<{ level: number; msg: string }> = [];
  const log = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => (logged.push(JSON.parse(String(chunk))), done()) }));
  const outage = new DatabaseOutage(() => Promise.reject(new Error('still down')), log);
  afterAll(() => outage.close());
  /** A resolver's failure as graphql-js and graphql-jit hand it over: located at its field, the thrown error as originalError. */
  const located = (error: Error) => formatGraphQLError(new GraphQLError(error.message, { path: ['profile'], originalError: error }), log, outage);

  it('read NOT_READY for a database outage, which is logged once, not once per resolver it fails', () => {
    const from = logged.length;
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:5432', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) });
    for (let resolver = 0; resolver < 3; resolver++) {
      expect(located(refused)).toEqual({ message: 'The service cannot reach its database', path: ['profile'], extensions: { code: 'NOT_READY', errorId: expect.stringMatching(/^err_/) } });
    }
    expect(logged.slice(from).map((line) => line.msg)).toEqual(['PostgreSQL does not answer: requests that need it get 503 NOT_READY until it does']);
  });

  it.each<[string, AppError]>([
    ['401', unauthorized('The session token has been revoked')],
    ['403', forbidden('Not for this credential')],
    ['403 with a finer code', new AppError(403, 'REPAIR_REQUIRED', 'The institution needs the end-user to sign in again')],
    ['409', conflict('A transactions refresh is already running')],
    ['429', new AppError(429, 'RATE_LIMITED', 'Rate limit of 100 requests per second exceeded')],
    ['503', new AppError(503, 'PROVIDER_UNAVAILABLE', 'The provider could not read the account numbers')],
    ['400 from an argument', badUserInput('first and last must not be negative')],
  ])('carry the domain error\'s own code in extensions.code (%s), as REST does in code', (_status, error) => {
    expect(located(error)).toEqual({ message: error.message, path: ['profile'], extensions: { code: error.code, errorId: expect.stringMatching(/^err_/) } });
  });

  it('read INTERNAL_SERVER_ERROR with a generic message for anything unexpected', () => {
    expect(located(new Error('connection to db-internal.local refused'))).toEqual({
      message: 'Something went wrong on our side',
      path: ['profile'],
      extensions: { code: 'INTERNAL_SERVER_ERROR', errorId: expect.stringMatching(/^err_/) },
    });
  });
});

describe('error bodies on the wire', () => {
  let app: TestApp;
  let auth: string;
  beforeAll(async () => {
    app = await startTestApp();
    auth = basicAuth((await createProfile(app)).id, app.apiKey);
  });
  afterAll(() => app?.stop());

  const expectRefusal = (response: TestResponse, status: number, code: ErrorCode) => {
    expect(response.status, response.text).toBe(status);
    expect(response.body).toEqual(expect.objectContaining({ code, message: expect.any(String), requestId: response.headers['x-request-id'], errorId: expect.stringMatching(/^err_/) }));
  };

  it('carry the code of each REST refusal', async () => {
    const profile = buildProfile();
    const json = { 'Content-Type': 'application/json' };
    expectRefusal(await app.http.post('/v1/profiles', { auth: app.apiKey, raw: '{"name":', headers: json }), 400, 'BAD_REQUEST');
    expectRefusal(await app.http.get('/v1/profiles', { auth: app.apiKey, headers: { 'Service-Version': '2019-01-01' } }), 400, 'UNSUPPORTED_VERSION');
    expectRefusal(await app.http.get('/v1/profiles'), 401, 'UNAUTHENTICATED');
    expectRefusal(await app.http.get('/v1/users/session', { auth }), 403, 'FORBIDDEN');
    expectRefusal(await app.http.get('/v1/profiles', { auth: app.apiKey, plain: true }), 403, 'HTTPS_REQUIRED');
    expectRefusal(await app.http.get('/v1/profiles/p_01jdq3v6x8f9k2m4n7p0r5s8tw', { auth: app.apiKey }), 404, 'NOT_FOUND');
    expect((await app.http.post('/v1/profiles', { auth: app.apiKey, json: profile })).status).toBe(201);
    expectRefusal(await app.http.post('/v1/profiles', { auth: app.apiKey, json: { ...buildProfile(), uuid: profile.uuid } }), 409, 'CONFLICT');
    expectRefusal(await app.http.post('/v1/profiles', { auth: app.apiKey, raw: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }), headers: json }), 413, 'PAYLOAD_TOO_LARGE');
    expectRefusal(await app.http.post('/v1/profiles', { auth: app.apiKey, raw: 'name=Jane', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const invalid = await app.http.post('/v1/profiles', { auth: app.apiKey, json: buildProfile({ email: 'not an address' }) });
    expectRefusal(invalid, 422, 'VALIDATION_FAILED');
    expect(invalid.body.errors).toHaveProperty('email');
  });

  it('carry the same codes for refusals of GraphQL requests, in the REST error body', async () => {
    const query = JSON.stringify({ query: '{ profile { id } }' });
    const graphql = (options: RequestOptions) => app.http.post('/v1/graphql', options);
    expectRefusal(await graphql({ raw: query, headers: { 'Content-Type': 'application/json' } }), 401, 'UNAUTHENTICATED');
    expectRefusal(await graphql({ auth: app.apiKey, raw: query, headers: { 'Content-Type': 'application/json' } }), 403, 'FORBIDDEN');
    expectRefusal(await app.http.get(`/v1/graphql?query=${encodeURIComponent('mutation { __typename }')}`, { auth }), 405, 'METHOD_NOT_ALLOWED');
    expectRefusal(await graphql({ auth, raw: query, headers: { 'Content-Type': 'application/json', Accept: 'image/png' } }), 406, 'NOT_ACCEPTABLE');
    expectRefusal(await graphql({ auth, raw: JSON.stringify({ query: `{ profile { id } } # ${'x'.repeat(1024 * 1024)}` }), headers: { 'Content-Type': 'application/json' } }), 413, 'PAYLOAD_TOO_LARGE');
    expectRefusal(await graphql({ auth, raw: query, headers: { 'Content-Type': 'application/json; charset=latin1' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it.each<[string, ErrorCode, unknown]>([
    ['a record of no one', 'NOT_FOUND', { query: '{ account(id: "acct_01jdq3v6x8f9k2m4n7p0r5s8tw") { id } }' }],
    ['an argument that breaks a rule', 'BAD_USER_INPUT', { query: '{ transactions(first: -1) { count } }' }],
    ['an unknown field', 'GRAPHQL_VALIDATION_FAILED', { query: '{ nope }' }],
    ['a document over a limit', 'QUERY_TOO_COMPLEX', { query: `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: __typename`).join(' ')} }` }],
    ['no query at all', 'BAD_REQUEST', { variables: {} }],
  ])('carry the same codes in GraphQL results: %s is %s', async (_what, code, body) => {
    const response = await app.http.post('/v1/graphql', { auth, json: body });
    expect(response.body.errors, response.text).toEqual([expect.objectContaining({ message: expect.any(String), extensions: { code, errorId: expect.stringMatching(/^err_/) } })]);
  });
});
