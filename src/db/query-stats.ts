const RECENT = 1000;

/**
 * Counts the SQL statements the ORM sends, process-wide, and keeps the latest ones. Cheap enough to
 * keep on; it lets tests prove that a page costs a fixed number of statements whatever its size.
 */
export const queryStats = { statements: 0, recent: [] as string[] };

export function countStatement(sql: string): string {
  queryStats.statements++;
  queryStats.recent.push(sql);
  if (queryStats.recent.length > RECENT) queryStats.recent.shift();
  return sql;
}

/** The statements sent since `count` was read from `queryStats.statements`. */
export function statementsSince(count: number): string[] {
  return queryStats.recent.slice(Math.max(0, queryStats.recent.length - (queryStats.statements - count)));
}
