import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const ca = readFileSync(inject('tls').certFile, 'utf8');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

/** The protocol and cipher the server agrees to for a client offering only `options`, or the handshake error. */
function handshake(options: ConnectionOptions): Promise<{ protocol: string | null; cipher: string } | Error> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ host: '127.0.0.1', port: app.service.port, servername: 'localhost', ca, ...options }, () => {
      resolve({ protocol: socket.getProtocol(), cipher: socket.getCipher().name });
      socket.destroy();
    });
    socket.once('error', resolve);
  });
}

describe('TLS policy', () => {
  it('refuses TLS 1.2 CBC suites, with or without forward secrecy', async () => {
    for (const ciphers of ['AES128-SHA', 'AES256-SHA256', 'ECDHE-RSA-AES128-SHA', 'ECDHE-RSA-AES256-SHA384', 'AES128-GCM-SHA256']) {
      const result = await handshake({ ciphers, maxVersion: 'TLSv1.2' });
      expect(result, ciphers).toBeInstanceOf(Error);
      expect((result as Error).message, ciphers).toMatch(/alert handshake failure/);
    }
  });

  it('agrees to TLS 1.2 with ECDHE and an AEAD cipher, and prefers TLS 1.3', async () => {
    expect(await handshake({ ciphers: 'ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305', maxVersion: 'TLSv1.2' })).toEqual({ protocol: 'TLSv1.2', cipher: 'ECDHE-RSA-AES256-GCM-SHA384' });
    expect(await handshake({})).toMatchObject({ protocol: 'TLSv1.3' });
  });
});

describe('security headers', () => {
  it('marks API responses, errors included, as HTTPS-only, not sniffable and not storable', async () => {
    for (const response of [await app.http.get('/v1/profiles', { auth: app.apiKey }), await app.http.get('/v1/profiles'), await app.http.get('/v1/nowhere', { auth: app.apiKey })]) {
      expect(response.headers).toMatchObject({ 'strict-transport-security': 'max-age=31536000', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
    }
  });

  it('leaves caching of the health endpoints alone, and keeps the connector page its own policy', async () => {
    const health = await app.http.get('/healthz');
    expect(health.headers).toMatchObject({ 'strict-transport-security': 'max-age=31536000', 'x-content-type-options': 'nosniff' });
    expect(health.headers['cache-control']).toBeUndefined();
    const connector = await app.http.get('/connector');
    expect(connector.headers['content-security-policy']).toMatch(/default-src/);
    expect(connector.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends no Strict-Transport-Security over plain HTTP', async () => {
    const plain = await app.http.get('/v1/profiles', { plain: true });
    expect(plain.status).toBe(403);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(plain.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  });
});

describe('oversized headers', () => {
  it('answers 431 in the error shape instead of dropping the connection', async () => {
    const response = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = request(
        { host: 'localhost', port: app.service.port, path: '/healthz', ca, agent: false, headers: { 'X-Padding': 'a'.repeat(20 * 1024) } },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(response.status).toBe(431);
    expect(response.headers).toMatchObject({ connection: 'close', 'content-type': 'application/json; charset=utf-8', 'strict-transport-security': 'max-age=31536000' });
    expect(JSON.parse(response.body)).toEqual({
      code: 'HEADERS_TOO_LARGE',
      message: 'The request line and headers are larger than 16 KiB',
      instruction: expect.any(String),
      requestId: response.headers['x-request-id'],
      errorId: expect.stringMatching(/^err_/),
    });
  });
});
