import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { auditServer } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { keepRecentStatements, queryStats, statementsSince } from '../../src/db/query-stats.ts';
import { basicAuth } from '../support/factories.ts';
import { profileWithData } from '../support/profile-with-data.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

// The statements this file counts are those the service sends in this process.
keepRecentStatements();

let app: TestApp;
let auth: string;
beforeAll(async () => {
  app = await startTestApp({ NODE_ENV: 'production', ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`, SESSION_SECRET: 'x'.repeat(48) });
  const { profile } = await profileWithData(app);
  auth = basicAuth(profile.id, app.apiKey);
});
afterAll(() => app?.stop());

/** fetch for the audits: this app's CA and the profile's credentials on every request. */
function authorizedFetch(ca: string) {
  return (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const headers = new Headers(init.headers);
    headers.set('Authorization', auth);
    return new Promise((resolve, reject) => {
      const req = request(url, { method: init.method ?? 'GET', headers: Object.fromEntries(headers), ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) responseHeaders.set(name, String(value));
          resolve(new Response(res.statusCode === 204 ? null : Buffer.concat(chunks), { status: res.statusCode, headers: responseHeaders }));
        });
      });
      req.on('error', reject);
      if (init.body) req.write(init.body as string); // the audits send JSON text
      req.end();
    });
  };
}

const post = (body: unknown, headers: Record<string, string> = {}) => app.http.post('/v1/graphql', { auth, json: body, headers });

describe('GraphQL over HTTP', () => {
  it('passes every MUST and SHOULD audit of the graphql-http server audit suite', async () => {
    const results = await auditServer({ url: `https://localhost:${app.service.port}/v1/graphql`, fetchFn: authorizedFetch(readFileSync(inject('tls').certFile, 'utf8')) });
    const failures = results.filter((result) => result.status === 'error' || result.status === 'warn').map((result) => `${result.name}: ${'reason' in result ? result.reason : ''}`);
    expect(failures).toEqual([]);
    expect(results.length).toBeGreaterThan(20);
  });

  it('answers a batch (a JSON array of operations) with an array of results in order, each on its own', async () => {
    const response = await post([
      { query: '{ profile { id } }' },
      { query: '{ account(id: "acct_01jdq3v6x8f9k2m4n7p0r5s8tw") { id } }' },
      { query: '{ nope }' },
      { query: 'query($n: Int) { transactions(first: $n) { nodes { id } } }', variables: { n: 2 } },
    ]);
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(4);
    expect(response.body[0].data.profile.id).toMatch(/^p_/);
    expect(response.body[1].errors[0].extensions.code).toBe('NOT_FOUND');
    expect(response.body[2].errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(response.body[3].data.transactions.nodes).toHaveLength(2);
    const tooMany = await post(Array.from({ length: 11 }, () => ({ query: '{ profile { id } }' })));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([{ message: 'A batch holds 1 to 10 operations, not 11', extensions: { code: 'BAD_REQUEST', errorId: expect.stringMatching(/^err_/) } }]);
  });

  it.each([
    ['depth', `{ transactions { edges { node { account { connection { accounts { connection { accounts { connection { accounts { id } } } } } } } } } } }`, /depth 11/],
    ['aliases', `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: profile { id }`).join(' ')} }`, /31 aliases/],
    ['tokens', `{ profile { ${'id '.repeat(2000)} } }`, /2000 tokens/],
    ['cost', `{ transactions(first: 100) { nodes { account { connection { accounts { connection { accounts { connection { id } } } } } } } } }`, /Query cost 12401 exceeds the limit of 5000/],
  ])('refuses a document over the %s limit before running it (no data; 200 as application/json)', async (_limit, query, message) => {
    const response = await post({ query });
    expect(response.status).toBe(200);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors[0].message).toMatch(message);
    expect(response.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('counts the cost of a variable page size, and keeps introspection on', async () => {
    const query = 'query($n: Int) { transactions(first: $n) { nodes { account { connection { accounts { connection { accounts { connection { id } } } } } } } } }';
    expect((await post({ query, variables: { n: 10 } })).body.data.transactions.nodes.length).toBeGreaterThan(0);
    expect((await post({ query, variables: { n: 100 } })).body).toEqual({ errors: [expect.objectContaining({ message: expect.stringMatching(/^Query cost 12401 exceeds/) })] });
    const introspection = await post({ query: '{ __schema { queryType { name } } }' });
    expect(introspection.body.data.__schema.queryType.name).toBe('Query');
  });

  it('does not suggest field names outside development', async () => {
    const response = await post({ query: '{ profil { id } }' });
    expect(response.body.errors[0].message).toBe('Cannot query field "profil" on type "Query".');
  });

  it('reads a page of 100 transactions with their accounts in one SQL statement, their balances in one more', async () => {
    // Background work (the webhook relay, cron jobs) shares the counter: count the financial tables only.
    const statements = async (first: number) => {
      const before = queryStats.statements;
      const response = await post({ query: `{ transactions(first: ${first}) { edges { node { id amount account { id name kind balance { current } } } } } }` });
      expect(response.body.data.transactions.edges).toHaveLength(first);
      return statementsSince(before).filter((sql) => /\b(transaction|account|balance)\b/.test(sql));
    };
    const small = await statements(3);
    const large = await statements(100);
    // The page and its accounts in one statement, the accounts' balances in one more (as many ids as accounts).
    expect(large).toHaveLength(2);
    expect(small).toHaveLength(2);
    expect(large[0]).toBe(small[0]);
    expect(large[0]).toMatch(/from transaction t where[\s\S]*from account a where a\.profile_id = \$1/);
  });
});

describe('refusals of the HTTP exchange itself', () => {
  const query = JSON.stringify({ query: '{ __typename }' });
  const errorBody = { message: expect.any(String), instruction: expect.any(String), requestId: expect.any(String), errorId: expect.stringMatching(/^err_/) };

  it('answers 406 for an Accept without a JSON media type, in the error body, also for a whole batch', async () => {
    for (const raw of [query, `[${query},${query}]`]) {
      const response = await app.http.post('/v1/graphql', { auth, raw, headers: { 'Content-Type': 'application/json', Accept: 'image/png' } });
      expect(response.status).toBe(406);
      expect(response.body).toMatchObject({ ...errorBody, code: 'NOT_ACCEPTABLE' });
    }
  });

  it('answers 415 for a Content-Type graphql-http cannot read, in the error body', async () => {
    const response = await app.http.post('/v1/graphql', { auth, raw: query, headers: { 'Content-Type': 'application/json; charset=latin1' } });
    expect(response.status).toBe(415);
    expect(response.body).toMatchObject({ ...errorBody, code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('answers 405 for a mutation over GET, in the error body with Allow', async () => {
    const response = await app.http.get(`/v1/graphql?query=${encodeURIComponent('mutation { __typename }')}`, { auth });
    expect(response.status).toBe(405);
    expect(response.body).toMatchObject({ ...errorBody, code: 'METHOD_NOT_ALLOWED', message: expect.stringMatching(/GET/) });
  });
});
