import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../../src/lib/ids.ts';
import { readCursor, writeCursor } from '../../src/modules/transaction/transaction-cursor.ts';

const encode = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const MALFORMED = /^The cursor is malformed/;

describe('transaction cursors', () => {
  it.each(['DATE_DESC', 'DATE_ASC'] as const)('round-trip a position in %s', (sort) => {
    const position = { date: '2024-02-29', id: uuidv7() };
    const cursor = writeCursor(sort, position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(readCursor(cursor, sort)).toEqual(position);
  });

  it('differ between the two sort orders, and refuse a cursor of the other order with 400', () => {
    const position = { date: '2026-01-31', id: uuidv7() };
    const descending = writeCursor('DATE_DESC', position);
    expect(writeCursor('DATE_ASC', position)).not.toBe(descending);
    expect(() => readCursor(descending, 'DATE_ASC')).toThrow(expect.objectContaining({ status: 400, message: 'The cursor comes from the other sort order; keep sort DATE_ASC throughout a walk' }));
    expect(() => readCursor(writeCursor('DATE_ASC', position), 'DATE_DESC')).toThrow(/keep sort DATE_DESC/);
  });

  it.each([
    ['empty', ''],
    ['not base64url JSON', 'not a cursor!'],
    ['JSON that is no array', encode({ order: 'd', date: '2026-01-01', id: '0190a8a4-0000-7000-8000-000000000000' })],
    ['an array of two', encode(['d', '2026-01-01'])],
    ['an array of four', encode(['d', '2026-01-01', '0190a8a4-0000-7000-8000-000000000000', 'x'])],
    ['an id that is no uuid', encode(['d', '2026-01-01', 'txn_01jdq3v6x8f9k2m4n7p0r5s8tw'])],
    ['an uppercase uuid', encode(['d', '2026-01-01', '0190A8A4-0000-7000-8000-000000000000'])],
    ['an impossible date', encode(['d', '2026-02-30', '0190a8a4-0000-7000-8000-000000000000'])],
    ['a date without padding', encode(['d', '2026-2-1', '0190a8a4-0000-7000-8000-000000000000'])],
    ['year 0000, which PostgreSQL has not', encode(['d', '0000-01-01', '0190a8a4-0000-7000-8000-000000000000'])],
    ['a timestamp for a date', encode(['d', '2026-01-01T00:00:00Z', '0190a8a4-0000-7000-8000-000000000000'])],
    ['SQL in the date', encode(['d', "2026-01-01'; drop table transaction; --", '0190a8a4-0000-7000-8000-000000000000'])],
  ])('refuse %s with 400', (_what, cursor) => {
    expect(() => readCursor(cursor, 'DATE_DESC')).toThrow(expect.objectContaining({ status: 400, message: expect.stringMatching(MALFORMED) }));
  });

  it('check the position before the order, so a malformed cursor is never taken for one of the other order', () => {
    expect(() => readCursor(encode(['a', '2026-02-30', '0190a8a4-0000-7000-8000-000000000000']), 'DATE_DESC')).toThrow(MALFORMED);
    expect(() => readCursor(encode(['x', '2026-01-01', '0190a8a4-0000-7000-8000-000000000000']), 'DATE_DESC')).toThrow(/other sort order/);
  });
});
