import { readFileSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const ca = readFileSync(inject('tls').certFile, 'utf8');
/** Far past every timeout configured here: a connection still open by then would never have been closed. */
const BOUND_MS = 15_000;
const DRIBBLE_EVERY_MS = 200;

/** Waits until the server closes the connection (or BOUND_MS passes) and returns what it sent. */
function outcome(socket: Socket): Promise<{ closedByServer: boolean; received: string }> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('error', () => {}); // writes racing the server's close; the outcome is what counts
    const bound = setTimeout(() => {
      resolve({ closedByServer: false, received });
      socket.destroy();
    }, BOUND_MS);
    socket.once('close', () => {
      clearTimeout(bound);
      resolve({ closedByServer: true, received });
    });
  });
}

/** Writes `piece` every DRIBBLE_EVERY_MS for as long as the connection stays open. */
function dribble(socket: Socket, piece: string): void {
  const timer = setInterval(() => socket.write(piece), DRIBBLE_EVERY_MS);
  socket.once('close', () => clearInterval(timer));
}

function openTls(port: number, host = '127.0.0.1'): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host, port, servername: 'localhost', ca }, () => resolve(socket));
    socket.once('error', reject);
  });
}

function expectRequestTimeout(received: string) {
  const [head, body] = received.split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  expect(head).toMatch(/\r\nConnection: close(\r\n|$)/);
  expect(JSON.parse(body!)).toEqual({
    code: 'REQUEST_TIMEOUT',
    message: 'The request did not arrive in time: headers are allowed 1 s and the whole request 2 s',
    instruction: expect.any(String),
    requestId: expect.stringMatching(/^req_/),
    errorId: expect.stringMatching(/^err_/),
  });
}

describe('slow clients are cut off, without credentials', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ HANDSHAKE_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000', KEEP_ALIVE_TIMEOUT_MS: '1000' });
  });
  afterAll(() => app?.stop());

  it('closes a TCP connection that never sends a byte', async () => {
    expect(await outcome(netConnect(app.service.port, '127.0.0.1'))).toEqual({ closedByServer: true, received: '' });
  });

  it('closes a connection that stalls in the TLS handshake', async () => {
    const socket = netConnect(app.service.port, '127.0.0.1', () => socket.write(Buffer.from([0x16, 0x03, 0x01])));
    expect(await outcome(socket)).toEqual({ closedByServer: true, received: '' });
  });

  it('closes a TLS connection that sends nothing after the handshake, with a 408', async () => {
    const { closedByServer, received } = await outcome(await openTls(app.service.port));
    expect(closedByServer).toBe(true);
    expectRequestTimeout(received);
  });

  it('closes a connection whose headers trickle in, with a 408', async () => {
    const socket = await openTls(app.service.port);
    const result = outcome(socket);
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
    dribble(socket, 'X-Slow: 1\r\n');
    const { closedByServer, received } = await result;
    expect(closedByServer).toBe(true);
    expectRequestTimeout(received);
  });

  it('closes a connection whose body trickles in, with a 408', async () => {
    const socket = await openTls(app.service.port);
    const result = outcome(socket);
    socket.write('POST /v1/profiles HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
    dribble(socket, ' ');
    const { closedByServer, received } = await result;
    expect(closedByServer).toBe(true);
    expectRequestTimeout(received);
  });

  it('serves a prompt client, then closes its idle kept-alive connection', async () => {
    const socket = await openTls(app.service.port);
    const result = outcome(socket);
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const { closedByServer, received } = await result;
    expect(closedByServer).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received).toMatch(/\r\nKeep-Alive: timeout=1\r\n/);
    expect(received).toMatch(/\{"status":"ok"\}$/);
  });
});

describe('a body the service does not read, on a connection it closes', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.stop());

  const BODY_BYTES = 5 * 1024 * 1024;
  const FIRST_PIECE = 64 * 1024;

  /**
   * POSTs a 5 MiB body with Connection: close, sending most of it only once the answer has begun to
   * arrive: a client still writing when the server answers, which is what a large upload usually is.
   */
  async function sendOversized(): Promise<{ received: string; error: string | undefined }> {
    const socket = await openTls(app.service.port);
    let error: string | undefined;
    socket.on('error', (failure: NodeJS.ErrnoException) => (error ??= failure.code ?? failure.message));
    const answered = new Promise((resolve) => socket.once('data', resolve));
    const result = outcome(socket);
    socket.write(`POST /v1/profiles HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${BODY_BYTES}\r\nConnection: close\r\n\r\n`);
    socket.write(' '.repeat(FIRST_PIECE));
    await answered;
    socket.end(' '.repeat(BODY_BYTES - FIRST_PIECE));
    const { closedByServer, received } = await result;
    expect(closedByServer).toBe(true);
    return { received, error };
  }

  it('answers 413 and reads the rest of the body before closing, every time, so the answer is not reset away', async () => {
    for (let attempt = 0; attempt < 10; attempt++) {
      const { received, error } = await sendOversized();
      expect(error).toBeUndefined();
      expect(received).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
      expect(JSON.parse(received.split('\r\n\r\n')[1]!)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    }
  });
});

describe.each([
  ['IPv4', '127.0.0.1'],
  // One IPv6 address stands for its /64 (test/client-address.test.ts checks the keying itself).
  ['IPv6', '::1'],
])('open connections per client address, over %s', (_family, host) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ HOST: host, MAX_CONNECTIONS_PER_ADDRESS: '3' });
  });
  afterAll(() => app?.stop());

  it('refuses a connection past the cap, and admits one again once another closes', async () => {
    const open = () => openTls(app.service.port, host);
    const held = [await open(), await open(), await open()];
    await expect(open()).rejects.toThrow(/ECONNRESET|socket disconnected/);
    const closed = new Promise((resolve) => held[0]!.once('close', resolve));
    held[0]!.destroy();
    await closed;
    // The server learns of the close a moment after the client: retry a bounded number of times.
    let admitted: TLSSocket | undefined;
    for (let attempt = 0; attempt < 20 && !admitted; attempt++) {
      admitted = await open().catch(() => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100)));
    }
    expect(admitted).toBeDefined();
    for (const socket of [...held, admitted!]) socket.destroy();
  });
});

describe('configuration', () => {
  it('defaults to 10 s handshake and headers, 30 s request, 5 s keep-alive, 64 connections per address, 60 s for an idle live socket', () => {
    expect(loadConfig({}).connections).toEqual({ handshakeTimeoutMs: 10_000, headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxPerAddress: 64, liveIdleTimeoutMs: 60_000 });
    expect(() => loadConfig({ LIVE_IDLE_TIMEOUT_MS: '500' })).toThrow(/LIVE_IDLE_TIMEOUT_MS must be an integer from 1000 to 3600000/);
  });

  it('behind a proxy, does not cap connections (they all come from the proxy) and trusts one hop', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' })).toMatchObject({ trustProxyHops: 1, connections: { maxPerAddress: 0 } });
  });

  it('refuses headers allowed longer than the whole request, and proxy hops without a trusted proxy', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '40000' })).toThrow(/HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ TRUST_PROXY_HOPS: '2' })).toThrow(/TRUST_PROXY_HOPS applies only with TRUST_PROXY=true/);
  });
});
