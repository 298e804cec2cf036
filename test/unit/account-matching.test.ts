import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchAccounts, type ReportedAccountKey, type StoredAccountKey } from '../../src/modules/account/account-matching.ts';

function stored(overrides: Partial<StoredAccountKey> & { id: string; remoteId: string }): StoredAccountKey {
  return { name: 'Current Account', kind: 'DEPOSITORY', currencyCode: 'EUR', mask: '1234', state: 'OPEN', identifierHash: null, ...overrides };
}

function reported(overrides: Partial<ReportedAccountKey> & { remoteId: string }): ReportedAccountKey {
  return { name: 'Current Account', kind: 'DEPOSITORY', currencyCode: 'EUR', mask: '1234', identifierHashes: null, ...overrides };
}

/** Hashes as a keyring of two keys gives them: the stored one under either key matches. */
const hashes = (identifier: string) => [`k2.${identifier}`, `k1.${identifier}`];

describe('matching reported accounts to stored ones', () => {
  it('keeps an account under its remote id, whatever else changed', () => {
    const matches = matchAccounts([stored({ id: 'a', remoteId: 'r1' })], [reported({ remoteId: 'r1', name: 'Renamed', mask: '9999' })]);
    expect([...matches]).toEqual([['r1', 'a']]);
  });

  it('follows reissued remote ids by identifier, even renamed, and under a hash of an older key', () => {
    const matches = matchAccounts(
      [stored({ id: 'a', remoteId: 'old-1', identifierHash: 'k1.IBAN-A' }), stored({ id: 'b', remoteId: 'old-2', identifierHash: 'k2.IBAN-B', name: 'Savings' })],
      [reported({ remoteId: 'new-2', name: 'Savings Plus', identifierHashes: hashes('IBAN-B') }), reported({ remoteId: 'new-1', identifierHashes: hashes('IBAN-A') })],
    );
    expect(Object.fromEntries(matches)).toEqual({ 'new-1': 'a', 'new-2': 'b' });
  });

  it('follows reissued remote ids by description when exactly one account fits', () => {
    const matches = matchAccounts(
      [stored({ id: 'a', remoteId: 'old-1' }), stored({ id: 'c', remoteId: 'old-2', kind: 'CREDIT', name: 'Travel Card', mask: null })],
      [reported({ remoteId: 'new-1' }), reported({ remoteId: 'new-2', kind: 'CREDIT', name: 'travel  card', mask: '4321' })],
    );
    expect(Object.fromEntries(matches)).toEqual({ 'new-1': 'a', 'new-2': 'c' });
  });

  it('matches nothing ambiguous: two alike accounts without identifiers stay unmatched', () => {
    const matches = matchAccounts(
      [stored({ id: 'a', remoteId: 'old-1', mask: null }), stored({ id: 'b', remoteId: 'old-2', mask: null })],
      [reported({ remoteId: 'new-1', mask: null }), reported({ remoteId: 'new-2', mask: null })],
    );
    expect(matches.size).toBe(0);
  });

  it('does not match by description accounts known by different identifiers, nor a renamed one without an identifier', () => {
    expect(matchAccounts([stored({ id: 'a', remoteId: 'old', identifierHash: 'k1.IBAN-A' })], [reported({ remoteId: 'new', identifierHashes: hashes('IBAN-Z') })]).size).toBe(0);
    expect(matchAccounts([stored({ id: 'a', remoteId: 'old' })], [reported({ remoteId: 'new', name: 'Everyday Account' })]).size).toBe(0);
    expect(matchAccounts([stored({ id: 'a', remoteId: 'old', mask: '1111' })], [reported({ remoteId: 'new', mask: '2222' })]).size).toBe(0);
  });

  it('leaves an added account new and a removed one unmatched, and never revives a closed account by description', () => {
    const matches = matchAccounts(
      [stored({ id: 'a', remoteId: 'r1' }), stored({ id: 'gone', remoteId: 'r2', kind: 'LOAN', name: 'Car Loan' }), stored({ id: 'closed', remoteId: 'r3', name: 'Savings', state: 'CLOSED' })],
      [reported({ remoteId: 'r1' }), reported({ remoteId: 'r9', name: 'Savings' })],
    );
    expect(Object.fromEntries(matches)).toEqual({ r1: 'a' });
  });

  it('pairs at most one reported account with each stored one, and keeps every remote id that stayed', () => {
    const names = fc.constantFrom('Current Account', 'Savings', 'Travel Card');
    const masks = fc.option(fc.constantFrom('1111', '2222'), { nil: null });
    const identifiers = fc.option(fc.constantFrom('A', 'B', 'C', 'D'), { nil: null });
    const account = fc.record({ remoteId: fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5', 'r6'), name: names, mask: masks, identifier: identifiers, open: fc.boolean() });
    fc.assert(
      fc.property(fc.uniqueArray(account, { selector: (a) => a.remoteId, maxLength: 5 }), fc.uniqueArray(account, { selector: (a) => a.remoteId, maxLength: 5 }), (before, after) => {
        const storedAccounts = before.map((a, i) =>
          stored({ id: `s${i}`, remoteId: a.remoteId, name: a.name, mask: a.mask, state: a.open ? 'OPEN' : 'CLOSED', identifierHash: a.identifier && `k1.${a.identifier}` }),
        );
        const reportedAccounts = after.map((a) => reported({ remoteId: a.remoteId, name: a.name, mask: a.mask, identifierHashes: a.identifier && hashes(a.identifier) }));
        const matches = matchAccounts(storedAccounts, reportedAccounts);
        const ids = [...matches.values()];
        expect(new Set(ids).size).toBe(ids.length);
        for (const account of reportedAccounts) {
          const same = storedAccounts.find((candidate) => candidate.remoteId === account.remoteId);
          if (same) expect(matches.get(account.remoteId)).toBe(same.id);
        }
        // A match under a new remote id shares the identifier, or (identifiers not both known) the description.
        for (const [remoteId, id] of matches) {
          const from = storedAccounts.find((candidate) => candidate.id === id)!;
          const to = reportedAccounts.find((candidate) => candidate.remoteId === remoteId)!;
          if (from.remoteId === remoteId) continue;
          if (from.identifierHash && to.identifierHashes) expect(to.identifierHashes).toContain(from.identifierHash);
          else expect([from.name, from.state]).toEqual([to.name, 'OPEN']);
        }
      }),
    );
  });
});
