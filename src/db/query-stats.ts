const RECENT = 1000;

/**
 * Counts the SQL statements sent, process-wide (the metrics export the count). The latest ones are
 * kept only once `keepRecentStatements` has been called: tests use them to prove that a page costs a
 * fixed number of statements whatever its size; a production process has no reader for them.
 */
export const queryStats = { statements: 0, recent: [] as string[], keepingRecent: false };

export function countStatement(sql: string): string {
  queryStats.statements++;
  if (queryStats.keepingRecent) {
    queryStats.recent.push(sql);
    if (queryStats.recent.length > RECENT) queryStats.recent.shift();
  }
  return sql;
}

/** From now on, keeps the latest statements for `statementsSince`. */
export function keepRecentStatements(): void {
  queryStats.keepingRecent = true;
}

/** The statements sent since `count` was read from `queryStats.statements` (see keepRecentStatements). */
export function statementsSince(count: number): string[] {
  if (!queryStats.keepingRecent) throw new Error('keepRecentStatements() was not called: no statements are kept');
  return queryStats.recent.slice(Math.max(0, queryStats.recent.length - (queryStats.statements - count)));
}
