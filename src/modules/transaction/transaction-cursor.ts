import { badRequest } from '../../errors.ts';
import { isRealDate } from '../../lib/dates.ts';
import type { Sort } from './transaction.query.ts';

/** A keyset position in one sort order: the (date, id) of a record. */
export interface Position {
  date: string;
  id: string;
}

/** The opaque cursor of a position: it names its sort order, so a walk cannot switch orders midway. */
export function writeCursor(sort: Sort, position: Position): string {
  return Buffer.from(JSON.stringify([sort === 'DATE_DESC' ? 'd' : 'a', position.date, position.id])).toString('base64url');
}

/** The position a cursor names; 400 when it is not one this service wrote, or was written for the other sort order. */
export function readCursor(cursor: string, sort: Sort): Position {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const [order, date, id] = Array.isArray(parsed) && parsed.length === 3 ? parsed.map(String) : [];
  const valid = isRealDate(date ?? '') && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id ?? '');
  if (!valid) throw badRequest('The cursor is malformed: pass an endCursor, startCursor or edge cursor exactly as received');
  if (order !== (sort === 'DATE_DESC' ? 'd' : 'a')) throw badRequest(`The cursor comes from the other sort order; keep sort ${sort} throughout a walk`);
  return { date: date!, id: id! };
}
