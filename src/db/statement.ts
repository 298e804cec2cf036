import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { countStatement } from './query-stats.ts';
import { acquire, type SessionGuardConnection } from './session-guard.ts';

export interface Outcome<R> {
  rows: R[];
  /** Rows an INSERT, UPDATE or DELETE changed; rows returned otherwise. */
  count: number;
}

/** The commands whose count is of rows changed (kysely's `numAffectedRows`); any other counts the rows returned. */
const CHANGES = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/**
 * Runs one of a store's named statements (`$1`…`$n` placeholders) on the EntityManager's
 * connection: inside its transaction when it has one (`em.transactional`), through kysely; else on
 * the ORM's `pg` pool itself, as kysely would run it there (a client acquired as the guarded driver
 * acquires one, the same type parsers and statement timeout) without its layers of promises and
 * result objects: most requests' statements, two of every GraphQL page. The parameters travel
 * apart from the text, never escaped into it (a page of rows is one JSON parameter), and the
 * statement counter sees the statement like any other the ORM sends.
 */
export async function run<R = Record<string, unknown>>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<Outcome<R>> {
  countStatement(sql);
  try {
    if (em.getTransactionContext()) {
      const result = await em.getKysely().executeQuery<R>(CompiledQuery.raw(sql, [...params]));
      return { rows: result.rows, count: Number(result.numAffectedRows ?? result.rows.length) };
    }
    return await onPool<R>((em.getConnection() as SessionGuardConnection).pool, sql, params);
  } catch (error) {
    // The same exceptions as the ORM's own queries (unique violations, timeouts), for the error middleware.
    throw em.getDriver().convertException(error as Error);
  }
}

async function onPool<R>(pool: Pool, sql: string, params: readonly unknown[]): Promise<Outcome<R>> {
  const client = await acquire(pool);
  try {
    const result = await answerOf(client, sql, params);
    return { rows: result.rows as R[], count: CHANGES.has(result.command) ? (result.rowCount ?? 0) : result.rows.length };
  } finally {
    client.release();
  }
}

/**
 * A statement's result through `pg`'s callback. Without one, `client.query` answers through a promise
 * of its own, and a result handed over that way outlived two scavenges: one GraphQL page at a time,
 * ~40 KB of each page's rows reached the old generation and paid for its full collections (0.4 KB
 * through the callback; the bench's baseline, given the promise, went from 0.1 to 23 KB a page;
 * docs/benchmark-history.md, 2026-12-04).
 */
function answerOf(client: PoolClient, sql: string, params: readonly unknown[]): Promise<QueryResult> {
  return new Promise((resolve, reject) =>
    client.query(sql, params as unknown[], (error: Error | undefined, result: QueryResult) => {
      if (!error) return resolve(result);
      // As pg's own promise does: a stack that leads back here, not to the socket's read.
      Error.captureStackTrace(error);
      reject(error);
    }),
  );
}
