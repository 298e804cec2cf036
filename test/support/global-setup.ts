import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { PgBoss } from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { ormConfig } from '../../src/orm/orm.ts';
import { openScratchServer } from '../../src/db/scratch.ts';
import { loadTls } from '../../src/http/tls.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { buildConsole } from '../../scripts/console-build.ts';
import { createTestSqlRole, STATEMENT_LOG_SETTINGS, startStatementLog, type StatementLogState } from './statement-log.ts';
import { spareClones } from './test-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `testSqlPassword`: TEST_SQL_ROLE's, for the test code's own SQL (test-database.ts, asTestSql). */
    database: { adminUrl: string; template: string; testSqlPassword: string };
    tls: { certFile: string; keyFile: string };
    statementLog: StatementLogState;
    /** The operator console built from src/console, which every test app serves. */
    consoleDir: string;
  }
}

/**
 * The embedded test server's data is thrown away with the run, so it skips fsync: each DROP DATABASE
 * (every test file's, at its end) checkpoints the whole server, which with fsync took 2–5 s while
 * other files wrote. Crash tests run their own embedded server, with fsync as in production.
 */
const THROWAWAY_SETTINGS = { fsync: 'off' };

/**
 * Once per run: a real PostgreSQL (embedded under .data/test-postgres, or TEST_DATABASE_ADMIN_URL's
 * server), a template database with every migration and the pg-boss schema applied, and one
 * self-signed certificate, and the operator console's bundle (rebuilt only when its sources changed).
 * Each test file clones the template into a database of its own. The server records every statement
 * (pg_stat_statements) for test/statements to check.
 */
export default async function setup(project: TestProject) {
  const dataDir = path.resolve('.data/test');
  mkdirSync(dataDir, { recursive: true });
  const logger = createLogger('warn');
  const consoleDir = path.join(dataDir, 'console');
  const consoleBuilt = buildConsole(consoleDir);
  const server = await openScratchServer(path.resolve('.data'), 'test', logger, process.env.TEST_DATABASE_ADMIN_URL, { ...STATEMENT_LOG_SETTINGS, ...THROWAWAY_SETTINGS });
  const template = await server.createDatabase();
  const orm = await MikroORM.init(ormConfig(template.url, { poolMax: 2 }));
  await orm.migrator.up();
  await orm.close();
  const boss = new PgBoss({ connectionString: template.url, schema: 'pgboss', max: 2 });
  await boss.start();
  await boss.stop({ graceful: false, close: true });
  const adminUrl = template.url.replace(/\/[^/]+$/, '/postgres');
  project.provide('statementLog', await startStatementLog(adminUrl, process.env.TEST_DATABASE_ADMIN_URL !== undefined));
  const tls = await loadTls(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }));
  project.provide('database', { adminUrl, template: template.name, testSqlPassword: await createTestSqlRole(adminUrl) });
  await consoleBuilt;
  project.provide('consoleDir', consoleDir);
  project.provide('tls', { certFile: tls.selfSignedPath!, keyFile: tls.selfSignedPath!.replace(/\.crt$/, '.key') });
  return async () => {
    await server.dropDatabase(template.name);
    for (const name of await spareClones(adminUrl, template.name)) await server.dropDatabase(name);
    await server.stop();
  };
}
