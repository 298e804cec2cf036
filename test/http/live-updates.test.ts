import { readFileSync } from 'node:fs';
import { connect as connectTls } from 'node:tls';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createProfile, basicAuth } from '../support/factories.ts';
import { createClient as createSseClient } from 'graphql-sse';
import type WebSocket from 'ws';
import { liveClient, trustingFetch, trustingWebSocket, type Closed, type LiveClient } from '../support/live-client.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';
import { uuidv7 } from '../../src/lib/ids.ts';

let app: TestApp;
let baseUrl: string;

beforeAll(async () => {
  app = await startTestApp();
  baseUrl = `https://localhost:${app.service.port}`;
});
afterAll(() => app?.stop());

const CONNECTION_EVENTS = `subscription { connectionSynced { eventId at status changes { added modified removed } connection { id status accounts { id } } } }`;
const CREATED = `subscription { connectionCreated { eventId status connection { id } } }`;

async function connect(profileId: string) {
  const response = await app.http.post('/v1/sandbox/connections', {
    auth: app.apiKey,
    json: { profileId, institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good' },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string };
}

async function sessionOf(profileId: string): Promise<string> {
  const response = await app.http.post('/v1/users/sessions', { auth: app.apiKey, json: { userId: profileId } });
  expect(response.status, response.text).toBe(201);
  return response.body.token as string;
}

/** A raw socket speaking graphql-ws's subprotocol, to send what no client library would (or to stop reading). */
async function rawSocket(url = baseUrl, options: WebSocket.ClientOptions = {}) {
  const Socket = trustingWebSocket(options);
  const socket = new Socket(`${url.replace('https:', 'wss:')}/v1/graphql`, 'graphql-transport-ws');
  const closed = new Promise<Closed>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  // A connection the service breaks shows in `closed` (1006).
  socket.on('error', () => {});
  return { socket, closed };
}

/** A graphql-ws message as ws hands it on (a Buffer: ws's default binaryType). */
function message(data: WebSocket.RawData): { id?: string; type: string } {
  return JSON.parse((data as Buffer).toString()) as { id?: string; type: string };
}

/** Sends `connection_init` with `authorization`: the service's first message back, or how it closed the socket. */
function init({ socket, closed }: { socket: WebSocket; closed: Promise<Closed> }, authorization: string): Promise<unknown> {
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization } }));
  return Promise.race([new Promise((resolve) => socket.once('message', (data) => resolve(message(data)))), closed]);
}

/** Resolves once every subscription sent before on `live` has started: a refused query's round trip. */
function roundTrip(live: LiveClient): Promise<unknown> {
  return new Promise((resolve) => live.client.subscribe({ query: '{ __typename }' }, { next: resolve, error: resolve, complete: () => {} }));
}

describe('subscriptions over graphql-ws', () => {
  it("deliver a profile's committed connection events, read when sent, and nothing of another profile", async () => {
    const [profile, other] = [await createProfile(app), await createProfile(app)];
    const mine = liveClient(baseUrl, basicAuth(profile.id, app.apiKey));
    const theirs = liveClient(baseUrl, `Bearer ${await sessionOf(other.id)}`);
    try {
      const synced = mine.subscribe(CONNECTION_EVENTS);
      const created = mine.subscribe(CREATED);
      const othersCreated = theirs.subscribe(CREATED);
      const othersSynced = theirs.subscribe(CONNECTION_EVENTS);
      // Both sockets are acknowledged and subscribed once a round trip on each has come back.
      await Promise.all([mine, theirs].map(roundTrip));

      const connection = await connect(profile.id);
      const first = await created.next(1);
      expect(first.errors).toBeUndefined();
      expect(first.data).toEqual({ connectionCreated: { eventId: expect.stringMatching(/^evt_/), status: 'INITIALIZING', connection: { id: connection.id } } });
      const sync = await synced.next(1);
      expect(sync.errors).toBeUndefined();
      const event = (sync.data as { connectionSynced: { eventId: string; status: string; changes: { added: number }; connection: { id: string; status: string; accounts: unknown[] } } }).connectionSynced;
      expect(event.status).toBe('SYNCED');
      expect(event.connection.id).toBe(connection.id);
      expect(event.connection.accounts.length).toBeGreaterThan(0);
      // What changed, as the event log (and webhooks) carry it in the envelope's metadata.
      expect(event.changes.added).toBeGreaterThan(0);
      const logged = await app.http.get(`/v1/events/${event.eventId}`, { auth: app.apiKey });
      expect(logged.body.metadata).toMatchObject({ changes: event.changes });

      // The other profile's own event comes after the first profile's in the feed's one order: had
      // the first profile's events reached it, they would be there before it.
      const theirConnection = await connect(other.id);
      const theirFirst = await othersCreated.next(1);
      expect(theirFirst.data).toMatchObject({ connectionCreated: { connection: { id: theirConnection.id } } });
      expect(othersCreated.results).toHaveLength(1);
      await othersSynced.next(1);
      expect(othersSynced.results.map((result) => (result.data as { connectionSynced: { connection: { id: string } } }).connectionSynced.connection.id)).toEqual([theirConnection.id]);
      expect(created.results).toHaveLength(1);
    } finally {
      await Promise.all([mine.dispose(), theirs.dispose()]);
    }
  });
});

describe('credentials', () => {
  it('a revoked session token closes its sockets with 4401', async () => {
    const profile = await createProfile(app);
    const token = await sessionOf(profile.id);
    const live = liveClient(baseUrl, `Bearer ${token}`);
    try {
      const synced = live.subscribe(CONNECTION_EVENTS);
      await connect(profile.id);
      await synced.next(1);
      expect((await app.http.delete('/v1/users/session', { auth: `Bearer ${token}` })).status).toBe(204);
      expect(await live.closed).toMatchObject({ code: 4401 });
    } finally {
      await live.dispose();
    }
  });

  it('an API key alone (4403), a missing or wrong credential (4401) never get a subscription', async () => {
    const profile = await createProfile(app);
    const cases: Array<[string | undefined, number]> = [
      [`Bearer ${app.apiKey}`, 4403],
      [undefined, 4401],
      [basicAuth(profile.id, 'sk_wrong'), 4401],
      ['Bearer not.a.token', 4401],
    ];
    for (const [authorization, code] of cases) {
      const live = liveClient(baseUrl, authorization);
      const subscription = live.subscribe(CREATED);
      expect(await live.closed, String(authorization)).toMatchObject({ code });
      expect(subscription.results).toEqual([]);
      await live.dispose();
    }
  });
});

describe('documents', () => {
  it('obey the query limits, and only subscriptions run over the socket', async () => {
    const profile = await createProfile(app);
    const live = liveClient(baseUrl, basicAuth(profile.id, app.apiKey));
    try {
      const tooDeep = live.subscribe(`subscription { connectionSynced { connection { accounts { connection { accounts { connection { accounts { connection { accounts { connection { accounts { id } } } } } } } } } } } }`);
      const query = live.subscribe('{ profile { id } }');
      const invalid = live.subscribe('subscription { connectionSynced { nope } }');
      for (const subscription of [tooDeep, query, invalid]) {
        for (let tries = 0; subscription.errors.length === 0 && tries < 200; tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const codes = [tooDeep, query, invalid].map((subscription) => (subscription.errors[0] as Array<{ extensions: { code: string; errorId: string } }>)[0]!.extensions);
      expect(codes.map((extensions) => extensions.code)).toEqual(['QUERY_TOO_COMPLEX', 'BAD_REQUEST', 'GRAPHQL_VALIDATION_FAILED']);
      for (const extensions of codes) expect(extensions.errorId).toMatch(/^err_/);
    } finally {
      await live.dispose();
    }
  });
});

describe('over plain HTTP', () => {
  it('a subscription sent to POST /v1/graphql is refused as a request error, not run', async () => {
    const profile = await createProfile(app);
    const response = await app.http.post('/v1/graphql', { auth: basicAuth(profile.id, app.apiKey), json: { query: CREATED }, headers: { Accept: 'application/graphql-response+json' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ errors: [expect.objectContaining({ message: 'Subscriptions are not supported', extensions: expect.objectContaining({ errorId: expect.stringMatching(/^err_/) }) })] });
  });
});

describe('caps', () => {
  it('a socket holds 20 subscriptions: the 21st closes it with 1008 and a reason naming the cap', async () => {
    const profile = await createProfile(app);
    const live = liveClient(baseUrl, basicAuth(profile.id, app.apiKey));
    try {
      for (let i = 0; i < 21; i += 1) live.subscribe(CREATED);
      expect(await live.closed).toEqual({ code: 1008, reason: 'At most 20 subscriptions per socket' });
    } finally {
      await live.dispose();
    }
  });
});

describe('caps per address', () => {
  it('an address holds 20 live sockets: the 21st upgrade is refused 429 in the error shape', async () => {
    const Socket = trustingWebSocket();
    const url = `${baseUrl.replace('https:', 'wss:')}/v1/graphql`;
    const held: InstanceType<typeof Socket>[] = [];
    try {
      for (let i = 0; i < 20; i += 1) {
        const socket = new Socket(url, 'graphql-transport-ws');
        await new Promise((resolve, reject) => {
          socket.once('open', resolve);
          socket.once('error', reject);
        });
        held.push(socket);
      }
      const refused = new Socket(url, 'graphql-transport-ws');
      const response = await new Promise<{ status: number; body: string }>((resolve) => {
        refused.once('unexpected-response', (_request, res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        refused.once('error', () => {});
      });
      expect(response.status).toBe(429);
      expect(JSON.parse(response.body)).toMatchObject({ code: 'RATE_LIMITED', requestId: expect.stringMatching(/^req_/), errorId: expect.stringMatching(/^err_/) });
    } finally {
      await Promise.all(held.map((socket) => new Promise((resolve) => (socket.once('close', resolve), socket.close()))));
    }
  });
});

describe('malformed frames and init payloads', () => {
  it('are closed with a code and a reason that quotes nothing back, and the service keeps answering', async () => {
    const frames: Array<[string | Buffer, number]> = [
      ['not json', 4400],
      [JSON.stringify({ type: 'connection_init', payload: 'a string' }), 4400],
      [JSON.stringify({ type: 'connection_init', payload: { authorization: 42 } }), 4401],
      [JSON.stringify({ type: 'connection_init', payload: { authorization: `Basic ${'A'.repeat(9000)}` } }), 4401],
      [JSON.stringify({ type: 'subscribe', id: '1', payload: { query: 'subscription { connectionCreated { eventId } }' } }), 4401],
      [Buffer.alloc(70 * 1024, 'x'), 1009],
    ];
    for (const [frame, code] of frames) {
      const { socket, closed } = await rawSocket();
      socket.send(frame);
      const result = await closed;
      expect(result.code, String(frame).slice(0, 60)).toBe(code);
      expect(result.reason).not.toMatch(/AAAA|a string|at .*\.ts/);
    }
    const health = await app.http.get('/healthz');
    expect(health.status).toBe(200);
  });

  it('an upgrade on another path is refused 404 in the error shape', async () => {
    const Socket = trustingWebSocket();
    const socket = new Socket(`${baseUrl.replace('https:', 'wss:')}/v1/profiles`, 'graphql-transport-ws');
    const response = await new Promise<{ status: number; body: string }>((resolve) => {
      socket.once('unexpected-response', (_request, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      socket.once('error', () => {});
    });
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'NOT_FOUND', requestId: expect.stringMatching(/^req_/), errorId: expect.stringMatching(/^err_/) });
  });
});

describe('the event feed', () => {
  it('lost: subscriptions end with INTERNAL_SERVER_ERROR; once it is back, new subscriptions receive events again', async () => {
    const profile = await createProfile(app);
    const live = liveClient(baseUrl, basicAuth(profile.id, app.apiKey));
    const listening = async () => (await app.sql(`select pid from pg_stat_activity where application_name = 'tributary-live' and datname = current_database()`)).map((row) => row.pid as number);
    try {
      const before = live.subscribe(CREATED);
      await roundTrip(live);
      const [pid] = await listening();
      await app.sql('select pg_terminate_backend($1)', [pid]);
      for (let tries = 0; before.errors.length === 0 && tries < 200; tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(before.errors[0]).toEqual([{ message: expect.stringMatching(/subscribe again/), extensions: { code: 'INTERNAL_SERVER_ERROR', errorId: expect.stringMatching(/^err_/) } }]);
      await waitFor(async () => ((await listening()).some((other) => other !== pid) ? true : undefined), 'the feed to reconnect');
      // The new backend shows before its LISTEN has answered, and until then a subscription is ended
      // at once ("subscribe again"): subscribe again, as a client does, until one is kept.
      const after = await waitFor(async () => {
        const attempt = live.subscribe(CREATED);
        await roundTrip(live);
        return attempt.errors.length === 0 ? attempt : undefined;
      }, 'a subscription the feed keeps once it is back');
      const connection = await connect(profile.id);
      expect((await after.next(1)).data).toMatchObject({ connectionCreated: { connection: { id: connection.id } } });
    } finally {
      await live.dispose();
    }
  });
});

describe('subscriptions over server-sent events (graphql-sse)', () => {
  function sseClient(authorization: string) {
    return createSseClient({ url: `${baseUrl}/v1/graphql/stream`, headers: { Authorization: authorization }, fetchFn: trustingFetch(), retryAttempts: 0 });
  }

  it("deliver a profile's events with graphql-sse's client, and end when the session is revoked", async () => {
    const profile = await createProfile(app);
    const token = await sessionOf(profile.id);
    const client = sseClient(`Bearer ${token}`);
    const results: unknown[] = [];
    let ended: unknown;
    let connected: () => void = () => {};
    const open = new Promise<void>((resolve) => (connected = resolve));
    const done = new Promise<void>((resolve) => {
      client.subscribe({ query: CREATED }, { next: (result) => void results.push(result), error: (error) => ((ended = error), resolve()), complete: resolve }, { connected });
    });
    try {
      // The service answers the stream's headers once the subscription follows the feed.
      await open;
      const connection = await connect(profile.id);
      await waitFor(async () => (results.length > 0 ? true : undefined), 'the event over SSE');
      expect(results[0]).toMatchObject({ data: { connectionCreated: { status: 'INITIALIZING', connection: { id: connection.id } } } });
      expect((await app.http.delete('/v1/users/session', { auth: `Bearer ${token}` })).status).toBe(204);
      await done;
      expect(results).toHaveLength(1);
      expect(ended).toBeDefined();
    } finally {
      client.dispose();
    }
  });

  it('refuse an API key (403), a query (400 in the error shape) and a non-stream Accept (406)', async () => {
    const profile = await createProfile(app);
    const post = (auth: string, query: string, accept = 'text/event-stream') => app.http.post('/v1/graphql/stream', { auth, json: { query }, headers: { Accept: accept } });
    expect((await post(app.apiKey, CREATED)).status).toBe(403);
    const query = await post(basicAuth(profile.id, app.apiKey), '{ profile { id } }');
    expect(query.status).toBe(400);
    expect(query.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', errorId: expect.stringMatching(/^err_/) });
    expect((await post(basicAuth(profile.id, app.apiKey), CREATED, 'application/json')).status).toBe(406);
  });
});

describe('shutdown', () => {
  it('ends open WebSockets (1001) and event streams, so a stopping instance does not wait on them', { timeout: 60_000 }, async () => {
    const instance = await startTestApp({}, { shareDatabaseOf: app });
    const url = `https://localhost:${instance.service.port}`;
    const profile = await createProfile(app);
    const live = liveClient(url, basicAuth(profile.id, app.apiKey));
    live.subscribe(CREATED);
    const sse = createSseClient({ url: `${url}/v1/graphql/stream`, headers: { Authorization: basicAuth(profile.id, app.apiKey) }, fetchFn: trustingFetch(), retryAttempts: 0 });
    let connected: () => void = () => {};
    const open = new Promise<void>((resolve) => (connected = resolve));
    const streamEnded = new Promise<void>((resolve) => sse.subscribe({ query: CREATED }, { next: () => {}, error: () => resolve(), complete: resolve }, { connected }));
    try {
      await open;
      await roundTrip(live);
      await instance.stop();
      expect(await live.closed).toMatchObject({ code: 1001 });
      await streamEnded;
    } finally {
      sse.dispose();
      await live.dispose();
    }
  });
});

describe('idle sockets', () => {
  it('one without a subscription for LIVE_IDLE_TIMEOUT_MS is closed (1000), one whose subscription completed too; one with a subscription stays', { timeout: 60_000 }, async () => {
    const instance = await startTestApp({ LIVE_IDLE_TIMEOUT_MS: '1000' }, { shareDatabaseOf: app });
    const url = `https://localhost:${instance.service.port}`;
    const profile = await createProfile(app);
    const [busy, idle, done] = [0, 1, 2].map(() => liveClient(url, basicAuth(profile.id, app.apiKey))) as [LiveClient, LiveClient, LiveClient];
    try {
      const created = busy.subscribe(CREATED);
      await roundTrip(busy);
      const unsubscribe = done.client.subscribe({ query: CREATED }, { next: () => {}, error: () => {}, complete: () => {} });
      await roundTrip(done);
      unsubscribe();
      expect(await idle.closed).toEqual({ code: 1000, reason: 'Idle: no subscription' });
      expect(await done.closed).toEqual({ code: 1000, reason: 'Idle: no subscription' });
      // Open as long as the idle ones, it still receives.
      const connection = await connect(profile.id);
      expect((await created.next(1)).data).toMatchObject({ connectionCreated: { connection: { id: connection.id } } });
    } finally {
      await Promise.all([busy, idle, done].map((live) => live.dispose()));
      await instance.stop();
    }
  });
});

describe('caps per profile', () => {
  const CAP = 'At most 50 live-update connections per profile (sockets and streams together)';

  /** A raw SSE request: its response once the service answers its headers (a stream's once it follows the feed). */
  async function stream(authorization: string) {
    const abort = new AbortController();
    const response = await trustingFetch()(`${baseUrl}/v1/graphql/stream`, {
      method: 'POST',
      headers: { Authorization: authorization, Accept: 'text/event-stream', 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: CREATED }),
      signal: abort.signal,
    });
    return { response, close: () => abort.abort() };
  }

  it('a profile holds 50 live connections, sockets and SSE streams together, whatever their addresses: past them a socket closes with 1008 and a stream is refused 429, naming the cap; another profile still gets in', { timeout: 60_000 }, async () => {
    const [profile, other] = [await createProfile(app), await createProfile(app)];
    const auth = basicAuth(profile.id, app.apiKey);
    // Spread over loopback addresses: 20 sockets per address is a cap of its own.
    const from = (i: number) => ({ localAddress: `127.0.0.${10 + Math.floor(i / 20)}`, family: 4 });
    const held: Array<Awaited<ReturnType<typeof rawSocket>>> = [];
    const streams: Array<Awaited<ReturnType<typeof stream>>> = [];
    const open = async (i: number) => {
      const raw = await rawSocket(baseUrl, from(i));
      held.push(raw);
      return raw;
    };
    try {
      for (let i = 0; i < 25; i += 1) expect(await init(await open(i), auth)).toEqual({ type: 'connection_ack' });
      for (let i = 0; i < 25; i += 1) {
        streams.push(await stream(auth));
        expect(streams.at(-1)!.response.status).toBe(200);
      }
      expect(await init(await open(25), auth)).toEqual({ code: 1008, reason: CAP });
      const refused = await stream(auth);
      expect(refused.response.status).toBe(429);
      expect(await refused.response.json()).toMatchObject({ code: 'RATE_LIMITED', message: CAP, requestId: expect.stringMatching(/^req_/), errorId: expect.stringMatching(/^err_/) });
      expect(await init(await open(26), basicAuth(other.id, app.apiKey))).toEqual({ type: 'connection_ack' });
      const others = await stream(basicAuth(other.id, app.apiKey));
      streams.push(others);
      expect(others.response.status).toBe(200);

      // A closed stream gives its seat back (once the service has seen it close).
      streams.shift()!.close();
      await waitFor(async () => ((await init(await open(27), auth)) as { type?: string }).type === 'connection_ack' || undefined, 'the closed stream\'s seat');
    } finally {
      for (const { close } of streams) close();
      await Promise.all(held.map(({ socket, closed }) => (socket.close(), closed)));
    }
  });
});

describe('a slow consumer', () => {
  /** One metric's value, from the instance's `GET /metrics`. */
  async function metric(instance: TestApp, line: string): Promise<number> {
    const text = await (await fetch(`http://127.0.0.1:${instance.service.metricsPort}/metrics`)).text();
    const found = text.split('\n').find((candidate) => candidate.startsWith(`${line} `));
    return found === undefined ? 0 : Number(found.slice(line.length + 1));
  }

  /**
   * A second instance on the database, a profile whose connection has synced and holds the largest
   * metadata (50 values of 500 characters), `big`: a subscription whose every event carries it 30
   * times (about 800 KB), and `publish(n)`: n copies of the sync's event through the outbox like any
   * committed event.
   */
  async function slowConsumerSetup() {
    const instance = await startTestApp({ METRICS_PORT: '0' }, { shareDatabaseOf: app });
    const profile = await createProfile(app);
    const auth = basicAuth(profile.id, app.apiKey);
    const connection = await connect(profile.id);
    const [synced] = await waitFor(async () => {
      const rows = await app.sql(`select id from event where type = 'connection.synced.successful' and payload->'record'->>'id' = $1`, [connection.id]);
      return rows.length > 0 ? rows : undefined;
    }, 'the first sync');
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`key${i}`, 'x'.repeat(500)]));
    const update = await app.http.post('/v1/graphql', { auth, json: { query: 'mutation($input: ConnectionUpdateInput!) { connectionUpdate(input: $input) { success } }', variables: { input: { id: connection.id, metadata } } } });
    expect(update.body).toEqual({ data: { connectionUpdate: { success: true } } });
    const big = `subscription { connectionSynced { connection { ${Array.from({ length: 30 }, (_, i) => `m${i}: metadata`).join(' ')} } } }`;
    const publish = (events: number) =>
      app.sql(
        `insert into event (id, environment_id, profile_id, type, at, payload)
         select ids.id, environment_id, profile_id, type, now(), payload from event, unnest($2::uuid[]) as ids(id) where event.id = $1`,
        [synced.id, Array.from({ length: events }, () => uuidv7())],
      );
    // Cut off as a slow consumer (not by the keep-alive), and its connection let go on the service's side.
    const cutOff = () =>
      waitFor(async () => ((await metric(instance, 'tributary_live_cut_offs_total{reason="slow_consumer"}')) === 1 && (await metric(instance, 'tributary_live_sockets')) === 0) || undefined, 'the slow consumer to be cut off and its connection let go');
    return { instance, auth, big, publish, cutOff };
  }

  it('that stops reading is cut off once more than 2 MiB waits for it, and the service lets go of its socket', { timeout: 60_000 }, async () => {
    const { instance, auth, big, publish, cutOff } = await slowConsumerSetup();
    const raw = await rawSocket(`https://localhost:${instance.service.port}`);
    try {
      expect(await init(raw, auth)).toEqual({ type: 'connection_ack' });
      let received = 0;
      raw.socket.on('message', (data) => void (message(data).type === 'next' && (received += 1)));
      // 19 subscriptions and a refused query whose answer says the 19 have started (20 at once at most).
      const SUBSCRIPTIONS = 19;
      for (let i = 0; i < SUBSCRIPTIONS; i += 1) raw.socket.send(JSON.stringify({ type: 'subscribe', id: `s${i}`, payload: { query: big } }));
      const started = new Promise((resolve) => raw.socket.on('message', (data) => message(data).id === 'probe' && resolve(undefined)));
      raw.socket.send(JSON.stringify({ type: 'subscribe', id: 'probe', payload: { query: '{ __typename }' } }));
      await started;

      raw.socket.pause();
      const EVENTS = 10;
      await publish(EVENTS);
      await cutOff();

      // Once it reads again, it finds what had got through before the cut, and the connection's end.
      raw.socket.resume();
      expect(await raw.closed).toMatchObject({ code: 1006 });
      expect(received).toBeLessThan(EVENTS * SUBSCRIPTIONS);
    } finally {
      raw.socket.terminate();
      await instance.stop();
    }
  });

  it('over SSE that stops reading is cut off the same way, instead of its events queueing in memory without end', { timeout: 60_000 }, async () => {
    const { instance, auth, big, publish, cutOff } = await slowConsumerSetup();
    const socket = connectTls({ host: '127.0.0.1', port: instance.service.port, servername: 'localhost', ca: readFileSync(inject('tls').certFile, 'utf8') });
    try {
      const body = JSON.stringify({ query: big });
      await new Promise((resolve) => socket.once('secureConnect', resolve));
      socket.write(`POST /v1/graphql/stream HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      // The stream's headers and first ping, then nothing more is read: ~32 MB of events fill the
      // kernel's buffers on both sides, then what the service holds for the stream.
      const headers = await new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
      expect(headers).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      socket.pause();
      await publish(40);
      await cutOff();
    } finally {
      socket.destroy();
      await instance.stop();
    }
  });
});
