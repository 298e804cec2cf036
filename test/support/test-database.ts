import { randomBytes } from 'node:crypto';
import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';
import { inject } from 'vitest';
import { ormConfig } from '../../src/orm/orm.ts';
import { runOnce } from '../../src/db/scratch.ts';
import { FieldCipher } from '../../src/lib/field-cipher.ts';
import { uuidv7 } from '../../src/lib/ids.ts';
import { Environment } from '../../src/modules/environment/environment.entity.ts';
import { TEST_SQL_ROLE } from './statement-log.ts';

/**
 * `url` (a test database's) as the role test code sends its own SQL as: statements made to arrange
 * or assert are then not taken for the service's by the statement check (test/statements).
 */
export function asTestSql(url: string): string {
  const parsed = new URL(url);
  parsed.username = TEST_SQL_ROLE;
  parsed.password = inject('database').testSqlPassword;
  return parsed.toString();
}

/**
 * The clone the next caller in this worker takes, made while the current file runs: a worker keeps
 * its modules from one file to the next, and a CREATE DATABASE of the template takes 1–3 s on the
 * embedded server, which each file then no longer waits for. The run's last one is dropped by the
 * global teardown (`cloneNamePrefix`).
 */
let spare: Promise<string> | undefined;

/** The prefix of this run's clones: the template's name makes it unique per run on a shared server. */
export function cloneNamePrefix(template: string): string {
  return `t_${template.slice(-10)}_`;
}

function createClone(adminUrl: string, template: string): Promise<string> {
  const name = `${cloneNamePrefix(template)}${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const created = runOnce(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`).then(() => name);
  // A failure is the taker's to see, when it awaits this clone.
  created.catch(() => {});
  return created;
}

/** The clones of `template` no file took (each worker's last spare), to drop after the template's own drop, which waits for clones still being made. */
export async function spareClones(adminUrl: string, template: string): Promise<string[]> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return (await admin.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [cloneNamePrefix(template)])).rows.map((row) => row.datname);
  } finally {
    await admin.end();
  }
}

/** A database of its own, cloned from the migrated template (migrations and pg-boss's schema applied). */
export async function cloneTemplate(): Promise<{ url: string; drop(): Promise<void> }> {
  const { adminUrl, template } = inject('database');
  const taken = spare ?? createClone(adminUrl, template);
  spare = createClone(adminUrl, template);
  const name = await taken;
  return { url: adminUrl.replace(/\/[^/]+$/, `/${name}`), drop: () => dropWhenClosed(adminUrl, name) };
}

/**
 * Drops a test's database once the connections its pools were told to close have closed. pg's
 * `Pool.end()` resolves before its clients' sockets are shut, and a client that FORCE terminates
 * first emits an error nobody listens to any more (an unhandled error failing the run). Whatever
 * is still connected after two seconds is forced out.
 */
async function dropWhenClosed(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let attempt = 0; attempt < 40; attempt++) {
      const { rows } = await admin.query('select count(*)::int as open from pg_stat_activity where datname = $1', [name]);
      if (rows[0].open === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** What the builders write through: an ORM, the cipher its encrypted columns are under, and the environment rows default to. */
export interface BuildTarget {
  orm: MikroORM;
  cipher: FieldCipher;
  /** Stored uuid of the environment built rows belong to unless told otherwise. */
  environmentId: string;
}

/** A service-tier test's database: the ORM on a clone of the template, with one SANDBOX environment in it. */
export interface TestDatabase extends BuildTarget {
  url: string;
  /** A fresh EntityManager, as a request or a job gets one. */
  em(): EntityManager;
  /** Direct SQL, for assertions about what is stored. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc SELECTs read like response bodies; a type per query would restate its SQL.
  sql: <T extends pg.QueryResultRow = any>(text: string, values?: readonly unknown[]) => Promise<T[]>;
  close(): Promise<void>;
}

/** Opens a database of its own for one test file (call in beforeAll; `close` in afterAll). */
export async function openTestDatabase(): Promise<TestDatabase> {
  const clone = await cloneTemplate();
  const orm = await MikroORM.init(ormConfig(clone.url, { poolMax: 4 }));
  const pool = new pg.Pool({ connectionString: asTestSql(clone.url), max: 2 });
  const em = orm.em.fork();
  const environment = em.create(Environment, { id: uuidv7(), name: 'Service tests', mode: 'SANDBOX', transactionsRefreshBeta: true });
  await em.flush();
  return {
    orm,
    cipher: new FieldCipher([{ id: 'test', key: randomBytes(32) }]),
    environmentId: environment.id,
    url: clone.url,
    em: () => orm.em.fork(),
    sql: async (text, values) => (await pool.query(text, values && [...values])).rows,
    async close() {
      await pool.end();
      await orm.close();
      await clone.drop();
    },
  };
}
