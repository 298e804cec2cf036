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

/** Opens the keep-alive connections first, in an earlier second. */
export async function warm(send: Send): Promise<void> {
  await Promise.all(Array.from({ length: 40 }, send));
}
