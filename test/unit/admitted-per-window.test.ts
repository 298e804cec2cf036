import { describe, expect, it } from 'vitest';
import { admittedPerWindow, burstPerWindow } from '../support/bursts.ts';
import type { TestResponse } from '../support/http-client.ts';

/** Responses as a limit of 10 numbers them: admissions 1…10 (Remaining 9…0), then refusals. */
const admitted = (...numbers: number[]): TestResponse[] => numbers.map((number) => ({ status: 200, headers: { 'ratelimit-limit': '10', 'ratelimit-remaining': String(10 - number) }, body: {}, text: '' }));
const refused = (count: number): TestResponse[] => Array.from({ length: count }, () => ({ status: 429, headers: { 'ratelimit-limit': '10', 'ratelimit-remaining': '0' }, body: {}, text: '' }));
const run = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
/** Sends that answer `responses` in turn, as a service would a burst. */
const answering = (responses: TestResponse[]) => {
  let next = 0;
  return () => Promise.resolve(responses[next++ % responses.length]!);
};

describe('admittedPerWindow: the windows a burst fell into, from the admitted responses alone', () => {
  it('reads one window, or several in any order of arrival, most admitted first', () => {
    expect(admittedPerWindow([...admitted(...run(10)), ...refused(5)], 10)).toEqual([10]);
    expect(admittedPerWindow([...admitted(1, 2, 3), ...refused(2), ...admitted(...run(10).reverse()), ...admitted(1)], 10)).toEqual([10, 3, 1]);
  });

  it('refuses numbers no set of windows gives: one counted twice, one skipped, one past the limit', () => {
    // An 11th admission in a window of 10 says Remaining 0 again.
    expect(() => admittedPerWindow(admitted(...run(10), 10), 10)).toThrow('2 admissions numbered 10 but 1 numbered 9');
    expect(() => admittedPerWindow(admitted(2, 4, 6), 10)).toThrow('1 admissions numbered 2 but 0 numbered 1');
    expect(() => admittedPerWindow(admitted(1, 11), 10)).toThrow('admissions numbered outside 1…10: 11');
  });
});

describe('burstPerWindow: a burst read per window, every response admitted or refused under the limit', () => {
  it('returns the admissions per window and the refusals', async () => {
    const burst = await burstPerWindow(15, answering([...admitted(...run(10)), ...refused(3), ...admitted(1, 2)]), 10);
    expect(burst.admitted).toEqual([10, 2]);
    expect(burst.refused).toHaveLength(3);
  });

  it('throws on a response neither admitted nor refused, or one under another limit', async () => {
    const failed = { status: 500, headers: { 'ratelimit-limit': '10', 'ratelimit-remaining': '9' }, body: {}, text: '' };
    await expect(burstPerWindow(12, answering([...admitted(...run(10)), ...refused(1), failed]), 10)).rejects.toThrow('responses neither admitted nor refused: 500');
    await expect(burstPerWindow(11, answering([...admitted(...run(10)), ...refused(1)]), 25)).rejects.toThrow('Ratelimit-Limit 10, expected 25');
  });
});
