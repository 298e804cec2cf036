/** Attempts one environment may have in flight in one instance: the other slots stay for other tenants. */
export const MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT = 8;

/** One fetch of the dispatcher's round: the environments it passes over, and how far it may fill the others. */
export interface FairFetch {
  skipped: string[];
  /** Attempts in flight no environment fetched here may go past: the fewest of those passed over, or the cap. */
  bound: number;
}

/** A fetched job as the share sees it (jobs queued before environments were fair-shared name their subscription as environment). */
export interface Candidate {
  subscriptionId: string;
  environmentId: string;
}

/**
 * The fetches that fill free slots, in the order to try them until one finds jobs: first passing over
 * every environment with an attempt in flight here, then every one above the fewest attempts in
 * flight, and so on; an environment at MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT always. The environments
 * with the fewest attempts in flight here thus get the next slots.
 */
export function fairFetches(inFlight: ReadonlyMap<string, number>): FairFetch[] {
  const levels = [...new Set(inFlight.values())].filter((count) => count < MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT).sort((a, b) => a - b);
  return [0, ...levels].map((level) => {
    const skipped = [...inFlight].filter(([, count]) => count > level);
    return { skipped: skipped.map(([environmentId]) => environmentId), bound: Math.min(MAX_ATTEMPTS_IN_FLIGHT_PER_ENVIRONMENT, ...skipped.map(([, count]) => count)) };
  });
}

/**
 * Which jobs of one fetch (oldest first) to take into `free` slots: the next slot always goes to the
 * environment with the fewest attempts in flight, those taken counted (the oldest job breaks ties),
 * and to that environment's oldest job. Never two jobs of one subscription, none of a `busy` one,
 * and no environment past `bound`. Whenever a job is not busy, `free` and `bound` leave room for at
 * least one (fairFetches' bounds are above every level fetched), so a fetch that found jobs starts at
 * least one attempt. The jobs not taken are `left`, to be put back.
 */
export function shareFetched<J extends Candidate>(jobs: J[], inFlight: ReadonlyMap<string, number>, busy: ReadonlySet<string>, free: number, bound: number): { taken: J[]; left: J[] } {
  const waiting = new Map<string, J[]>();
  const seen = new Set(busy);
  for (const job of jobs) {
    if (seen.has(job.subscriptionId)) continue;
    seen.add(job.subscriptionId);
    const queue = waiting.get(job.environmentId);
    if (queue) queue.push(job);
    else waiting.set(job.environmentId, [job]);
  }
  const age = new Map(jobs.map((job, index) => [job, index]));
  const counts = new Map(inFlight);
  const taken = new Set<J>();
  while (taken.size < free) {
    let next: { environmentId: string; count: number; head: J } | undefined;
    for (const [environmentId, [head]] of waiting) {
      const count = counts.get(environmentId) ?? 0;
      if (!head || count >= bound) continue;
      if (!next || count < next.count || (count === next.count && age.get(head)! < age.get(next.head)!)) next = { environmentId, count, head };
    }
    if (!next) break;
    taken.add(waiting.get(next.environmentId)!.shift()!);
    counts.set(next.environmentId, next.count + 1);
  }
  return { taken: [...taken], left: jobs.filter((job) => !taken.has(job)) };
}
