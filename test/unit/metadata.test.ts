import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.ts';
import { mergeMetadata } from '../../src/modules/metadata/metadata.ts';

function issuesOf(run: () => unknown): Array<{ path: string; message: string }> {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('custom metadata rules', () => {
  it('merges: absent keys stay, null deletes a key, a value replaces', () => {
    expect(mergeMetadata({ a: '1', b: '2' }, { b: null, c: 3 })).toEqual({ a: '1', c: 3 });
  });

  it('leaves metadata alone when the update omits it', () => {
    expect(mergeMetadata({ a: '1' }, undefined)).toEqual({ a: '1' });
  });

  it('clears to null when the update is null or nulls every key', () => {
    expect(mergeMetadata({ a: '1' }, null)).toBeNull();
    expect(mergeMetadata({ a: '1', b: true }, { a: null, b: null })).toBeNull();
  });

  it('requires a JSON object with at least one key', () => {
    expect(issuesOf(() => mergeMetadata(null, {}))).toEqual([{ path: 'metadata', message: 'metadata must include at least one key' }]);
    expect(issuesOf(() => mergeMetadata(null, ['a']))[0]!.path).toBe('metadata');
    expect(issuesOf(() => mergeMetadata(null, 'text'))[0]!.path).toBe('metadata');
  });

  it('limits keys to 50, key names to 50 characters and values to 500', () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    expect(Object.keys(mergeMetadata(null, fifty)!)).toHaveLength(50);
    expect(issuesOf(() => mergeMetadata(null, { ...fifty, one: 'more' }))[0]!.message).toMatch(/at most 50 keys/);
    expect(issuesOf(() => mergeMetadata(fifty, { extra: 'x' }))[0]!.message).toMatch(/would leave 51/);
    expect(mergeMetadata(null, { ['k'.repeat(50)]: 'v'.repeat(500) })).not.toBeNull();
    expect(issuesOf(() => mergeMetadata(null, { ['k'.repeat(51)]: 'v' }))[0]!.message).toMatch(/key must be at most 50/);
    expect(issuesOf(() => mergeMetadata(null, { k: 'v'.repeat(501) }))).toEqual([{ path: 'metadata.k', message: 'a metadata value must be at most 500 characters' }]);
  });

  it('accepts strings, numbers and booleans, refuses nested values', () => {
    expect(mergeMetadata(null, { s: 'x', n: 1.5, b: false })).toEqual({ s: 'x', n: 1.5, b: false });
    expect(issuesOf(() => mergeMetadata(null, { nested: { a: 1 } }))[0]!.path).toBe('metadata.nested');
  });

  it.each([
    ['an email', { contact: 'jane.doe@example.com' }],
    ['an international phone number', { contact: '+1 415 555 0123' }],
    ['a national phone number', { contact: '(415) 555-0123' }],
    ['an ISO birthday', { since: '1987-06-15' }],
    ['a US birthday', { since: '06/15/1987' }],
    ['a sensitive key', { dob: 'yes' }],
  ])('rejects sensitive data: %s', (_kind, update) => {
    const [issue] = issuesOf(() => mergeMetadata(null, update));
    expect(issue!.message).toMatch(/sensitive/);
  });

  it('keeps ordinary values that only resemble sensitive data loosely', () => {
    expect(mergeMetadata(null, { orderId: '4155550123', renewal: '2031-01-01', plan: 'gold@tier' })).toEqual({
      orderId: '4155550123',
      renewal: '2031-01-01',
      plan: 'gold@tier',
    });
  });

  it('reports every broken entry at once', () => {
    expect(issuesOf(() => mergeMetadata(null, { a: 'x@y.io', b: 'v'.repeat(501) })).map((issue) => issue.path)).toEqual(['metadata.a', 'metadata.b']);
  });
});
