import { LockMode, type EntityName, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Read-modify-write of one row without lost updates. In a transaction, the row is read under its
 * row lock (SELECT … FOR UPDATE, re-read from the database, never taken from the identity map),
 * `change` modifies the entity, and the change is flushed before the commit releases the lock.
 * Concurrent updates of one row thus run one after another, each from the previous one's result:
 * every metadata merge lands, and the key limit is checked against what is really stored.
 * `exclude` leaves bulky columns unread (they are not written either). Throws `missing()` when no
 * row matches `where`; otherwise returns what `change` returns.
 */
export function updateLocked<E extends object, R>(
  em: EntityManager,
  entity: EntityName<E>,
  where: FilterQuery<NoInfer<E>>,
  options: { missing: () => Error; exclude?: readonly string[] },
  change: (row: E) => R,
): Promise<R> {
  return em.transactional(async (tx) => {
    const row = await tx.findOne<E>(entity, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, exclude: options.exclude as never });
    if (!row) throw options.missing();
    return change(row);
  });
}
