import { raw, type EntityName, type FilterQuery, type OrderDefinition } from '@mikro-orm/core';
import type { EntityManager, QBFilterQuery } from '@mikro-orm/postgresql';
import { COUNTED_ITEMS } from '../lib/list-counts.ts';

/** The statement boundedCount sends: a count over at most COUNTED_ITEMS + 1 matching rows. */
export function boundedCountStatement<E extends object>(em: EntityManager, entity: EntityName<E>, where: FilterQuery<NoInfer<E>>): { sql: string; params: unknown[] } {
  const { sql, params } = em.createQueryBuilder(entity).select(raw('1')).where(where as QBFilterQuery<E>).limit(COUNTED_ITEMS + 1).toQuery();
  return { sql: `select count(*)::int as n from (${sql}) as bounded`, params: [...params] };
}

/**
 * How many rows match `where`, or undefined when more than COUNTED_ITEMS do: one statement reading at
 * most COUNTED_ITEMS + 1 rows, whatever the table's size.
 */
export async function boundedCount<E extends object>(em: EntityManager, entity: EntityName<E>, where: FilterQuery<NoInfer<E>>): Promise<number | undefined> {
  const { sql, params } = boundedCountStatement(em, entity, where);
  const [row] = await em.execute<{ n: number }[]>(sql, params);
  const n = row?.n ?? 0;
  return n > COUNTED_ITEMS ? undefined : n;
}

/** One page of a list and, when the list holds at most COUNTED_ITEMS, how many it holds in all. */
export interface OffsetPage<E> {
  items: E[];
  total: number | undefined;
}

/** Page `page` (from 1) of `limit` rows matching `where`, in `orderBy` order, with their bounded count. */
export async function offsetPage<E extends object>(
  em: EntityManager,
  entity: EntityName<E>,
  where: FilterQuery<NoInfer<E>>,
  orderBy: OrderDefinition<NoInfer<E>>,
  page: number,
  limit: number,
): Promise<OffsetPage<E>> {
  const [items, total] = await Promise.all([em.find(entity, where, { orderBy, limit, offset: (page - 1) * limit }), boundedCount(em, entity, where)]);
  return { items, total };
}

/** One page of a list in id order, its number in the list when its count is known, and whether more rows follow. */
export interface IdOrderPage<E> extends OffsetPage<E> {
  /** The page's number (from 1) at its `limit`: the one asked for, or after a cursor the one holding its last item (1 without items); undefined when `total` is. */
  page: number | undefined;
  /** The last item's id, when more rows follow it: the next page's cursor. */
  nextAfter: string | undefined;
}

/**
 * Up to `limit` rows matching `where` in id order (`desc`: newest first): page `page` (from 1), or the
 * rows after id `afterId` in that order (from the start without it); with their bounded counts.
 */
export async function idOrderPage<E extends { id: string }>(
  em: EntityManager,
  entity: EntityName<E>,
  where: FilterQuery<NoInfer<E>>,
  from: { page: number } | { afterId: string | undefined },
  limit: number,
  order: 'asc' | 'desc' = 'asc',
): Promise<IdOrderPage<E>> {
  const [beyond, upTo] = order === 'asc' ? (['$gt', '$lte'] as const) : (['$lt', '$gte'] as const);
  const withId = (id: string, operator: typeof beyond | typeof upTo) => ({ $and: [where, { id: { [operator]: id } }] }) as FilterQuery<NoInfer<E>>;
  const [rows, total] = await Promise.all([
    em.find(entity, 'afterId' in from && from.afterId !== undefined ? withId(from.afterId, beyond) : where, {
      orderBy: { id: order } as OrderDefinition<NoInfer<E>>,
      limit: limit + 1,
      offset: 'page' in from ? (from.page - 1) * limit : 0,
    }),
    boundedCount(em, entity, where),
  ]);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  // Where the last item sits in the list: a count within a list of at most COUNTED_ITEMS, so bounded too.
  const holdingLast = async () => (last ? Math.max(1, Math.ceil(((await boundedCount(em, entity, withId(last.id, upTo))) ?? 0) / limit)) : 1);
  return { items, total, page: 'page' in from ? from.page : total === undefined ? undefined : await holdingLast(), nextAfter: rows.length > limit ? last?.id : undefined };
}
