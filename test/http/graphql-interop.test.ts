import { readFileSync } from 'node:fs';
import { buildClientSchema, buildSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/errors.ts';
import { LIMITS } from '../../src/graphql/limits.ts';
import { decodeId } from '../../src/lib/ids.ts';
import { basicAuth } from '../support/factories.ts';
import type { TestResponse } from '../support/http-client.ts';
import { profileWithData } from '../support/profile-with-data.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let profileId: string;
let auth: string;
beforeAll(async () => {
  app = await startTestApp();
  const { profile } = await profileWithData(app, { metadata: { plan: 'gold' } });
  profileId = profile.id;
  auth = basicAuth(profile.id, app.apiKey);
});
afterAll(() => app?.stop());

const SDL = readFileSync(new URL('../../contracts/schema.graphql', import.meta.url), 'utf8');
const JSON_TYPE = 'application/json';
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

const post = (credential: string, body: unknown, accept?: string) => app.http.post('/v1/graphql', { auth: credential, json: body, headers: accept ? { Accept: accept } : {} });

/** The REST error body refusals before GraphQL runs carry. */
function expectRestError(response: TestResponse, status: number, code: ErrorCode) {
  expect(response.status, response.text).toBe(status);
  expect(response.body).toMatchObject({ code, message: expect.any(String), requestId: expect.any(String), errorId: expect.stringMatching(/^err_/) });
}

describe('metadata that is not an object, in a mutation', () => {
  const NOT_OBJECTS: [string, unknown][] = [
    ['an array', ['plan', 'gold']],
    ['a string', 'gold'],
    ['a number', 42],
    ['a boolean', true],
  ];
  const refused = { success: false, record: null, errors: [{ path: ['attributes', 'metadata'], message: 'metadata must be a JSON object or null' }] };
  const PROFILE_UPDATE = 'mutation($input: ProfileUpdateInput!) { profileUpdate(input: $input) { success record { metadata } errors { path message } } }';

  it.each(NOT_OBJECTS)('is a validation failure as data when %s comes in variables or inline (HTTP 200, nothing stored)', async (_what, metadata) => {
    const viaVariables = await post(auth, { query: PROFILE_UPDATE, variables: { input: { name: 'Changed', metadata } } });
    expect(viaVariables.status, viaVariables.text).toBe(200);
    expect(viaVariables.body).toEqual({ data: { profileUpdate: refused } });

    const inline = await post(auth, { query: `mutation { profileUpdate(input: {name: "Changed", metadata: ${JSON.stringify(metadata)}}) { success record { metadata } errors { path message } } }` });
    expect(inline.status, inline.text).toBe(200);
    expect(inline.body).toEqual({ data: { profileUpdate: refused } });

    const [row] = await app.sql('select name, metadata from profile where id = $1', [decodeId('profile', profileId)]);
    expect(row.metadata).toEqual({ plan: 'gold' });
    expect(row.name).not.toBe('Changed');
  });

  it('is a validation failure as data in connectionUpdate, accountUpdate and transactionUpdate too', async () => {
    const { connections, accounts, transactions } = (await post(auth, { query: '{ connections { id } accounts { id } transactions(first: 1) { nodes { id } } }' })).body.data;
    for (const [mutation, id] of [
      ['connectionUpdate', connections[0].id],
      ['accountUpdate', accounts[0].id],
      ['transactionUpdate', transactions.nodes[0].id],
    ]) {
      const inputType = `${mutation[0].toUpperCase()}${mutation.slice(1)}Input`;
      const response = await post(auth, { query: `mutation($input: ${inputType}!) { ${mutation}(input: $input) { success record { id } errors { path message } } }`, variables: { input: { id, metadata: [1, 2] } } });
      expect(response.status, response.text).toBe(200);
      expect(response.body, mutation).toEqual({ data: { [mutation]: refused } });
    }
  });

  it('is still refused with BAD_USER_INPUT in a metadata filter, which is no mutation input', async () => {
    const viaVariables = await post(auth, { query: 'query($filter: AccountFilter) { accounts(filter: $filter) { id } }', variables: { filter: { metadata: ['plan'] } } });
    expect(viaVariables.body.data).toBeUndefined();
    expect(viaVariables.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/MetadataFilter must be a JSON object/), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
    const inline = await post(auth, { query: '{ accounts(filter: {metadata: "plan"}) { id } }' });
    expect(inline.body.data).toBeUndefined();
    expect(inline.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/MetadataFilter must be a JSON object/), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
  });
});

describe('HTTP status of GraphQL answers', () => {
  const depth11 = '{ transactions { edges { node { account { connection { accounts { connection { accounts { connection { accounts { id } } } } } } } } } } }';
  const REQUEST_ERRORS: [string, unknown, string][] = [
    ['a syntax error', { query: '{ profile { id }' }, 'GRAPHQL_VALIDATION_FAILED'],
    ['a validation error', { query: '{ profile { nope } }' }, 'GRAPHQL_VALIDATION_FAILED'],
    ['a document over the depth limit', { query: depth11 }, 'QUERY_TOO_COMPLEX'],
    ['a document over the token limit', { query: `{ profile { ${'id '.repeat(LIMITS.tokens)} } }` }, 'QUERY_TOO_COMPLEX'],
    ['a document over the alias limit', { query: `{ ${Array.from({ length: LIMITS.aliases + 1 }, (_, i) => `a${i}: __typename`).join(' ')} }` }, 'QUERY_TOO_COMPLEX'],
    ['a document over the cost limit', { query: 'query($n: Int) { transactions(first: $n) { nodes { account { connection { accounts { connection { accounts { connection { id } } } } } } } } }', variables: { n: 100 } }, 'QUERY_TOO_COMPLEX'],
    ['a variable that does not coerce', { query: 'query($d: Date) { transactions(filter: {date_gte: $d}) { count } }', variables: { d: '2026-02-30' } }, 'BAD_USER_INPUT'],
  ];

  it.each(REQUEST_ERRORS)('%s: 200 as application/json (also when nothing is asked for), 400 as application/graphql-response+json, never data', async (_what, body, code) => {
    for (const [accept, status, mediaType] of [
      [undefined, 200, JSON_TYPE],
      [JSON_TYPE, 200, JSON_TYPE],
      [`${GRAPHQL_RESPONSE}, ${JSON_TYPE};q=0.9`, 400, GRAPHQL_RESPONSE],
      [GRAPHQL_RESPONSE, 400, GRAPHQL_RESPONSE],
    ] as const) {
      const response = await post(auth, body, accept);
      expect(response.status, `${accept}: ${response.text}`).toBe(status);
      expect(response.headers['content-type']).toBe(`${mediaType}; charset=utf-8`);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors).toEqual([expect.objectContaining({ message: expect.any(String), extensions: expect.objectContaining({ code, errorId: expect.stringMatching(/^err_/) }) })]);
    }
  });

  it.each([
    ['no query', { variables: {} }],
    ['a query that is no string', { query: 42 }],
    ['a body that is no object', 'query'],
    ['a batch of 11', Array.from({ length: 11 }, () => ({ query: '{ __typename }' }))],
  ])('answers a request that is no GraphQL request (%s) with 400 in both media types', async (_what, body) => {
    for (const accept of [JSON_TYPE, GRAPHQL_RESPONSE]) {
      const response = await post(auth, body, accept);
      expect(response.status, `${accept}: ${response.text}`).toBe(400);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors).toEqual([expect.objectContaining({ message: expect.any(String), extensions: expect.objectContaining({ code: 'BAD_REQUEST' }) })]);
    }
  });

  it.each([
    ['a nullable field', '{ account(id: "acct_01jdq3v6x8f9k2m4n7p0r5s8tw") { id } }', { account: null }, 'NOT_FOUND'],
    ['a non-null root field (data: null)', '{ transactions(first: -1) { count } }', null, 'BAD_USER_INPUT'],
  ])('answers an error in %s, which ran, with 200 in both media types', async (_what, query, data, code) => {
    for (const accept of [JSON_TYPE, GRAPHQL_RESPONSE]) {
      const response = await post(auth, { query }, accept);
      expect(response.status, response.text).toBe(200);
      expect(response.headers['content-type']).toBe(`${accept}; charset=utf-8`);
      expect(response.body.data).toEqual(data);
      expect(response.body.errors[0].extensions.code).toBe(code);
    }
  });
});

describe('an API key on /v1/graphql', () => {
  const introspection = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true });

  it('runs the full introspection query, which describes the schema published at /latest/schema.graphql', async () => {
    const response = await post(app.apiKey, { query: introspection });
    expect(response.status, response.text).toBe(200);
    expect(response.body.errors).toBeUndefined();
    const introspected = printSchema(lexicographicSortSchema(buildClientSchema(response.body.data)));
    const published = (await app.http.get('/latest/schema.graphql')).text;
    expect(introspected).toBe(printSchema(lexicographicSortSchema(buildSchema(published))));
  });

  it.each([
    ['__typename', '{ __typename }', { __typename: 'Query' }],
    ['__type', '{ __type(name: "Profile") { name } }', { __type: { name: 'Profile' } }],
    ['introspection through fragments', 'query { ...Root ... on Query { __typename } } fragment Root on Query { __schema { queryType { name } } }', { __schema: { queryType: { name: 'Query' } }, __typename: 'Query' }],
  ])('runs an operation selecting only %s at its root, over POST and GET', async (_what, query, data) => {
    const posted = await post(app.apiKey, { query });
    expect(posted.status, posted.text).toBe(200);
    expect(posted.body).toEqual({ data });
    const got = await app.http.get(`/v1/graphql?query=${encodeURIComponent(query)}`, { auth: app.apiKey });
    expect(got.body).toEqual({ data });
  });

  it.each([
    ['a profile field', '{ profile { id } }'],
    ['a profile field beside introspection', '{ __typename profile { id } }'],
    ['a profile field under a skipped directive', '{ __typename profile @skip(if: true) { id } }'],
    ['a profile field through a fragment', 'query { ...Root } fragment Root on Query { __typename accounts { id } }'],
    ['a profile field through an inline fragment', '{ ... on Query { transactions { count } } }'],
    ['a mutation', 'mutation { profileUpdate(input: {name: "By key"}) { success } }'],
  ])('is refused with 403 for %s, before anything runs', async (_what, query) => {
    const response = await post(app.apiKey, { query });
    expectRestError(response, 403, 'FORBIDDEN');
    expect(response.body.message).toMatch(/only run introspection/);
    const [row] = await app.sql('select name from profile where id = $1', [decodeId('profile', profileId)]);
    expect(row.name).not.toBe('By key');
  });

  it('is judged by the operation a document with several selects: operationName decides, and none selected is refused', async () => {
    const query = 'query Schema { __schema { queryType { name } } } query Data { profile { id } }';
    const schema = await post(app.apiKey, { query, operationName: 'Schema' });
    expect(schema.status).toBe(200);
    expect(schema.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    expectRestError(await post(app.apiKey, { query, operationName: 'Data' }), 403, 'FORBIDDEN');
    expectRestError(await post(app.apiKey, { query }), 403, 'FORBIDDEN');
    expectRestError(await post(app.apiKey, { query, operationName: 'Missing' }), 403, 'FORBIDDEN');
  });

  it('gets request errors like anyone for a document that cannot run, and 403 for a batch holding a data operation', async () => {
    const syntax = await post(app.apiKey, { query: '{ __schema' });
    expect(syntax.status).toBe(200);
    expect(syntax.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const batch = await post(app.apiKey, [{ query: '{ __typename }' }, { query: '{ profile { id } }' }]);
    expectRestError(batch, 403, 'FORBIDDEN');
    const introspectionBatch = await post(app.apiKey, [{ query: '{ __typename }' }, { query: '{ __type(name: "Account") { name } }' }]);
    expect(introspectionBatch.body).toEqual([{ data: { __typename: 'Query' } }, { data: { __type: { name: 'Account' } } }]);
  });

  it('does not change what a profile or a missing credential gets', async () => {
    expect((await post(auth, { query: '{ profile { id } }' })).body).toEqual({ data: { profile: { id: profileId } } });
    const anonymous = await app.http.post('/v1/graphql', { json: { query: '{ __typename }' } });
    expectRestError(anonymous, 401, 'UNAUTHENTICATED');
  });
});

describe('published contracts', () => {
  it.each([
    ['/latest/schema.graphql', 'text/plain; charset=utf-8', SDL],
    ['/latest/rest.yaml', 'application/yaml', readFileSync(new URL('../../contracts/rest.yaml', import.meta.url), 'utf8')],
  ])('%s is served without credentials with an ETag, and 304 to If-None-Match while unchanged', async (path, contentType, content) => {
    const first = await app.http.get(path);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe(contentType);
    expect(first.text).toBe(content);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[\w-]{20,}"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect((await app.http.get(path)).headers.etag).toBe(etag);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const cached = await app.http.get(path, { headers: { 'If-None-Match': ifNoneMatch } });
      expect(cached.status, ifNoneMatch).toBe(304);
      expect(cached.text).toBe('');
      expect(cached.headers.etag).toBe(etag);
    }
    const stale = await app.http.get(path, { headers: { 'If-None-Match': '"an-older-version"' } });
    expect(stale.status).toBe(200);
    expect(stale.text).toBe(content);
  });

  it('gives the two documents different ETags, the same on another instance of the deployment', async () => {
    const other = await startTestApp({}, { shareDatabaseOf: app });
    try {
      for (const path of ['/latest/schema.graphql', '/latest/rest.yaml']) {
        expect((await other.http.get(path)).headers.etag).toBe((await app.http.get(path)).headers.etag);
      }
    } finally {
      await other.stop();
    }
    expect((await app.http.get('/latest/schema.graphql')).headers.etag).not.toBe((await app.http.get('/latest/rest.yaml')).headers.etag);
  });
});
