import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Koa from 'koa';
import { DatabaseOutage } from '../../src/db/database-outage.ts';
import { errorHandler } from '../../src/http/errors.ts';
import { requestContext } from '../../src/http/request-context.ts';
import { RequestState } from '../../src/http/request-state.ts';
import type { AppState } from '../../src/http/state.ts';
import { createLogger } from '../../src/logger.ts';

/**
 * One plain-HTTP request to a minimal app with the service's request context, error middleware and
 * logger (at debug level) in front of `fail`: the answer, and every line the logger wrote.
 */
export async function answerToFailure(fail: () => unknown): Promise<{ status: number; body: string; lines: string[] }> {
  const lines: string[] = [];
  const logger = createLogger('debug', new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }));
  const koa = new Koa<AppState>();
  koa.use((ctx, next) => ((ctx.state = new RequestState(undefined, logger)), next()));
  koa.use(requestContext(logger));
  koa.use(errorHandler(new DatabaseOutage(async () => {}, logger)));
  koa.use(async () => {
    await fail();
  });
  const server = koa.listen(0, '127.0.0.1');
  try {
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      request({ port, host: '127.0.0.1', path: '/fail' }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      })
        .on('error', reject)
        .end();
    });
    return { ...answer, lines };
  } finally {
    server.close();
  }
}
