import { dayOf } from './household.ts';
import { randomFor } from './random.ts';
import type { SandboxSecurity } from './securities.ts';

/** The day the walks start from, each way: prices there are about the real closes. */
const ANCHOR_DAY = dayOf(Date.UTC(2024, 0, 1));
const PPM = 1_000_000;

/** A walk's raw (split-free) closes in cents, extended lazily from the anchor each way; each direction has its own random stream. */
interface Walk {
  forward: number[];
  backward: number[];
  nextForward: () => number;
  nextBackward: () => number;
}

const WALKS = new Map<string, Walk>();

/** Sunday is 0: the epoch (day 0) was a Thursday. */
export function isTradingDay(security: SandboxSecurity, day: number): boolean {
  const weekday = (day + 4) % 7;
  return security.tradesDaily || (weekday !== 0 && weekday !== 6);
}

/** The security's last trading day on or before `day` (the day of its close on `day`). */
export function lastTradingDay(security: SandboxSecurity, day: number): number {
  let last = day;
  while (!isTradingDay(security, last)) last--;
  return last;
}

/** Splits on days in (after, until]: whole periods from the security's first split day. */
export function splitsBetween(security: SandboxSecurity, after: number, until: number): number {
  if (!security.split) return 0;
  const first = dayOf(Date.parse(security.split.firstDay));
  const { everyDays } = security.split;
  return Math.floor((until - first) / everyDays) - Math.floor((after - first) / everyDays);
}

/**
 * The security's close in cents on `day` (its last trading day's), the same for every connection: a
 * seeded random walk per security and day, in integers, with its splits applied.
 */
export function closeCents(security: SandboxSecurity, day: number): number {
  const raw = rawClose(security, day);
  const ratio = security.split?.ratio ?? 1;
  if (day >= ANCHOR_DAY) return Math.max(1, divideRounded(raw, ratio ** splitsBetween(security, ANCHOR_DAY, day)));
  return raw * ratio ** splitsBetween(security, day, ANCHOR_DAY);
}

function rawClose(security: SandboxSecurity, day: number): number {
  const walk = walkOf(security);
  if (day >= ANCHOR_DAY) {
    // The close of day d is the close of d − 1 moved by d's step when d is a trading day.
    for (let d = ANCHOR_DAY + walk.forward.length; d <= day; d++) {
      const step = walk.nextForward();
      const previous = walk.forward.at(-1)!;
      walk.forward.push(isTradingDay(security, d) ? Math.max(1, divideRounded(previous * (PPM + step), PPM)) : previous);
    }
    return walk.forward[day - ANCHOR_DAY]!;
  }
  // Backwards, the step of d + 1 is undone to find d's close.
  for (let d = ANCHOR_DAY - walk.backward.length; d >= day; d--) {
    const step = walk.nextBackward();
    const next = walk.backward.at(-1)!;
    walk.backward.push(isTradingDay(security, d + 1) ? Math.max(1, divideRounded(next * PPM, PPM + step)) : next);
  }
  return walk.backward[ANCHOR_DAY - day]!;
}

function walkOf(security: SandboxSecurity): Walk {
  let walk = WALKS.get(security.remoteId);
  if (walk) return walk;
  const stepper = (direction: string) => {
    const random = randomFor(`price:${security.remoteId}:${direction}`);
    // Uniform on ±√3·volatility: its standard deviation is the volatility.
    return () => security.driftPpm + Math.round((random() * 2 - 1) * 1.732 * security.volatilityPpm);
  };
  walk = { forward: [security.anchorCents], backward: [security.anchorCents], nextForward: stepper('forward'), nextBackward: stepper('backward') };
  WALKS.set(security.remoteId, walk);
  return walk;
}

/** a / b rounded half up, for positive integers. */
function divideRounded(a: number, b: number): number {
  return Math.floor((2 * a + b) / (2 * b));
}
