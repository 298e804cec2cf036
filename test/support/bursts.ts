import type { TestResponse } from './http-client.ts';

export type Send = () => Promise<TestResponse>;

/**
 * Fires `count` requests at once, starting just after a wall-clock second begins, and returns them if
 * they all arrived within that one second (retrying a few bursts otherwise: this proves window
 * arithmetic, it does not measure speed).
 */
export async function burstWithinOneSecond(count: number, send: Send): Promise<TestResponse[]> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await nextSecond();
    const second = Math.floor(Date.now() / 1000);
    const responses = await Promise.all(Array.from({ length: count }, send));
    if (Math.floor(Date.now() / 1000) === second) return responses;
  }
  throw new Error(`could not fit ${count} requests into one second in 5 attempts`);
}

/**
 * Fires `count` requests at once, starting just after a wall-clock second begins, and returns them once
 * a burst has some refused (429). On a loaded machine a burst can spread over windows that each stay
 * under the limit; it is fired again then, 5 bursts at most.
 */
export async function burstUntilRefused(count: number, send: Send): Promise<TestResponse[]> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await nextSecond();
    const responses = await Promise.all(Array.from({ length: count }, send));
    if (responses.some((response) => response.status === 429)) return responses;
  }
  throw new Error(`no window refused any of ${count} requests in 5 bursts`);
}

/**
 * How many requests each window admitted, most first, read from the admitted responses alone: a window
 * numbers its admissions 1, 2, 3… (Ratelimit-Remaining counts down from `limit`), so however the
 * burst fell across windows, the numbers split into runs 1…n, one per window. Throws when they do not:
 * a number carried twice in one window, or one skipped.
 */
export function admittedPerWindow(responses: TestResponse[], limit: number): number[] {
  const carried = new Map<number, number>();
  for (const response of responses.filter((r) => r.status < 400)) {
    const number = limit - Number(response.headers['ratelimit-remaining']);
    carried.set(number, (carried.get(number) ?? 0) + 1);
  }
  const windows: number[] = [];
  let previous = Infinity;
  for (let number = 1; number <= limit; number++) {
    const times = carried.get(number) ?? 0;
    carried.delete(number);
    // Each window that reached `number` reached `number - 1` first.
    if (times > previous) throw new Error(`${times} admissions numbered ${number} but ${previous} numbered ${number - 1}`);
    for (let window = 0; window < times; window++) windows[window] = number;
    previous = times;
  }
  if (carried.size > 0) throw new Error(`admissions numbered outside 1…${limit}: ${[...carried.keys()].join(', ')}`);
  return windows;
}

/** Waits until just after the next wall-clock second begins (a fresh rate-limit window). */
export function nextSecond(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
}

/** How many responses were admitted, rate limited (429) or anything else. */
export function tally(responses: TestResponse[]) {
  const ok = responses.filter((r) => r.status < 400);
  const limited = responses.filter((r) => r.status === 429);
  return { ok: ok.length, limited: limited.length, other: responses.length - ok.length - limited.length, limitedResponses: limited };
}

/** Opens the keep-alive connections first, in an earlier second: `count` requests at once. */
export async function warm(send: Send, count = 40): Promise<void> {
  await Promise.all(Array.from({ length: count }, send));
}
