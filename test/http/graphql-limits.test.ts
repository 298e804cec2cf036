import { getIntrospectionQuery } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/graphql/limits.ts';
import type { ProfileEntity } from '../../src/modules/profile/profile.entity.ts';
import { builders } from '../support/builders.ts';
import { basicAuth } from '../support/factories.ts';
import { bombFields, fragmentBomb } from '../support/fragment-bomb.ts';
import { encodeId } from '../../src/lib/ids.ts';
import { liveClient, trustingFetch, type LiveClient, type Subscription } from '../support/live-client.ts';
import { connectionWithData } from '../support/profile-with-data.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

/** `count` aliases of an account's metadata. */
const metadataAliases = (count: number) => Array.from({ length: count }, (_, i) => `m${i}: metadata`).join(' ');
/**
 * The outside probe's document: inside every shape limit, and cost 223 while metadata was free. With
 * the largest metadata on each of five accounts, one event was 5³ × 30 copies of 25 KB (about 96 MB).
 */
const PROBE = `connectionSynced { connection { accounts { connection { accounts { connection { accounts { ${metadataAliases(30)} } } } } } } }`;
/** Within the cost limit (2,003), and still about 2.5 MB of JSON per event: the result limit's to refuse. */
const HEAVY = `subscription { connectionSynced { connection { accounts { ${metadataAliases(20)} } } } }`;
const SMALL = 'subscription { connectionSynced { connection { id } } }';

describe('GraphQL limits over HTTPS', () => {
  let app: TestApp;
  let auth: string;
  let profile: ProfileEntity;
  let profileId: string;
  let connectionId: string;
  const post = (body: unknown, headers: Record<string, string> = {}) => app.http.post('/v1/graphql', { auth, json: body, headers });
  const accountsMetadata = (aliases: number) => ({ query: `{ ${Array.from({ length: aliases }, (_, i) => `a${i}: accounts { metadata }`).join(' ')} }` });

  beforeAll(async () => {
    app = await startTestApp({ NODE_ENV: 'production', ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`, SESSION_SECRET: 'x'.repeat(48) });
    profile = await builders(app).profile();
    connectionId = await connectionWithData(app, profile.id);
    profileId = encodeId('profile', profile.id);
    auth = basicAuth(profileId, app.apiKey);
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

  it("refuses the outside probe's document as a query: its metadata counts toward the cost", async () => {
    const response = await post({ query: `{ connections { ${PROBE.replace(/^connectionSynced \{ connection \{ (.*) \} \}$/, '$1')} } }` });
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors).toEqual([{ message: expect.stringMatching(/^Query cost \d+ exceeds the limit of 5000/), extensions: { code: 'QUERY_TOO_COMPLEX', errorId: expect.stringMatching(/^err_/) } }]);
  });

  describe('subscription events', () => {
    const tooLarge = { errors: [{ message: expect.stringContaining(`${LIMITS.responseBytes} bytes`), extensions: { code: 'RESPONSE_TOO_LARGE', errorId: expect.stringMatching(/^err_/) } }] };
    /** Commits a connectionSynced event of the profile's connection, as a sync does. */
    const synced = () => builders(app).event({ type: 'connection.synced.successful', profile, record: { id: connectionId, status: 'SYNCED' } });

    const baseUrl = () => `https://localhost:${app.service.port}`;

    it("refuse the probe's document on every socket before it runs: its metadata counts toward the cost", async () => {
      const sockets: LiveClient[] = Array.from({ length: 4 }, () => liveClient(baseUrl(), auth));
      try {
        const probes = sockets.map((live) => live.subscribe(`subscription { ${PROBE} }`));
        await waitFor(async () => (probes.every((probe) => probe.errors.length > 0) ? true : undefined), "the probe's refusals");
        for (const probe of probes) {
          expect(probe.errors[0]).toEqual([{ message: expect.stringMatching(/^Query cost \d+ exceeds the limit of 5000/), extensions: { code: 'QUERY_TOO_COMPLEX', errorId: expect.stringMatching(/^err_/) } }]);
        }
      } finally {
        await Promise.all(sockets.map((live) => live.dispose()));
      }
    });

    it('send an event past 1 MiB to every socket and stream as a RESPONSE_TOO_LARGE error, not cut off, and the subscriptions go on', { timeout: 60_000 }, async () => {
      const sockets: LiveClient[] = Array.from({ length: 4 }, () => liveClient(baseUrl(), auth));
      const sse = createSseClient({ url: `${baseUrl()}/v1/graphql/stream`, headers: { Authorization: auth }, fetchFn: trustingFetch(), retryAttempts: 0 });
      const streamed: unknown[] = [];
      try {
        const subscribed = sockets.map((live) => ({ heavy: live.subscribe(HEAVY), small: live.subscribe(SMALL) }));
        let connected: () => void = () => {};
        const open = new Promise<void>((resolve) => (connected = resolve));
        sse.subscribe({ query: HEAVY }, { next: (result) => void streamed.push(result), error: (error) => void streamed.push(error), complete: () => {} }, { connected });
        await open;
        // Every socket's subscriptions have started once a refused query on it has been answered.
        await Promise.all(sockets.map((live) => new Promise((resolve) => live.client.subscribe({ query: '{ __typename }' }, { next: resolve, error: resolve, complete: () => {} }))));

        await synced();
        const results = async (subscription: Subscription, count: number) => (await subscription.next(count, 30_000), subscription.results.slice(count - 1));
        for (const { heavy, small } of subscribed) {
          expect(await results(heavy, 1)).toEqual([tooLarge]);
          expect(await results(small, 1)).toEqual([{ data: { connectionSynced: { connection: { id: connectionId } } } }]);
        }
        await waitFor(async () => (streamed.length > 0 ? true : undefined), 'the event over SSE');
        expect(streamed).toEqual([tooLarge]);
        expect((await app.http.get('/healthz')).status).toBe(200);

        // The sockets and the stream stay open: the next event comes the same way.
        await synced();
        for (const { heavy, small } of subscribed) {
          expect(await results(heavy, 2)).toEqual([tooLarge]);
          expect(await results(small, 2)).toEqual([{ data: { connectionSynced: { connection: { id: connectionId } } } }]);
        }
        await waitFor(async () => (streamed.length > 1 ? true : undefined), 'the second event over SSE');
        expect(streamed).toEqual([tooLarge, tooLarge]);
        for (const { heavy, small } of subscribed) expect([heavy.errors, small.errors]).toEqual([[], []]);
      } finally {
        sse.dispose();
        await Promise.all(sockets.map((live) => live.dispose()));
      }
    });
  });
});
