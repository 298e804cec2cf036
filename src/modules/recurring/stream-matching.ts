import { toUnits, withinPercent } from './amounts.ts';
import { AMOUNT_TOLERANCE_PERCENT, type DetectedStream } from './detection.ts';
import type { StoredStream } from './recurring.store.ts';

/** A detected stream with the stored one it continues, if any. */
export interface MatchedStream {
  detected: DetectedStream;
  stored: StoredStream | undefined;
}

/**
 * Pairs one account's recomputed streams with its stored ones, so a stream keeps its id: a stored
 * stream continues the detected one of the same direction and frequency that shares the most
 * member transactions with it, whatever its key (a new enrichment version may name the merchant
 * anew); one that shares none (its transactions were re-issued) continues the one of the same
 * direction, key and frequency when its last amount is within the amount tolerance.
 * Stored streams matched by none are returned as `vanished`.
 */
export function matchStreams(detected: DetectedStream[], stored: StoredStream[]): { matches: MatchedStream[]; vanished: StoredStream[] } {
  const sameKind = (a: DetectedStream, b: StoredStream) => a.direction === b.direction && a.frequency === b.frequency;
  const taken = new Set<StoredStream>();
  const matched = new Map<DetectedStream, StoredStream>();
  const pairs = detected.flatMap((stream) => {
    const members = new Set(stream.transactionIds);
    return stored.filter((candidate) => sameKind(stream, candidate)).map((candidate) => ({ stream, candidate, shared: candidate.transactionIds.filter((id) => members.has(id)).length }));
  });
  // The largest overlaps first, each side used once.
  for (const { stream, candidate } of pairs.filter((pair) => pair.shared > 0).sort((a, b) => b.shared - a.shared)) {
    if (matched.has(stream) || taken.has(candidate)) continue;
    matched.set(stream, candidate);
    taken.add(candidate);
  }
  for (const { stream, candidate } of pairs) {
    if (matched.has(stream) || taken.has(candidate) || stream.key !== candidate.key) continue;
    if (!withinPercent(toUnits(stream.lastAmount), toUnits(candidate.lastAmount), AMOUNT_TOLERANCE_PERCENT)) continue;
    matched.set(stream, candidate);
    taken.add(candidate);
  }
  return { matches: detected.map((stream) => ({ detected: stream, stored: matched.get(stream) })), vanished: stored.filter((stream) => !taken.has(stream)) };
}
