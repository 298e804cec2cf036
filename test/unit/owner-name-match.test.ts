import { describe, expect, it } from 'vitest';
import { withoutLegalForm } from '../../src/modules/owner/match/legal-forms.ts';
import { matchName } from '../../src/modules/owner/match/name-match.ts';
import { areNicknames } from '../../src/modules/owner/match/nicknames.ts';
import { oneSlipApart, wordsOf } from '../../src/modules/owner/match/words.ts';

const named = (name: string) => ({ name, names: null });

describe('name matching (OwnerNameMatch)', () => {
  it('scores the rules of the contract, best owner name kept', () => {
    const cases: Array<[profile: string, owner: string, score: number]> = [
      ['Ada Lovelace', 'ADA LOVELACE', 100],
      ['Ada Lovelace', 'Lovelace Ada', 100], // family name first
      ['Dr. Ada Lovelace', 'Ada Lovelace Jr', 100], // titles and suffixes
      ['José Núñez', 'Jose Nunez', 100], // accents
      ['Ada Lovelace', 'Ada Augusta Lovelace', 95], // a middle name on one side only
      ['Ada A. Lovelace', 'Ada Augusta Lovelace', 95], // an initial against the middle name
      ['Ada Mary Lovelace', 'Ada Augusta Lovelace', 85], // different middle names
      ['Bob Smith', 'Robert Smith', 90], // nickname
      ['Jennifer Smith', 'Jenn Smith', 90], // nickname the other way
      ['Robert Smithson', 'Robert Smithsen', 80], // one slip in the family name
      ['Bob Smithson', 'Robert Smithsen', 80], // nickname and one slip
      ['Rebecca Smith', 'Rebeca Smith', 80], // one slip in the given name
      ['R Smith', 'Robert Smith', 75], // an initial for the given name
      ['Alice Smith', 'Robert Smith', 50], // the family alone
      ['Robert Jones', 'Robert Smith', 40], // the given name alone
      ['Bob Jones', 'Robert Smith', 40], // a nickname of the given name alone
      ['Alice Jones', 'Robert Smith', 0],
    ];
    for (const [profile, owner, score] of cases) {
      expect({ profile, owner, score: matchName(named(profile), ['Somebody Else', owner])?.score }).toEqual({ profile, owner, score });
    }
  });

  it('sets matched from 70, and the nickname and family-member flags', () => {
    expect(matchName(named('Bob Smith'), ['Robert Smith'])).toEqual({ score: 90, matched: true, nicknameMatched: true, firstOrLastNameMatched: false, businessNameDetected: false });
    expect(matchName(named('Alice Smith'), ['Robert Smith'])).toEqual({ score: 50, matched: false, nicknameMatched: false, firstOrLastNameMatched: true, businessNameDetected: false });
    expect(matchName(named('R Smith'), ['Robert Smith'])!.matched).toBe(true);
  });

  it('reads the profile\'s name parts when set, and its free text too', () => {
    expect(matchName({ name: null, names: { first: 'Bob', middle: null, last: 'Smith' } }, ['Robert Smith'])!.score).toBe(90);
    expect(matchName({ name: 'Robert Smith', names: { first: 'Bobby', middle: null, last: 'Jones' } }, ['Robert Smith'])!.score).toBe(100);
  });

  it('compares business names without their legal form and says it detected one', () => {
    expect(matchName(named('Acme Widgets LLC'), ['ACME WIDGETS L.L.C.'])).toEqual({ score: 100, matched: true, nicknameMatched: false, firstOrLastNameMatched: false, businessNameDetected: true });
    expect(matchName(named('Acme Widgets'), ['Acme Widgets GmbH'])!.score).toBe(100);
    expect(matchName(named('Acme Widgets Inc'), ['Acme Gadgets Inc'])).toMatchObject({ score: 20, matched: false, businessNameDetected: true });
    expect(matchName(named('Ada Lovelace'), ['Ada Lovelace Ltd'])).toMatchObject({ score: 100, businessNameDetected: true });
  });

  it('is null when either side has no name', () => {
    expect(matchName({ name: null, names: null }, ['Robert Smith'])).toBeNull();
    expect(matchName(named('Bob Smith'), [])).toBeNull();
    expect(matchName(named('Bob Smith'), ['  '])).toBeNull();
  });
});

describe('legal forms', () => {
  it('detects each listed form at the end of a name, dotted or not', () => {
    const forms = ['LLC', 'L.L.C.', 'Inc.', 'Corp', 'Ltd', 'GmbH', 'SA', 'S.A.', 'SL', 'S.L.', 'BV', 'B.V.', 'SpA', 'S.p.A.', 'Sp. z o.o.', 'AB', 'A/S', 'AS', 'Oy'];
    for (const form of forms) expect({ form, ...withoutLegalForm(wordsOf(`Nordic Widgets ${form}`)) }).toEqual({ form, words: ['nordic', 'widgets'], business: true });
  });

  it('leaves a person\'s name and a name that is only a form alone', () => {
    expect(withoutLegalForm(wordsOf('Sarah Abbott'))).toEqual({ words: ['sarah', 'abbott'], business: false });
    expect(withoutLegalForm(wordsOf('Inc'))).toEqual({ words: ['inc'], business: false });
    expect(withoutLegalForm(wordsOf('Oyster Bay Co'))).toEqual({ words: ['oyster', 'bay', 'co'], business: false });
  });
});

describe('nicknames and slips', () => {
  it('knows nicknames both ways from the table, not a name with itself or strangers', () => {
    expect(areNicknames('bob', 'robert')).toBe(true);
    expect(areNicknames('robert', 'bob')).toBe(true);
    expect(areNicknames('bill', 'william')).toBe(true);
    expect(areNicknames('robert', 'robert')).toBe(false);
    expect(areNicknames('bob', 'william')).toBe(false);
  });

  it('takes one added, missing or changed letter, or two swapped, for a slip', () => {
    expect(['smithson', 'smithsn', 'smithsoon', 'smtihson', 'smithsen'].map((word) => oneSlipApart('smithson', word))).toEqual([false, true, true, true, true]);
    expect(oneSlipApart('smithson', 'smythsen')).toBe(false);
  });
});
