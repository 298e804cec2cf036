import { finished } from 'node:stream/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import { countStatement } from './query-stats.ts';

/**
 * Runs `copy … from stdin` (`sql`) with `text` (COPY's text format: copyLine per row) on the
 * EntityManager's connection, inside its transaction when it has one; counted like any statement.
 * `sent` is called once the text is handed to the connection (the server has it or will, whatever
 * this process does next).
 */
export async function copyIn(em: EntityManager, sql: string, text: string, sent?: () => void): Promise<void> {
  countStatement(sql);
  const copy = copyFrom(sql);
  try {
    // pg's client.query takes a submittable in place of the text: kysely hands it on and returns at
    // once, and the connection is the copy's until it ends (pg queues any statement sent meanwhile).
    await em.getKysely().executeQuery(CompiledQuery.raw(copy as unknown as string, []));
    // Held until the server answers the COPY, then written out: the callback follows the write.
    copy.write(text, () => sent?.());
    copy.end();
    await finished(copy);
  } catch (error) {
    // The same exceptions as the ORM's own queries (unique violations, timeouts).
    throw em.getDriver().convertException(error as Error);
  }
}

/** A row in COPY's text format: tab-separated, `\N` for null, JSON for objects, backslash escapes, a newline at the end. */
export function copyLine(row: readonly unknown[]): string {
  return `${row.map(copyValue).join('\t')}\n`;
}

/** What COPY's text format escapes: backslash, tab, newline, carriage return. */
const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPED: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value as number | boolean);
  // Most values have nothing to escape: testing first spares them the replace.
  return SPECIAL.test(text) ? text.replace(SPECIALS, (char) => ESCAPED[char]!) : text;
}
