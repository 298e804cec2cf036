import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import { countStatement } from './query-stats.ts';

/**
 * Runs `copy … from stdin` (`sql`) with the text `chunks` make (COPY's text format: copyLine per
 * row) on the EntityManager's connection, inside its transaction when it has one; counted like any
 * statement. Each chunk is handed to the connection before the next one is made, so the server reads
 * and stores rows while this process makes the next ones; a chunk waits only while the connection
 * still holds earlier text it could not send. When making a chunk fails, the COPY is abandoned (the
 * server is told, the connection is free again) and that error is thrown as it is.
 */
export async function copyIn(em: EntityManager, sql: string, chunks: Iterable<string>): Promise<void> {
  countStatement(sql);
  const copy = copyFrom(sql);
  // Rejects on the COPY's failure (a unique violation, a timeout); awaited in every path below.
  const done = finished(copy);
  done.catch(() => undefined);
  const converted = (error: unknown) => em.getDriver().convertException(error as Error);
  try {
    // pg's client.query takes a submittable in place of the text: kysely hands it on and returns at
    // once, and the connection is the copy's until it ends (pg queues any statement sent meanwhile).
    await em.getKysely().executeQuery(CompiledQuery.raw(copy as unknown as string, []));
  } catch (error) {
    throw converted(error);
  }
  const iterator = chunks[Symbol.iterator]();
  for (;;) {
    let next: IteratorResult<string>;
    try {
      next = iterator.next();
    } catch (error) {
      // CopyFail: the server ends the COPY with an error and the connection takes statements again.
      copy.destroy(error as Error);
      await done.catch(() => undefined);
      throw error;
    }
    if (next.done) break;
    // Held until the server answers the COPY, then written out; past the stream's buffer, the next
    // chunk waits for the connection to take this one (or for the COPY's failure).
    if (!copy.write(next.value)) await Promise.race([once(copy, 'drain'), done]).catch((error: unknown) => Promise.reject(converted(error)));
  }
  copy.end();
  await done.catch((error: unknown) => Promise.reject(converted(error)));
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
