/**
 * How far a REST list's counts and offset pages reach (contracts/rest.yaml, Pagination): its counts
 * are exact up to this many items and left out above, so that no count reads more rows than this,
 * and `page` serves only pages starting within them.
 */
export const COUNTED_ITEMS = 10_000;
