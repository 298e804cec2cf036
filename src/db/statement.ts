import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';
import { countStatement } from './query-stats.ts';

export interface Outcome<R> {
  rows: R[];
  /** Rows an INSERT, UPDATE or DELETE changed; rows returned otherwise. */
  count: number;
}

/**
 * Runs one of a store's named statements (`$1`…`$n` placeholders) on the EntityManager's
 * connection: inside its transaction when it has one (`em.transactional`), else on its pool. The
 * parameters travel apart from the text, never escaped into it (a page of rows is one JSON
 * parameter), and the statement counter sees the statement like any other the ORM sends.
 */
export async function run<R = Record<string, unknown>>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<Outcome<R>> {
  countStatement(sql);
  try {
    const result = await em.getKysely().executeQuery<R>(CompiledQuery.raw(sql, [...params]));
    return { rows: result.rows, count: Number(result.numAffectedRows ?? result.rows.length) };
  } catch (error) {
    // The same exceptions as the ORM's own queries (unique violations, timeouts), for the error middleware.
    throw em.getDriver().convertException(error as Error);
  }
}
