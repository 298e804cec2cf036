import { PostgreSqlConnection, PostgreSqlDriver, type Configuration } from '@mikro-orm/postgresql';
import type {
  AbortableOperationOptions,
  DatabaseConnection,
  DatabaseIntrospector,
  Dialect,
  DialectAdapter,
  Driver,
  Kysely,
  PostgresDialect,
  QueryCompiler,
  TransactionSettings,
} from 'kysely';
import type { Pool, PoolConfig } from 'pg';

/**
 * The database did not open a session: the connection was refused or dropped while opening, the
 * database disallows connections (ALLOW_CONNECTIONS false, SQLSTATE 55000), no longer exists
 * (3D000), refused the credentials (class 28), is starting up (57P03) or out of connections (53300),
 * or the pool found no connection in time. Whatever the reason, no statement ran: the database is
 * unavailable, not the request at fault. Message and code are the cause's.
 */
export class SessionNotOpened extends Error {
  readonly code: unknown;
  /** An own property, known by `isSessionNotOpened`: MikroORM's exceptions copy those of the error they convert, not its class. */
  readonly sessionNotOpened = true;

  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'SessionNotOpened';
    this.code = (cause as { code?: unknown } | undefined)?.code;
  }
}

/** Whether `error` is a SessionNotOpened, or MikroORM's conversion of one. */
export function isSessionNotOpened(error: object): boolean {
  return (error as Partial<SessionNotOpened>).sessionNotOpened === true;
}

/**
 * kysely's driver with two corrections. A failure to acquire a connection becomes SessionNotOpened,
 * so an error PostgreSQL also raises for statements (55000) is known for what it is here. And a
 * connection whose BEGIN or ROLLBACK failed is given back to the pool: kysely's controlled
 * transactions (MikroORM's) never release it then (kysely-org/kysely#1990, open in 0.29.6), so each
 * such failure, as every transaction a database outage interrupts has one, would hold a pool slot
 * until the process restarts. Such a failure means the connection is dead (a live session answers
 * BEGIN and ROLLBACK), and pg-pool ends and drops a client given back that can no longer be queried.
 * Nothing in the service runs kysely's own `transaction()`, which does release on these paths.
 */
class SessionGuardDriver implements Driver {
  readonly #driver: Driver;

  constructor(driver: Driver) {
    this.#driver = driver;
  }

  init(options?: AbortableOperationOptions): Promise<void> {
    return this.#driver.init(options);
  }

  async acquireConnection(options?: AbortableOperationOptions): Promise<DatabaseConnection> {
    try {
      return await this.#driver.acquireConnection(options);
    } catch (error) {
      throw new SessionNotOpened(error);
    }
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.#givenBackOnFailure(connection, () => this.#driver.beginTransaction(connection, settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    // A failed COMMIT is followed by MikroORM's ROLLBACK, which gives the connection back either way.
    return this.#driver.commitTransaction(connection);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#givenBackOnFailure(connection, () => this.#driver.rollbackTransaction(connection));
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.#driver.savepoint!(connection, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.#driver.rollbackToSavepoint!(connection, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.#driver.releaseSavepoint!(connection, name, compile);
  }

  releaseConnection(connection: DatabaseConnection, options?: AbortableOperationOptions): Promise<void> {
    return this.#driver.releaseConnection(connection, options);
  }

  destroy(options?: AbortableOperationOptions): Promise<void> {
    return this.#driver.destroy(options);
  }

  async #givenBackOnFailure(connection: DatabaseConnection, statement: () => Promise<void>): Promise<void> {
    try {
      await statement();
    } catch (error) {
      await this.#driver.releaseConnection(connection);
      throw error;
    }
  }
}

/** A dialect as it is, but with its driver guarded. */
class SessionGuardDialect implements Dialect {
  readonly #dialect: Dialect;

  constructor(dialect: Dialect) {
    this.#dialect = dialect;
  }

  createDriver(): Driver {
    return new SessionGuardDriver(this.#dialect.createDriver());
  }

  createQueryCompiler(): QueryCompiler {
    return this.#dialect.createQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return this.#dialect.createAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return this.#dialect.createIntrospector(db);
  }
}

/** The hook MikroORM's PostgreSqlConnection takes among its pool overrides (not in its declared type) and calls with each pool it makes. */
interface PoolCreated {
  onPoolCreated?: (pool: Pool) => unknown;
}

/**
 * MikroORM's PostgreSQL connection (its pool, type parsers, pool error handling) with the guarded
 * driver, and its `pg` pool at hand for statements that run outside a transaction (statement.ts).
 */
export class SessionGuardConnection extends PostgreSqlConnection {
  #pool: Pool | undefined;

  override createKyselyDialect(overrides: PoolConfig & PoolCreated): PostgresDialect {
    const onPoolCreated = (pool: Pool) => {
      this.#pool = pool;
      return overrides.onPoolCreated?.(pool);
    };
    const dialect = super.createKyselyDialect({ ...overrides, onPoolCreated } as PoolConfig);
    // Declared a PostgresDialect; MikroORM only hands it to `new Kysely`, which needs a Dialect.
    return new SessionGuardDialect(dialect) as Dialect as PostgresDialect;
  }

  /** The pool the ORM's statements use (made with the ORM's client, as its first statement would make it). */
  get pool(): Pool {
    this.getClient();
    return this.#pool!;
  }
}

/**
 * A client of `pool`, as the guarded driver acquires one: a failure to get one is SessionNotOpened.
 * Given back to the pool with `release()` after use, as kysely gives its connections back.
 */
export async function acquire(pool: Pool) {
  try {
    return await pool.connect();
  } catch (error) {
    throw new SessionNotOpened(error);
  }
}

/** MikroORM's PostgreSQL driver on SessionGuardConnection (the ORM config's `driver`). */
export class SessionGuardPostgreSqlDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    // PostgreSqlDriver names its connection class outright; this one takes its place before anything connects.
    Object.assign(this, { connection: new SessionGuardConnection(this.config) });
  }
}
