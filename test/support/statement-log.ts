import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The role test code sends its own SQL as (arranging rows, asserting on them: `db.sql`, `app.sql`,
 * `asTestSql`): those statements are the tests', not the service's, and the check leaves them out.
 */
export const TEST_SQL_ROLE = 'tributary_test_sql';

/**
 * Server settings that make PostgreSQL record every statement the test run sends, for the check
 * that each names its profile (test/statements). Entries are per database, and each test file has
 * its own, so the table is large; an entry evicted would be a statement left unchecked (the check
 * fails on any eviction). Nothing is kept across restarts.
 */
export const STATEMENT_LOG_SETTINGS = {
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.max': '100000',
  'pg_stat_statements.save': 'off',
  'pg_stat_statements.track_utility': 'off',
};

/** What the global setup found: whether the server records statements, and if not, why. */
export type StatementLogState = { available: true } | { available: false; reason: string };

/** Creates (or gives a new password to) TEST_SQL_ROLE, a superuser like the one tests connect as; returns its password. */
export async function createTestSqlRole(adminUrl: string): Promise<string> {
  const password = randomBytes(18).toString('base64url');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_roles where rolname = $1', [TEST_SQL_ROLE]);
    await client.query(`${exists.rowCount ? 'alter' : 'create'} role ${TEST_SQL_ROLE} with login superuser password '${password}'`);
    return password;
  } finally {
    await client.end();
  }
}

const HOW_TO_ENABLE =
  "start that server with shared_preload_libraries = 'pg_stat_statements' and pg_stat_statements.max = 100000 " +
  '(the embedded test server is started so), and run the tests as a role that may create the extension and read every database\'s statements (pg_read_all_stats)';

/**
 * Makes the server's statements readable, or says why they are not. With `reset` (a server of
 * TEST_DATABASE_ADMIN_URL's, which outlives runs) it empties what earlier runs left. The embedded
 * server starts empty (nothing is saved across restarts) and is never reset: a second run that
 * joins it would erase the first run's statements.
 */
export async function startStatementLog(adminUrl: string, reset: boolean): Promise<StatementLogState> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_stat_statements');
    await client.query(reset ? 'select pg_stat_statements_reset()' : 'select count(*) from pg_stat_statements');
    return { available: true };
  } catch (error) {
    return { available: false, reason: `pg_stat_statements is not usable on the test server (${(error as Error).message}): ${HOW_TO_ENABLE}` };
  } finally {
    await client.end();
  }
}

/**
 * Every distinct statement text recorded, but the template database's (its migrations and pg-boss's
 * set-up, which ran before the tests) and the test code's own (TEST_SQL_ROLE's), and how many
 * entries were evicted.
 */
export async function readStatementLog(adminUrl: string, template: string): Promise<{ statements: string[]; evicted: number }> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ query: string }>(
      `select distinct query from pg_stat_statements
        where query is not null and dbid not in (select oid from pg_database where datname = $1) and userid not in (select oid from pg_roles where rolname = $2)`,
      [template, TEST_SQL_ROLE],
    );
    const info = await client.query<{ dealloc: string }>('select dealloc from pg_stat_statements_info');
    return { statements: rows.map((row) => row.query), evicted: Number(info.rows[0]?.dealloc ?? 0) };
  } finally {
    await client.end();
  }
}
