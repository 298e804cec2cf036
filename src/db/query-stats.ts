/**
 * Counts the SQL statements the ORM sends, process-wide. Cheap enough to keep on; it lets tests prove
 * that a page costs a fixed number of statements whatever its size (no N+1).
 */
export const queryStats = { statements: 0 };

export function countStatement(sql: string): string {
  queryStats.statements++;
  return sql;
}
