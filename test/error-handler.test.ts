import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Koa from 'koa';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { errorHandler } from '../src/http/errors.ts';
import { requestContext } from '../src/http/request-context.ts';
import type { AppState } from '../src/http/state.ts';

describe('unexpected failures', () => {
  it('answer 500 without internals, and log the details under the errorId', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    const app = new Koa<AppState>();
    app.use(requestContext(logger));
    app.use(errorHandler());
    app.use(() => {
      throw new Error('connection to db-internal.local:5432 failed: password hunter2');
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      request({ port, host: '127.0.0.1', path: '/boom' }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      })
        .on('error', reject)
        .end();
    });
    server.close();
    expect(status).toBe(500);
    const parsed = JSON.parse(body);
    expect(parsed).toEqual({ code: 'INTERNAL_SERVER_ERROR', message: 'Something went wrong on our side', instruction: expect.any(String), requestId: expect.any(String), errorId: expect.stringMatching(/^err_/) });
    expect(body).not.toMatch(/hunter2|db-internal|at .*\.ts/);
    const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.errorId === parsed.errorId);
    expect(logged.err.message).toContain('db-internal');
  });
});
