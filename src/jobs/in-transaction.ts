import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Transaction } from 'kysely';
import type { Db } from 'pg-boss';

/**
 * pg-boss's statements run on the EntityManager's open transaction: a job sent with this `db`
 * commits, or rolls back, with the change that needs it, so a crash or a failed send can never leave
 * a connection waiting for a job that does not exist.
 */
export function jobsIn(tx: EntityManager): Db {
  const transaction = tx.getTransactionContext<Transaction<unknown>>();
  if (!transaction) throw new Error('jobsIn needs an EntityManager inside a transaction');
  return { executeSql: async (text, values = []) => ({ rows: (await transaction.executeQuery(CompiledQuery.raw(text, values))).rows }) };
}
