import type { EntityName, FilterQuery, OrderDefinition } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/** One page of a numbered list (REST's `page` and `limit`) and how many rows match in all. */
export interface OffsetPage<E> {
  items: E[];
  total: number;
}

/** Page `page` (from 1) of `limit` rows matching `where`, in `orderBy` order, with the count of every match. */
export async function offsetPage<E extends object>(
  em: EntityManager,
  entity: EntityName<E>,
  where: FilterQuery<NoInfer<E>>,
  orderBy: OrderDefinition<NoInfer<E>>,
  page: number,
  limit: number,
): Promise<OffsetPage<E>> {
  const [items, total] = await em.findAndCount(entity, where, { orderBy, limit, offset: (page - 1) * limit });
  return { items, total };
}
