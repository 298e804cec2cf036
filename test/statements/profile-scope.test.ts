import { readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { readStatementLog } from '../support/statement-log.ts';
import { isDataStatement, tableReferences } from '../support/sql-scope.ts';

/**
 * Ready for a database sharded by profile (docs/scaling.md, "Sharding by profile"): every table that
 * holds a profile's data carries `profile_id`, and every statement the run sent that touches one
 * names it (the rule is in test/support/sql-scope.ts). This project runs after every other test
 * file (vitest.config.ts), over what pg_stat_statements recorded; the environment-wide exceptions
 * are in allow-list.yaml, each with its reason.
 */
interface AllowList {
  tables: { table: string; reason: string }[];
  sections: { heading: string; entries: { match: string; reason: string }[] }[];
}

const allowList = parse(readFileSync(new URL('allow-list.yaml', import.meta.url), 'utf8')) as AllowList;
const allowed = allowList.sections.flatMap((section) => section.entries.map((entry) => ({ ...entry, pattern: new RegExp(entry.match, 'i') })));
const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/** The public tables of the migrated schema, and which carry `profile_id`. */
async function schemaTables(): Promise<{ table: string; hasProfileId: boolean }[]> {
  const { adminUrl, template } = inject('database');
  const client = new pg.Client({ connectionString: adminUrl.replace(/\/[^/]+$/, `/${template}`) });
  await client.connect();
  try {
    const { rows } = await client.query<{ table: string; hasProfileId: boolean }>(
      `select c.relname as "table", exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'profile_id' and not a.attisdropped) as "hasProfileId"
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`,
    );
    return rows;
  } finally {
    await client.end();
  }
}

describe('statements name their profile', () => {
  it('every table that holds a profile’s data carries profile_id (the others are listed with their reason)', async () => {
    const listed = new Set(allowList.tables.map((entry) => entry.table));
    const tables = await schemaTables();
    const unlisted = tables.filter((row) => !row.hasProfileId && row.table !== 'profile' && !listed.has(row.table)).map((row) => row.table);
    expect(unlisted, 'tables without profile_id: add the column, or list the table in allow-list.yaml with why it holds no profile’s data').toEqual([]);
    const stale = [...listed].filter((table) => !tables.some((row) => row.table === table && !row.hasProfileId));
    expect(stale, 'allow-list.yaml lists tables that are gone or now carry profile_id').toEqual([]);
  });

  it('every statement the run sent that touches a profile’s table names its profile_id, or is allow-listed', async () => {
    const state = inject('statementLog');
    if (!state.available) throw new Error(state.reason);
    const { adminUrl, template } = inject('database');
    const { statements, evicted } = await readStatementLog(adminUrl, template);
    expect(evicted, 'pg_stat_statements evicted entries, so some statements went unchecked: raise pg_stat_statements.max (test/support/statement-log.ts)').toBe(0);
    const keyColumns = new Map((await schemaTables()).filter((row) => row.hasProfileId).map((row) => [row.table, 'profile_id']));
    keyColumns.set('profile', 'id');
    const failures = new Map<string, string[]>();
    for (const statement of statements.map(oneLine)) {
      if (!isDataStatement(statement) || allowed.some((entry) => entry.pattern.test(statement))) continue;
      const unkeyed = tableReferences(statement, keyColumns).filter((ref) => !ref.keyed);
      if (unkeyed.length > 0) failures.set(statement, [...new Set(unkeyed.map((ref) => ref.table))]);
    }
    const report = [...failures].map(([statement, tables]) => `${tables.join(', ')}: ${statement}`).sort();
    // Every statement checked, one a line, for a closer look (and to try allow-list entries against).
    writeFileSync('.data/test/statements.txt', `${statements.map(oneLine).sort().join('\n')}\n`);
    expect(report, 'statements that touch a profile’s table without naming profile_id (all checked: .data/test/statements.txt): name it, or allow-list it with its reason').toEqual([]);
  });
});
