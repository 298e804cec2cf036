import type { AccountKind, AccountState } from './account.entity.ts';

/** What identifies a stored account, as matching compares it. */
export interface StoredAccountKey {
  id: string;
  remoteId: string;
  name: string;
  kind: AccountKind;
  currencyCode: string;
  mask?: string | null;
  state: AccountState;
  /** Keyed hash of its identifier (IBAN, account number); null when the provider never gave one. */
  identifierHash?: string | null;
}

/** What identifies a reported account; `identifierHashes`: its identifier's keyed hash under every key, null without one. */
export interface ReportedAccountKey {
  remoteId: string;
  name: string;
  kind: AccountKind;
  currencyCode: string;
  mask: string | null;
  identifierHashes: string[] | null;
}

/**
 * Which stored account each reported account is (reported remoteId → stored account id), for an
 * upstream that may reissue remote ids (a PSD2 re-consent). In order, each rule on what is left:
 * 1. the same remote id: the same account;
 * 2. the same identifier (its keyed hash), when exactly one stored and one reported account share it;
 * 3. an open stored account of the same currency, kind and name, with the same mask when both have
 *    one, when exactly one stored and one reported account fit each other, and not both known by
 *    identifiers that differ.
 * A reported account left over is new; a stored one left over is no longer reported (closed by the
 * caller, its history kept). Nothing ambiguous is ever matched: a wrong match would move one
 * account's history onto another, a missed one only leaves a closed account beside a new one.
 */
export function matchAccounts(stored: StoredAccountKey[], reported: ReportedAccountKey[]): Map<string, string> {
  const matches = new Map<string, string>();
  const storedByRemoteId = new Map(stored.map((account) => [account.remoteId, account]));
  for (const account of reported) {
    const same = storedByRemoteId.get(account.remoteId);
    if (same) matches.set(account.remoteId, same.id);
  }
  const leftStored = () => {
    const taken = new Set(matches.values());
    return stored.filter((account) => !taken.has(account.id));
  };
  const leftReported = () => reported.filter((account) => !matches.has(account.remoteId));
  pairUniquely(leftStored(), leftReported(), sameIdentifier, matches);
  pairUniquely(leftStored().filter((account) => account.state === 'OPEN'), leftReported(), sameDescription, matches);
  return matches;
}

/** Adds to `matches` each pair that fits only each other. */
function pairUniquely(stored: StoredAccountKey[], reported: ReportedAccountKey[], fits: (stored: StoredAccountKey, reported: ReportedAccountKey) => boolean, matches: Map<string, string>): void {
  for (const account of reported) {
    const candidates = stored.filter((candidate) => fits(candidate, account));
    if (candidates.length !== 1) continue;
    const [candidate] = candidates as [StoredAccountKey];
    if (reported.filter((other) => fits(candidate, other)).length === 1) matches.set(account.remoteId, candidate.id);
  }
}

function sameIdentifier(stored: StoredAccountKey, reported: ReportedAccountKey): boolean {
  return stored.identifierHash != null && reported.identifierHashes !== null && reported.identifierHashes.includes(stored.identifierHash);
}

function sameDescription(stored: StoredAccountKey, reported: ReportedAccountKey): boolean {
  // Both known by identifiers, and not the same one (rule 2 found none): two different accounts.
  if (stored.identifierHash != null && reported.identifierHashes !== null) return false;
  return (
    stored.currencyCode === reported.currencyCode &&
    stored.kind === reported.kind &&
    normalize(stored.name) === normalize(reported.name) &&
    (stored.mask == null || reported.mask === null || stored.mask === reported.mask)
  );
}

function normalize(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}
