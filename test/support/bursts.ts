import type { TestResponse } from './http-client.ts';

export type Send = () => Promise<TestResponse>;

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
 * A burst of `count` under a limit of `limit` (burstUntilRefused), read per window, however it fell
 * across seconds: `admitted` is how many each window admitted, most first (admittedPerWindow), so
 * `admitted[0]` is what the window that refused admitted; `refused` are the 429s. Throws when a
 * response was neither admitted nor refused, or did not carry `Ratelimit-Limit: limit`.
 */
export async function burstPerWindow(count: number, send: Send, limit: number): Promise<{ admitted: number[]; refused: TestResponse[] }> {
  const responses = await burstUntilRefused(count, send);
  const strays = responses.filter((response) => response.status >= 400 && response.status !== 429);
  if (strays.length > 0) throw new Error(`responses neither admitted nor refused: ${strays.map((response) => response.status).join(', ')}`);
  const limits = new Set(responses.map((response) => response.headers['ratelimit-limit']));
  if (limits.size !== 1 || !limits.has(String(limit))) throw new Error(`Ratelimit-Limit ${[...limits].join(', ')}, expected ${limit}`);
  return { admitted: admittedPerWindow(responses, limit), refused: responses.filter((response) => response.status === 429) };
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
