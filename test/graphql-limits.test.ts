import { readFileSync } from 'node:fs';
import { buildSchema, getIntrospectionQuery, Kind, parse, type DocumentNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, checkShape, measureCosts, measureShapes } from '../src/graphql/limits.ts';
import { basicAuth } from './support/factories.ts';
import { syncedProfile } from './support/synced-profile.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const schema = buildSchema(readFileSync(new URL('../contracts/schema.graphql', import.meta.url), 'utf8'));

/** `{ profile { ...F0 } }` where each of `levels` fragments selects `id` and spreads the next one ten times: 10^levels expansions in under a kilobyte. */
function fragmentBomb(levels: number): string {
  const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on Profile { id ${`...F${i + 1} `.repeat(10)}}`);
  return `{ profile { ...F0 } } ${fragments.join(' ')} fragment F${levels} on Profile { id }`;
}

/** 1 (`profile`) + 1 + 10 + … + 10^levels (each fragment's `id`, once per expansion). */
const bombFields = (levels: number) => 1 + (10 ** (levels + 1) - 1) / 9;

/** The document with every selection set counting how often its `selections` are read. */
function countingReads(query: string): { document: DocumentNode; reads: () => number } {
  let reads = 0;
  const wrap = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(wrap);
    if (typeof value !== 'object' || value === null) return value;
    const copy: Record<string, unknown> = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, wrap(inner)]));
    if (copy.kind !== Kind.SELECTION_SET) return copy;
    return new Proxy(copy, { get: (target, key) => (key === 'selections' && reads++, target[key as string]) });
  };
  return { document: wrap(parse(query, { noLocation: true })) as DocumentNode, reads: () => reads };
}

describe('the document walker', () => {
  it.each([4, 7, 9])('measures a 10^%i fragment bomb by reading each selection set once', (levels) => {
    const { document, reads } = countingReads(fragmentBomb(levels));
    expect(measureShapes(document)).toEqual([{ fields: bombFields(levels), depth: 2, aliases: 0 }]);
    // The operation, `profile`, and each fragment once (the unmemoised walk read 10^levels of them).
    expect(reads()).toBe(levels + 3);
    expect(checkShape(document)).toBe(`The operation selects ${bombFields(levels)} fields once its fragments are expanded; at most ${LIMITS.fields} are allowed`);
  });

  it('allows 400 fields, as the schema description says, and refuses 401', () => {
    expect(checkShape(parse(`{ profile { ${'id '.repeat(399)}} }`))).toBeUndefined();
    expect(checkShape(parse(`{ profile { ${'id '.repeat(400)}} }`))).toBe('The operation selects 401 fields once its fragments are expanded; at most 400 are allowed');
  });

  it('prices a fragment once and scales it at every spread', () => {
    const fragments = Array.from({ length: 6 }, (_, i) => `fragment A${i} on Account { connection { id } ${`...A${i + 1} `.repeat(10)}}`);
    const query = `{ accounts { ...A0 } } ${fragments.join(' ')} fragment A6 on Account { connection { id } }`;
    const { document, reads } = countingReads(query);
    // Each A_i costs 1 (connection) plus ten A_{i+1}: A6 = 1, A0 = 1111111; `accounts` is a list (×10).
    expect(measureCosts(schema, document, {})).toEqual([1 + 10 * 1111111]);
    // The operation, `accounts`, and each fragment with its `connection` once.
    expect(reads()).toBe(2 + 7 * 2);
  });

  it.each([
    ['{ profile { id names { first } } }', 1 + 1],
    ['{ accounts { connection { institution { name } } } }', 1 + 10 * (1 + 1)],
    ['{ transactions(first: 100) { nodes { account { id } } } }', 1 + 100 * (1 + 1)],
    ['query($n: Int) { transactions(first: $n) { edges { node { account { id } } } } }', 1 + 7 * (1 + 1 + 1)],
    ['{ transactions { nodes { ...T } } } fragment T on Transaction { account { ... on Account { connection { id } } } }', 1 + 25 * (1 + 1 + 1)],
    ['{ __schema { types { fields { name } } } profile { id } }', 1],
  ])('prices %s at %i', (query, cost) => {
    expect(measureCosts(schema, parse(query), { n: 7 })).toEqual([cost]);
  });

  it('counts introspection fields and their aliases, not their depth', () => {
    const [shape] = measureShapes(parse('{ a: __typename b: __schema { types { fields { type { ofType { ofType { name } } } } } } profile { id } }'));
    expect(shape).toEqual({ fields: 10, depth: 2, aliases: 2 });
  });

  it('counts every operation and inline fragment, and gives a fragment cycle or an unknown fragment no size', () => {
    expect(measureShapes(parse('query A { profile { id } } query B { profile { ... on Profile { x: id names { first } } } }'))).toEqual([
      { fields: 2, depth: 2, aliases: 0 },
      { fields: 4, depth: 3, aliases: 1 },
    ]);
    expect(measureShapes(parse('{ profile { ...A ...Missing } } fragment A on Profile { id ...B } fragment B on Profile { id ...A }'))).toEqual([{ fields: 3, depth: 2, aliases: 0 }]);
  });
});

describe('GraphQL limits over HTTPS', () => {
  let app: TestApp;
  let auth: string;
  let profileId: string;
  const post = (body: unknown, headers: Record<string, string> = {}) => app.http.post('/v1/graphql', { auth, json: body, headers });
  const accountsMetadata = (aliases: number) => ({ query: `{ ${Array.from({ length: aliases }, (_, i) => `a${i}: accounts { metadata }`).join(' ')} }` });

  beforeAll(async () => {
    app = await startTestApp({ NODE_ENV: 'production', ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`, SESSION_SECRET: 'x'.repeat(48) });
    const { profile } = await syncedProfile(app);
    profileId = profile.id;
    auth = basicAuth(profile.id, app.apiKey);
    // The largest metadata the rules allow, on every account: about 25 KB each.
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${String(i).padStart(2, '0')}`, 'x'.repeat(500)]));
    const accounts = (await post({ query: '{ accounts { id } }' })).body.data.accounts as { id: string }[];
    for (const { id } of accounts) {
      const update = await post({ query: 'mutation($input: AccountUpdateInput!) { accountUpdate(input: $input) { success } }', variables: { input: { id, metadata } } });
      expect(update.body.data.accountUpdate.success).toBe(true);
    }
  });
  afterAll(() => app?.stop());

  it.each([7, 9])('refuses a 10^%i fragment bomb while /healthz answers', async (levels) => {
    // Before the fix the walk and the compiler expanded every spread, holding the event loop (and this /healthz) for seconds to minutes.
    const [refused, health] = await Promise.all([post({ query: fragmentBomb(levels) }), app.http.get('/healthz')]);
    expect(refused.status).toBe(200);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors[0]).toMatchObject({ message: expect.stringContaining(`selects ${bombFields(levels)} fields`), extensions: { code: 'QUERY_TOO_COMPLEX' } });
    expect(health.status).toBe(200);
  });

  it('counts introspection fields against the alias limit: 100 aliased __schema are refused, alone and ten to a batch', async () => {
    const query = `{ ${Array.from({ length: 100 }, (_, i) => `a${i}: __schema { types { name } }`).join(' ')} }`;
    const alone = await post({ query });
    expect(alone.body.data).toBeUndefined();
    expect(alone.body.errors[0]).toMatchObject({ message: 'The operation uses 100 aliases; at most 30 are allowed', extensions: { code: 'QUERY_TOO_COMPLEX' } });
    const batch = await post(Array.from({ length: 10 }, () => ({ query })));
    expect(batch.status).toBe(200);
    expect(batch.body.map((result: { errors: { message: string }[] }) => result.errors[0].message)).toEqual(Array(10).fill(alone.body.errors[0].message));
  });

  it('still answers the full introspection query of GraphQL tools', async () => {
    const response = await post({ query: getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }) });
    expect(response.status).toBe(200);
    expect(response.body.data.__schema.types.map((type: { name: string }) => type.name)).toContain('Transaction');
  });

  it('refuses a result over 1 MiB with RESPONSE_TOO_LARGE instead of sending it: no data, 200 as application/json, 400 as application/graphql-response+json', async () => {
    const one = await post(accountsMetadata(1));
    expect(Buffer.byteLength(one.text) * 30).toBeGreaterThan(LIMITS.responseBytes);
    for (const [accept, status] of [['application/json', 200], ['application/graphql-response+json', 400]] as const) {
      const response = await post(accountsMetadata(30), { Accept: accept });
      expect(response.status).toBe(status);
      expect(response.headers['content-type']).toBe(`${accept}; charset=utf-8`);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors).toEqual([{ message: expect.stringContaining(`${LIMITS.responseBytes} bytes`), extensions: { code: 'RESPONSE_TOO_LARGE', errorId: expect.stringMatching(/^err_/) } }]);
      expect(response.text.length).toBeLessThan(1000);
    }
  });

  it('shares the 1 MiB across a batch: the operation that passes it and every later one are refused, the later ones without running', async () => {
    const perAlias = Buffer.byteLength((await post(accountsMetadata(1))).text);
    const aliases = Math.floor((0.45 * LIMITS.responseBytes) / perAlias);
    const fits = accountsMetadata(aliases);
    const rename = { query: 'mutation { profileUpdate(input: { name: "Renamed By Batch" }) { success } }' };
    const response = await post([fits, fits, accountsMetadata(30), rename]);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body[0].data)).toHaveLength(aliases);
    expect(response.body[1]).toEqual(response.body[0]);
    expect(response.body.slice(2).map((result: { errors: { extensions: { code: string } }[] }) => result.errors[0].extensions.code)).toEqual(['RESPONSE_TOO_LARGE', 'RESPONSE_TOO_LARGE']);
    expect(Buffer.byteLength(response.text)).toBeLessThan(LIMITS.responseBytes);
    const profile = await post({ query: '{ profile { id name } }' });
    expect(profile.body.data.profile).toMatchObject({ id: profileId, name: expect.not.stringContaining('Renamed') });
  });
});
