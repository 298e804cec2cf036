import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/http/database-outage.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { cloneTemplate } from '../support/test-database.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

// The service reaches its own database through a relay the test can cut: to the service, PostgreSQL
// stopped (open connections dropped, new ones refused), then came back on the same address.
let app: TestApp;
let proxy: TcpProxy;
let dropDatabase: () => Promise<void>;
type LogLine = { level: number; msg: string; errorId?: string };
const lines: LogLine[] = [];
const logInto = (into: LogLine[]) => new Writable({ write: (chunk, _encoding, done) => (into.push(JSON.parse(String(chunk))), done()) });
beforeAll(async () => {
  const clone = await cloneTemplate();
  dropDatabase = () => clone.drop();
  const url = new URL(clone.url);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.host = `127.0.0.1:${proxy.port}`;
  app = await startTestApp({ LOG_LEVEL: 'info' }, { databaseUrl: url.toString(), log: logInto(lines) });
});
afterAll(async () => {
  await proxy?.restore().catch(() => {});
  await app?.stop();
  await dropDatabase?.();
});

describe('a PostgreSQL outage', () => {
  it('is answered 503 NOT_READY with Retry-After, logged once when it starts and once when it ends', async () => {
    expect((await app.http.get('/v1/profiles', { auth: app.apiKey })).status).toBe(200);
    const from = lines.length;
    await proxy.cut();
    for (let round = 0; round < 5; round++) {
      for (const response of [await app.http.get('/v1/profiles', { auth: app.apiKey }), await app.http.get('/readyz')]) {
        expect(response.status, response.text).toBe(503);
        expect(response.headers['retry-after']).toBe('5');
        expect(response.body).toEqual({
          code: 'NOT_READY',
          message: 'The service cannot reach its database',
          instruction: expect.stringMatching(/^Retry after 5 seconds/),
          requestId: response.headers['x-request-id'],
          errorId: expect.stringMatching(/^err_/),
        });
      }
    }
    await proxy.restore();
    await waitFor(async () => ((await app.http.get('/readyz')).status === 200 ? true : undefined), 'readiness once PostgreSQL is back');
    expect((await app.http.get('/v1/profiles', { auth: app.apiKey })).status).toBe(200);
    await waitFor(async () => (lines.slice(from).some((line) => line.msg === 'PostgreSQL answers again') ? true : undefined), 'the end of the outage in the log');

    const during = lines.slice(from);
    expect(during.filter((line) => line.msg.startsWith('PostgreSQL does not answer'))).toHaveLength(1);
    expect(during.filter((line) => line.msg === 'PostgreSQL answers again')).toHaveLength(1);
    // No request's refusal is logged as a failure of its own (background jobs log their own errors).
    expect(during.filter((line) => line.level >= 50 && line.errorId !== undefined)).toEqual([]);
  });
});

describe('stopping', () => {
  it('does not wait for a connection nobody gives back, dead after an outage: it logs the pool and stops', async () => {
    const logged: LogLine[] = [];
    const stopping = await startTestApp({ LOG_LEVEL: 'info' }, { log: logInto(logged) });
    // What kysely leaves when BEGIN fails on a connection the outage dropped (kysely-org/kysely#1990):
    // a connection checked out of the pool for good, its backend gone.
    const pool = await stopping.orm.em.getConnection().getNativeClient();
    const abandoned = await pool.connect();
    const { pid } = (await abandoned.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!;
    await stopping.sql('select pg_terminate_backend($1)', [pid]);

    await stopping.stop();

    expect(logged.filter((line) => line.level === 40).map((line) => line.msg)).toEqual([
      'the orm database pool did not close in time: a connection was never given back; stopping without it',
    ]);
  });
});

describe('what counts as the database being unreachable', () => {
  const coded = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

  it.each([
    ['a refused connection', coded('ECONNREFUSED')],
    ['a refused connection to every address of a host', Object.assign(new AggregateError([coded('ECONNREFUSED')]), { code: 'ECONNREFUSED' })],
    ['a connection exception (class 08)', coded('08006')],
    ['a server shutting down', coded('57P01', 'terminating connection due to administrator command')],
    ['a server starting up', coded('57P03', 'the database system is starting up')],
    ['too many connections', coded('53300')],
    ['a connection that ended', new Error('Connection terminated unexpectedly')],
    ['a pool that found no connection in time', new Error('timeout exceeded when trying to connect')],
    ['any of these as the cause', new Error('query failed', { cause: coded('ECONNRESET') })],
  ])('%s is', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a statement that failed', coded('22P02', 'invalid input syntax for type integer')],
    ['a unique violation', coded('23505')],
    ['a statement timeout', coded('57014', 'canceling statement due to statement timeout')],
    ['an error of the service itself', new TypeError('x is undefined')],
  ])('%s is not', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
