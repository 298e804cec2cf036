import fc from 'fast-check';
import { knownIssue } from './known-issues.ts';
import type { FuzzRequest } from './requests.ts';
import type { Timed } from './sender.ts';
import type { FuzzSettings } from './settings.ts';
import type { World } from './world.ts';

export interface FuzzRun {
  /** Names the suite in reports and in the replay hint. */
  name: string;
  /** The test file, for the replay command. */
  file: string;
  world: World;
  settings: FuzzSettings;
  requests: fc.Arbitrary<FuzzRequest>;
  /** Throws when the response breaks a rule; `path` is the request target as sent. */
  check: (request: FuzzRequest, path: string, response: Timed) => void;
}

/**
 * Sends `settings.runs` generated requests one after another (now and then several copies at once)
 * and checks each response: below 500,
 * JSON that parses, within the gross time bound, and whatever `check` adds (known issues are counted
 * instead). After every batch `/healthz` must answer 200 and the world is repaired. Prints what was
 * seen; a failure names the seed and path that replay it.
 */
export async function fuzz({ name, file, world, settings, requests, check }: FuzzRun): Promise<void> {
  const seen = new Observations(settings);
  let sent = 0;
  // Sometimes the same request goes out several times at once: duplicates racing each other must
  // still get contract answers (a unique violation or lost update is no reason for a 500).
  const copies = fc.oneof({ weight: 8, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 4 }) });
  const property = fc.asyncProperty(requests, copies, async (request, times) => {
    const path = world.resolve(request.path);
    const responses = await Promise.all(Array.from({ length: times }, () => world.send(request)));
    for (const response of responses) {
      const described = `${request.method} ${path.slice(0, 300)} → ${response.status} ${response.text.slice(0, 500)}`;
      const issue = knownIssue(request, response);
      seen.record(request, path, response, issue);
      if (response.status >= 500) throw new Error(`server error: ${described}`);
      if (response.unparsable) throw new Error(`a JSON response that does not parse: ${described}`);
      if (response.ms > settings.grossMs) throw new Error(`answered after ${Math.round(response.ms)} ms (gross bound ${settings.grossMs} ms): ${described}`);
      if (!issue) check(request, path, response);
    }
    if (++sent % settings.batch === 0) {
      const health = await world.health();
      if (health.status !== 200) throw new Error(`/healthz answered ${health.status} ${health.text.slice(0, 200)} after: ${request.method} ${path.slice(0, 300)}`);
      await world.repair();
    }
  });
  const details = await fc.check(property, { seed: settings.seed, path: settings.path, numRuns: settings.runs, includeErrorInReport: true });
  console.log(seen.report(name));
  if (details.failed) {
    const replay = `FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath} npx vitest run ${file}`;
    const message = (await fc.asyncDefaultReportMessage(details)) ?? '';
    // A counterexample may hold megabyte strings: keep each line readable.
    const readable = message.split('\n').map((line) => (line.length > 3_000 ? `${line.slice(0, 3_000)}… (${line.length} characters)` : line));
    throw new Error(`${name} fuzzing failed (seed ${details.seed}); replay with: ${replay}\n${readable.join('\n')}`);
  }
}

/** Response times, statuses and known issues of a run, for its report. */
class Observations {
  readonly #settings: FuzzSettings;
  readonly #times: number[] = [];
  readonly #slow: string[] = [];
  readonly #statuses = new Map<number, number>();
  readonly #known = new Map<string, number>();

  constructor(settings: FuzzSettings) {
    this.#settings = settings;
  }

  record(request: FuzzRequest, path: string, response: Timed, issue: string | undefined): void {
    this.#times.push(response.ms);
    count(this.#statuses, response.status);
    if (issue) count(this.#known, issue);
    if (response.ms > this.#settings.slowMs) this.#slow.push(`${Math.round(response.ms)} ms ${request.method} ${path.slice(0, 120)} → ${response.status}`);
  }

  report(name: string): string {
    const sorted = [...this.#times].sort((a, b) => a - b);
    const at = (quantile: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] ?? 0);
    const statuses = [...this.#statuses].sort(([a], [b]) => a - b).map(([status, times]) => `${status}×${times}`).join(' ');
    return [
      `${name}: ${sorted.length} requests (seed ${this.#settings.seed}), statuses ${statuses}; ms p50 ${at(0.5)}, p99 ${at(0.99)}, max ${at(1)}; ${this.#slow.length} over ${this.#settings.slowMs} ms`,
      ...this.#slow.slice(0, 10).map((line) => `  slow: ${line}`),
      ...[...this.#known].map(([issue, times]) => `  known issue ×${times}: ${issue}`),
    ].join('\n');
  }
}

function count<K>(counts: Map<K, number>, key: K): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
