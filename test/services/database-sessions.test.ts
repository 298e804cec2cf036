import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, openReplica } from '../../src/orm/orm.ts';
import { runOnce } from '../../src/db/scratch.ts';
import { run } from '../../src/db/statement.ts';

/** The session settings carried in a connection URL reach PostgreSQL through the ORM's pool. */
const { adminUrl, template } = inject('database');
const name = `t_sessions_${Date.now().toString(36)}`;
const url = adminUrl.replace(/\/[^/]+$/, `/${name}`);

beforeAll(() => runOnce(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`));
afterAll(() => runOnce(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

describe('database sessions', () => {
  it('openDatabase gives every session the statement timeout', async () => {
    const orm = await openDatabase(url, { poolMax: 1, statementTimeoutMs: 1000 });
    try {
      expect(await orm.em.fork().execute('show statement_timeout')).toEqual([{ statement_timeout: '1s' }]);
      await expect(orm.em.fork().execute('select pg_sleep(10)')).rejects.toThrow(/statement timeout/);
    } finally {
      await orm.close();
    }
  });

  it('a plain statement outside a transaction answers its rows and count on the pool, and its failure as the ORM converts it, with a stack through statement.ts rather than from the socket read', async () => {
    const orm = await openDatabase(url, { poolMax: 1, statementTimeoutMs: 1000 });
    try {
      expect(await run(orm.em, 'select n from generate_series(1, $1::int) as n', [3])).toEqual({ rows: [{ n: 1 }, { n: 2 }, { n: 3 }], count: 3 });
      expect(await run(orm.em, 'create temporary table counted (n int)')).toEqual({ rows: [], count: 0 });
      const failed = (await run(orm.em, 'select pg_sleep(10)').then(() => undefined, (error: unknown) => error)) as Error;
      expect(failed).toBeInstanceOf(Error);
      expect(failed.message).toMatch(/statement timeout/);
      expect(failed.constructor.name).not.toBe('DatabaseError');
      expect(failed.stack).toMatch(/statement\.ts/);
      // The pool's one client came back after the failure: the next statement runs.
      expect((await run(orm.em, 'select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await orm.close();
    }
  });

  it('openReplica gives every session the statement timeout and read-only transactions, so a write fails even where the database would take it', async () => {
    const orm = await openReplica(url, { poolMax: 1, statementTimeoutMs: 1000 });
    try {
      expect(await orm.em.fork().execute('show statement_timeout')).toEqual([{ statement_timeout: '1s' }]);
      await expect(orm.em.fork().execute('create table stray (id int)')).rejects.toThrow(/read-only transaction/);
    } finally {
      await orm.close();
    }
  });
});
