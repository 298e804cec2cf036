import { describe, expect, it } from 'vitest';
import { fairFetches, MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT, shareFetched } from '../../src/modules/webhook/fair-share.ts';

/** A fetched job: `name` is `<environment><subscription>#<n>`, e.g. `a1#2`, for readable expectations. */
const job = (name: string) => ({ name, environmentId: name[0]!, subscriptionId: name.split('#')[0]! });
const names = (jobs: Array<{ name: string }>) => jobs.map(({ name }) => name);

describe('the fair fetches', () => {
  it('fetch for the environments with the fewest attempts in flight first, up to the next level, never for one at its cap', () => {
    expect(fairFetches(new Map())).toEqual([{ skipped: [], bound: MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT }]);
    const inFlight = new Map([['one', 1], ['three', 3], ['another three', 3], ['full', MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT]]);
    expect(fairFetches(inFlight)).toEqual([
      { skipped: ['one', 'three', 'another three', 'full'], bound: 1 },
      { skipped: ['three', 'another three', 'full'], bound: 3 },
      { skipped: ['full'], bound: MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT },
    ]);
  });
});

describe("sharing one fetch's jobs among the free slots", () => {
  it('takes one job per subscription, none of a busy one, and leaves the rest to go back', () => {
    const jobs = ['a1#1', 'a1#2', 'a2#1', 'b1#1', 'a1#3', 'b1#2'].map(job);
    const { taken, left } = shareFetched(jobs, new Map([['a', 1]]), new Set(['a2']), 8, 8);
    expect(names(taken)).toEqual(['b1#1', 'a1#1']);
    expect(names(left)).toEqual(['a1#2', 'a2#1', 'a1#3', 'b1#2']);
  });

  it('gives each next slot to the environment with the fewest attempts in flight, the oldest job breaking ties', () => {
    // a's jobs are older, but b has none in flight and a two; c, with one, ties with a after b's first.
    const jobs = ['a1#1', 'a2#1', 'a3#1', 'c1#1', 'b1#1', 'b2#1', 'b3#1', 'c2#1'].map(job);
    const { taken } = shareFetched(jobs, new Map([['a', 2], ['c', 1]]), new Set(), 6, 8);
    expect(names(taken)).toEqual(['b1#1', 'c1#1', 'b2#1', 'a1#1', 'b3#1', 'c2#1']);
  });

  it('fills no environment past the bound and takes no more than the free slots', () => {
    const jobs = ['a1#1', 'a2#1', 'a3#1', 'b1#1', 'b2#1'].map(job);
    expect(names(shareFetched(jobs, new Map([['a', 1]]), new Set(), 8, 2).taken)).toEqual(['b1#1', 'a1#1', 'b2#1']);
    expect(names(shareFetched(jobs, new Map(), new Set(), 2, 8).taken)).toEqual(['a1#1', 'b1#1']);
  });
});
