import { expect } from 'vitest';
import type { TestApp } from './test-app.ts';

/**
 * Every row of every table of the app's database that shows one of `needles` in plaintext (as
 * `table: row`): owners' names and emails must be nowhere, events and their outbox included.
 */
export async function rowsShowing(app: TestApp, needles: string[]): Promise<string[]> {
  const tables = await app.sql<{ name: string }>(`select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname in ('public', 'pgboss') order by 1`);
  const found: string[] = [];
  for (const { name } of tables) {
    const rows = await app.sql<{ row: string }>(`select t::text as row from ${name} t`);
    for (const { row } of rows) if (needles.some((needle) => row.toLowerCase().includes(needle.toLowerCase()))) found.push(`${name}: ${row.slice(0, 200)}`);
  }
  expect(tables.length).toBeGreaterThan(10);
  return found;
}
