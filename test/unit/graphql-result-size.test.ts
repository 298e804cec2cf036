import { describe, expect, it } from 'vitest';
import { jsonFits, jsonLength, MAX_BYTES_PER_CHARACTER } from '../../src/graphql/result-size.ts';

const rawJSON = (text: string): unknown => (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(text);

describe('the result size walk', () => {
  it.each([
    ['an object', { a: 1, b: 'two', c: null, d: true, e: false, f: [1.5, -2, 1e21], g: {} }],
    ['a list', [[], {}, 'x', 0, null]],
    ['a Decimal written as stored', { amount: rawJSON('-16023.47') }],
    ['an object holding undefined (left out) and a list holding it (null)', { gone: undefined, kept: [undefined, 'y'] }],
    ['metadata as stored', { metadata: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'x'.repeat(500)])) }],
  ])('counts %s as JSON.stringify writes it, give or take an empty list or object', (_name, value) => {
    const text = JSON.stringify(value);
    const counted = jsonLength(value, Infinity);
    expect(counted).toBeLessThanOrEqual(text.length);
    expect(counted).toBeGreaterThanOrEqual(text.length - 2);
  });

  it("counts a string's characters one each: never more than its UTF-8 bytes, and at most six times fewer", () => {
    const value = { quoted: 'a"b\\c', escaped: '\u0001\u0002', accented: 'déjà', emoji: '🙂' };
    const bytes = Buffer.byteLength(JSON.stringify(value));
    const counted = jsonLength(value, Infinity);
    expect(counted).toBeLessThan(bytes);
    expect(counted * MAX_BYTES_PER_CHARACTER).toBeGreaterThanOrEqual(bytes);
  });

  it('stops at the budget: a result whose text would be a terabyte, its metadata held by reference, is measured in no time', () => {
    // 2^30 references to one 1 KB value: JSON.stringify would pass the longest string V8 can hold.
    let value: unknown = { metadata: 'x'.repeat(1024) };
    for (let level = 0; level < 30; level += 1) value = { left: value, right: value };
    const counted = jsonLength(value, 1024 * 1024);
    expect(counted).toBeGreaterThan(1024 * 1024);
    expect(counted).toBeLessThan(1024 * 1024 + 2048);
    expect(jsonFits(value, 1024 * 1024)).toBe(false);
  });

  it('decides a text close to the budget by its exact UTF-8 bytes', () => {
    // 100 characters of two bytes each: counted 100 (+ quotes), written 200.
    const value = 'é'.repeat(100);
    expect(jsonFits(value, 202)).toBe(true);
    expect(jsonFits(value, 201)).toBe(false);
    expect(jsonFits('x'.repeat(100), 102)).toBe(true);
    expect(jsonFits('x'.repeat(100), 101)).toBe(false);
  });
});
