import { Writable } from 'node:stream';
import { DriverException } from '@mikro-orm/core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { runOnce } from '../../src/db/scratch.ts';
import { SessionNotOpened } from '../../src/db/session-guard.ts';
import { isDatabaseUnavailable } from '../../src/db/database-outage.ts';
import { buildProfile } from '../support/factories.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { cloneTemplate } from '../support/test-database.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

// The service reaches its own database through a relay the test can cut: to the service, PostgreSQL
// stopped (open connections dropped, new ones refused), then came back on the same address. Or the
// relay stays and the database itself refuses: its sessions ended, new ones refused.
let app: TestApp;
let proxy: TcpProxy;
let dropDatabase: () => Promise<void>;
let databaseName: string;
type LogLine = { level: number; msg: string; errorId?: string; err?: { message?: string } };
const lines: LogLine[] = [];
const logInto = (into: LogLine[]) => new Writable({ write: (chunk, _encoding, done) => (into.push(JSON.parse(String(chunk))), done()) });
beforeAll(async () => {
  const clone = await cloneTemplate();
  dropDatabase = () => clone.drop();
  const url = new URL(clone.url);
  databaseName = url.pathname.slice(1);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.host = `127.0.0.1:${proxy.port}`;
  app = await startTestApp({ LOG_LEVEL: 'info' }, { databaseUrl: url.toString(), log: logInto(lines) });
});
// A test that failed mid-outage leaves none behind for the next.
afterEach(async () => {
  await proxy.restore();
  await allowConnections(true);
});
afterAll(async () => {
  await app?.stop();
  await dropDatabase?.();
});

/** As an operator stops a database for maintenance: no new session (SQLSTATE 55000), and the open ones ended. */
async function allowConnections(allow: boolean): Promise<void> {
  const { adminUrl } = inject('database');
  await runOnce(adminUrl, `ALTER DATABASE ${databaseName} WITH ALLOW_CONNECTIONS ${allow}`);
  if (!allow) await runOnce(adminUrl, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${databaseName}'`);
}

const outages = {
  'PostgreSQL stopped (the relay to it cut)': { start: () => proxy.cut(), end: () => proxy.restore() },
  'the database refusing connections (ALLOW_CONNECTIONS false)': { start: () => allowConnections(false), end: () => allowConnections(true) },
};

describe.each(Object.entries(outages))('a PostgreSQL outage: %s', (_outage, { start, end }) => {
  it('is answered 503 NOT_READY with Retry-After, logged once when it starts and once when it ends', async () => {
    expect((await app.http.get('/v1/profiles', { auth: app.apiKey })).status).toBe(200);
    const from = lines.length;
    await start();
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
    await end();
    await waitFor(async () => ((await app.http.get('/readyz')).status === 200 ? true : undefined), 'readiness once PostgreSQL is back');
    expect((await app.http.get('/v1/profiles', { auth: app.apiKey })).status).toBe(200);
    await waitFor(async () => (lines.slice(from).some((line) => line.msg === 'PostgreSQL answers again') ? true : undefined), 'the end of the outage in the log');

    const during = lines.slice(from);
    expect(during.filter((line) => line.msg.startsWith('PostgreSQL does not answer'))).toHaveLength(1);
    expect(during.filter((line) => line.msg === 'PostgreSQL answers again')).toHaveLength(1);
    // No request's refusal is logged as a failure of its own, and neither is a background loop's (the
    // webhook relay and its dispatcher, the job queue): besides the outage, only the notification
    // channels say, once each, that they reconnect.
    expect(during.filter((line) => line.level >= 50 && line.errorId !== undefined)).toEqual([]);
    const errors = during.filter((line) => line.level >= 50).map((line) => (line.err?.message ? `${line.msg}: ${line.err.message}` : line.msg));
    expect(errors.filter((msg) => !msg.startsWith('PostgreSQL does not answer') && !/^(Live-update|Revocation) channel lost/.test(msg))).toEqual([]);
  });
});

describe('a database that takes no writes (a primary demoted to a standby, SQLSTATE 25006)', () => {
  /** Read-only from its next sessions on, as a standby is: the open ones are ended. */
  const readOnly = async (on: boolean) => {
    const { adminUrl } = inject('database');
    await runOnce(adminUrl, `ALTER DATABASE ${databaseName} ${on ? 'SET default_transaction_read_only = on' : 'RESET default_transaction_read_only'}`);
    await runOnce(adminUrl, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${databaseName}'`);
  };
  afterEach(() => readOnly(false));

  it('answers writes 503 NOT_READY, reads still, until it takes writes again', async () => {
    const from = lines.length;
    await readOnly(true);
    const write = await app.http.post('/v1/profiles', { auth: app.apiKey, json: buildProfile() });
    expect(write.status, write.text).toBe(503);
    expect(write.body.code).toBe('NOT_READY');
    // Reads go on. A pooled connection the switch ended may still be handed out before its end is
    // read (seen under load): that one request is a 503 too, as on a real demotion, and the next
    // read gets a live connection.
    await waitFor(async () => ((await app.http.get('/v1/profiles', { auth: app.apiKey })).status === 200 ? true : undefined), 'a read while the database takes no writes');
    expect((await app.http.post('/v1/profiles', { auth: app.apiKey, json: buildProfile() })).status).toBe(503);
    await readOnly(false);
    await waitFor(async () => (lines.slice(from).some((line) => line.msg === 'PostgreSQL answers again') ? true : undefined), 'the end of the outage in the log');
    expect((await app.http.post('/v1/profiles', { auth: app.apiKey, json: buildProfile() })).status).toBe(201);
  });
});

describe('an outage that interrupts a transaction', () => {
  it.each([
    ['at its BEGIN', 'begin'],
    ['inside it, so that its ROLLBACK fails too', 'insert into "profile"'],
  ])('%s leaves every connection of the pool back in it once PostgreSQL is back', async (_when, statement) => {
    const pool = await app.orm.em.getConnection().getNativeClient();
    const cut = proxy.cutAt(statement);
    const response = await app.http.post('/v1/profiles', { auth: app.apiKey, json: buildProfile() });
    expect(response.status, response.text).toBe(503);
    await cut;
    await proxy.restore();
    await waitFor(async () => ((await app.http.get('/readyz')).status === 200 ? true : undefined), 'readiness once PostgreSQL is back');
    // kysely leaves a connection whose BEGIN or ROLLBACK failed checked out for good (kysely-org/kysely#1990).
    await waitFor(async () => (pool.totalCount === pool.idleCount ? true : undefined), 'no connection left checked out');
    expect((await app.http.post('/v1/profiles', { auth: app.apiKey, json: buildProfile() })).status).toBe(201);
  });
});

describe('stopping', () => {
  it('does not wait for a connection nobody gives back, dead after an outage: it logs the pool and stops', async () => {
    const logged: LogLine[] = [];
    const stopping = await startTestApp({ LOG_LEVEL: 'info' }, { log: logInto(logged) });
    // A connection checked out of the pool for good, its backend gone, as kysely left one whose BEGIN
    // failed before src/db/session-guard.ts gave it back (kysely-org/kysely#1990).
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
    ['a session ended because its database was dropped', coded('57P04')],
    ['too many connections', coded('53300')],
    ['a write on a primary demoted to a standby', coded('25006', 'cannot execute INSERT in a read-only transaction')],
    ['a session not opened, whatever PostgreSQL said', new SessionNotOpened(coded('55000', 'database "x" is not currently accepting connections'))],
    ['a session not opened, as MikroORM converts it', new DriverException(new SessionNotOpened(coded('3D000', 'database "x" does not exist')))],
    ['a session refused as it started, through another pool (pg-boss\'s)', Object.assign(coded('55000', 'database "x" is not currently accepting connections'), { routine: 'CheckMyDatabase' })],
    ['a connection that ended', new Error('Connection terminated unexpectedly')],
    ['a pool that found no connection in time', new Error('timeout exceeded when trying to connect')],
    ['any of these as the cause', new Error('query failed', { cause: coded('ECONNRESET') })],
    // pg-boss copies a failed queue-cache refresh into a plain object before it reports it.
    ['any of these copied into a plain object', (({ code, message }) => ({ code, message }))(coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))],
    ['pg-boss\'s LISTEN connection ended', new Error('LISTEN/NOTIFY connection ended')],
    ['pg-boss\'s LISTEN connection silent', new Error('LISTEN/NOTIFY heartbeat timed out')],
  ])('%s is', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a statement that failed', coded('22P02', 'invalid input syntax for type integer')],
    ['a unique violation', coded('23505')],
    ['a statement timeout', coded('57014', 'canceling statement due to statement timeout')],
    ['the same SQLSTATE from a statement (currval before nextval)', Object.assign(coded('55000', 'currval of sequence "s" is not yet defined in this session'), { routine: 'currval_oid' })],
    ['an error of the service itself', new TypeError('x is undefined')],
    ['a plain object that says nothing of the database', { message: 'Queue q does not exist' }],
    ['nothing at all', undefined],
  ])('%s is not', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
