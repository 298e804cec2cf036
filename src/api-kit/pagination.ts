import { ValidationError } from '../errors.ts';
import { decodeId, type Resource } from '../lib/ids.ts';
import { COUNTED_ITEMS } from '../lib/list-counts.ts';

/**
 * Page and limit of a REST list request, with the contract's defaults (page 1, 25 per page). Offset
 * pages reach the first COUNTED_ITEMS items: a page starting beyond them is a 422 naming `page`.
 */
export function pageOf(query: { page?: number; limit?: number }): { page: number; limit: number } {
  const { page, limit } = { page: query.page ?? 1, limit: query.limit ?? 25 };
  if ((page - 1) * limit >= COUNTED_ITEMS) {
    throw new ValidationError([
      { path: ['page'], message: `pages reach the first ${COUNTED_ITEMS} items (page ${Math.ceil(COUNTED_ITEMS / limit)} at limit ${limit}): page on from there with \`after\`, the \`Next-Cursor\` header of the page before` },
    ]);
  }
  return { page, limit };
}

/**
 * The REST pagination headers for one page of a list: `Page-Items` always; `Current-Page` (from 1),
 * `Total-Count` and `Total-Pages` only when the list's count is known (`total` at most COUNTED_ITEMS);
 * `Next-Cursor` when given.
 */
export function pageHeaders(page: number | undefined, limit: number, total: number | undefined, items: number, nextCursor?: string) {
  return {
    'Page-Items': items,
    ...(page === undefined || total === undefined || total > COUNTED_ITEMS ? {} : { 'Current-Page': page, 'Total-Count': total, 'Total-Pages': Math.ceil(total / limit) }),
    ...(nextCursor === undefined ? {} : { 'Next-Cursor': nextCursor }),
  };
}

/**
 * Where a list that also pages with a cursor starts, and its limit: page `page` (as pageOf), or after
 * `after`, the public id of the `resource` the list holds. Both at once, or a cursor that is not such
 * an id, is a 422.
 */
export function pageOrCursor(query: { page?: number; limit?: number; after?: string }, resource: Resource): { from: { page: number } | { afterId: string }; limit: number } {
  const { page, limit } = pageOf(query);
  if (query.after === undefined) return { from: { page }, limit };
  if (query.page !== undefined) throw new ValidationError([{ path: ['page'], message: 'page with `page` or with `after`, not both' }]);
  const afterId = decodeId(resource, query.after);
  if (afterId === undefined) throw new ValidationError([{ path: ['after'], message: `after must be the id of a ${resource}, as the \`Next-Cursor\` header gives it` }]);
  return { from: { afterId }, limit };
}
