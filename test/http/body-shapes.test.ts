import { readFileSync } from 'node:fs';
import { connect, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const ca = readFileSync(inject('tls').certFile, 'utf8');
const LIMIT = 1024 * 1024;
/** Past the 2 s request timeout set below: a connection still open by then was never going to be closed. */
const BOUND_MS = 10_000;

type Framing = 'sized' | 'chunked';
/** What the client does after the headers: sends the whole body, sends part of it and closes, or sends part and goes silent. */
type Ending = 'whole' | 'closes early' | 'goes silent';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000', KEEP_ALIVE_TIMEOUT_MS: '1000' });
});
afterAll(() => app?.stop());

function openTls(): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: app.service.port, servername: 'localhost', ca }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends one POST of `bytes` JSON-ish bytes framed as told, ends it as told, and returns what came back before the close. */
async function send(path: string, framing: Framing, bytes: number, ending: Ending): Promise<string> {
  const socket = await openTls();
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  socket.on('error', () => {}); // writes racing the server's close: what counts is what arrived
  const closed = new Promise<void>((resolve) => {
    const bound = setTimeout(() => {
      socket.destroy();
      resolve();
    }, BOUND_MS);
    socket.once('close', () => {
      clearTimeout(bound);
      resolve();
    });
  });
  const framingHeader = framing === 'sized' ? `Content-Length: ${bytes}` : 'Transfer-Encoding: chunked';
  socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${app.apiKey}\r\nContent-Type: application/json\r\n${framingHeader}\r\nConnection: close\r\n\r\n`);
  const body = Buffer.from(`{"name":"${'x'.repeat(Math.max(0, bytes - 11))}"}`.slice(0, bytes));
  const sent = ending === 'whole' ? body.length : Math.floor(body.length / 2);
  const piece = 64 * 1024;
  for (let offset = 0; offset < sent; offset += piece) {
    const part = body.subarray(offset, Math.min(sent, offset + piece));
    socket.write(framing === 'chunked' ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part);
  }
  if (ending === 'whole' && framing === 'chunked') socket.write('0\r\n\r\n');
  if (ending === 'closes early') socket.destroy();
  await closed;
  return received;
}

const statusOf = (received: string) => /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];

describe('every body shape leaves the service answering', () => {
  const paths = ['/v1/profiles', '/v1/graphql', '/v1/nothing-here'];
  const shapes: [Framing, number, Ending][] = [];
  for (const framing of ['sized', 'chunked'] as const) {
    for (const bytes of [1000, 2 * LIMIT]) {
      for (const ending of ['whole', 'closes early', 'goes silent'] as const) shapes.push([framing, bytes, ending]);
    }
  }

  it.each(paths)('%s: sized and chunked bodies, under and over 1 MiB, whole, cut short or gone silent', async (path) => {
    for (const [framing, bytes, ending] of shapes) {
      const shape = `${framing} ${bytes} bytes, ${ending}`;
      const received = await send(path, framing, bytes, ending);
      if (ending === 'whole' && bytes > LIMIT) {
        expect(statusOf(received), shape).toBe('413');
        expect(JSON.parse(received.split('\r\n\r\n')[1]!), shape).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', requestId: expect.any(String), errorId: expect.any(String) });
      }
      // Read and judged on its content: a profile refused for its name, a GraphQL document refused, a path unknown.
      if (ending === 'whole' && bytes < LIMIT) expect(statusOf(received), shape).toMatch(/^(400|404|422)$/);
      // A silent client gets the request timeout (or a 413 as soon as its size alone is too much).
      if (ending === 'goes silent') expect(statusOf(received), shape).toMatch(/^(408|413)$/);
      const health = await app.http.get('/healthz');
      expect(health.status, shape).toBe(200);
    }
  });
});
