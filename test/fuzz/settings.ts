/**
 * How much the fuzz suite does. `npm test` runs a bounded, seeded pass; `npm run fuzz` runs many more
 * cases. FUZZ_SEED replays a run (it is printed on failure), FUZZ_PATH jumps to its counterexample,
 * FUZZ_RUNS sets the number of requests per suite.
 */
export interface FuzzSettings {
  seed: number;
  path: string | undefined;
  /** Requests per suite. */
  runs: number;
  /** `/healthz` is checked, and the fixtures repaired, after every batch of this many requests. */
  batch: number;
  /** Slower than this is reported, not failed: the machines that run the suite are noisy. */
  slowMs: number;
  /** Slower than this fails: a gross outlier, not noise. */
  grossMs: number;
}

/** The seed of `npm test`: fixed, so a run is reproducible. */
const DEFAULT_SEED = 20260401;

/** Reads the settings; `defaultRuns` is what `npm test` does for this suite, within its time budget. */
export function fuzzSettings(defaultRuns: number): FuzzSettings {
  const deep = process.env.npm_lifecycle_event === 'fuzz';
  return {
    seed: integer('FUZZ_SEED', DEFAULT_SEED),
    path: process.env.FUZZ_PATH || undefined,
    runs: integer('FUZZ_RUNS', deep ? defaultRuns * 10 : defaultRuns),
    batch: 100,
    slowMs: integer('FUZZ_SLOW_MS', 2_000),
    grossMs: integer('FUZZ_GROSS_MS', 10_000),
  };
}

function integer(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return value;
}
