/**
 * A deterministic pseudo-random sequence in [0, 1) for a key: mulberry32 seeded with the key's
 * FNV-1a hash. Not cryptographic (test data only), and fast enough to regenerate years of history.
 * The one seeded random helper of the synthetic household and of the test fakes that render it.
 */
export function randomFor(key: string): () => number {
  let state = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) state = Math.imul(state ^ key.charCodeAt(i), 0x01000193);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An integer in [min, max] drawn from `random`. */
export function between(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** One element of a non-empty list drawn from `random`. */
export function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** Digits drawn from `random`, as a string of exactly `length` characters. */
export function digits(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(Math.floor(random() * 10));
  return out;
}
