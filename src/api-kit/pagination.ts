/** Page and limit of a REST list request, with the contract's defaults (page 1, 25 per page). */
export function pageOf(query: { page?: number; limit?: number }): { page: number; limit: number } {
  return { page: query.page ?? 1, limit: query.limit ?? 25 };
}

/** The REST pagination headers (Current-Page, Page-Items, Total-Count, Total-Pages) for one page of a list. */
export function pageHeaders(page: number, limit: number, total: number, items: number) {
  return {
    'Current-Page': page,
    'Page-Items': items,
    'Total-Count': total,
    'Total-Pages': Math.ceil(total / limit),
  };
}
