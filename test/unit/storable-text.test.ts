import { describe, expect, it } from 'vitest';
import { unstorableText } from '../../src/lib/storable-text.ts';

const NUL = 'must not contain NUL characters (\\u0000)';
const SURROGATE = 'must not contain an unpaired surrogate (text must be well-formed Unicode)';

describe('unstorableText', () => {
  it('reports every bad value at its path and every bad key at its object, in document order', () => {
    const value = { a: { x: 'ok', y: 'b\u0000' }, list: ['fine', ['\ud800']], ['k\u0000']: 'v', z: 'x\udfff' };
    expect(unstorableText(value)).toEqual([
      { path: ['a', 'y'], message: NUL },
      { path: ['list', '1', '0'], message: SURROGATE },
      { path: [], message: `keys ${NUL}` },
      { path: ['z'], message: SURROGATE },
    ]);
    expect(unstorableText('\u0000')).toEqual([{ path: [], message: NUL }]);
    expect(unstorableText({ plan: 'gold', score: 1, nested: [null, true, { ok: 'yes' }] })).toEqual([]);
  });

  it.each([
    ['objects', (depth: number) => '{"a":'.repeat(depth) + '"\\u0000"' + '}'.repeat(depth)],
    ['arrays', (depth: number) => '['.repeat(depth) + '"\\u0000"' + ']'.repeat(depth)],
  ])('walks %s nested 100,000 deep (a request body may) without overflowing the stack', (_shape, nested) => {
    const issues = unstorableText(JSON.parse(nested(100_000)));
    expect(issues).toHaveLength(1);
    expect(issues[0].path).toHaveLength(100_000);
    expect(issues[0].message).toBe(NUL);
  });
});
