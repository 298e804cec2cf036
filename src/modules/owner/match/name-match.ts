import { withoutLegalForm } from './legal-forms.ts';
import { areNicknames } from './nicknames.ts';
import { best, MATCH_THRESHOLD } from './threshold.ts';
import { oneSlipApart, sharedWords, wordsOf } from './words.ts';

/** The profile's name as it is kept: free text, and its parts. */
export interface ProfileName {
  name: string | null;
  names: { first: string | null; middle: string | null; last: string | null } | null;
}

export interface NameMatch {
  score: number;
  matched: boolean;
  nicknameMatched: boolean;
  firstOrLastNameMatched: boolean;
  businessNameDetected: boolean;
}

type Score = Omit<NameMatch, 'matched' | 'businessNameDetected'>;

/** Words that say nothing of who a person is: titles before a name, generational and degree suffixes after it. */
const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'sir', 'jr', 'sr', 'ii', 'iii', 'iv', 'phd', 'md', 'esq']);

/** A person's name as compared: given name, middle names (maybe initials), family name. */
interface PersonWords {
  first: string;
  middle: string[];
  last: string;
}

/**
 * The profile's name against the owners' names (the contract's `OwnerNameMatch`): every pair
 * compared, in either word order of the owner's name, and the best kept. Null when either side has
 * no name.
 */
export function matchName(profile: ProfileName, ownerNames: readonly string[]): NameMatch | null {
  const profileNames = profileWords(profile);
  const owners = ownerNames.map(wordsOf).filter((words) => words.length > 0);
  const pairs = profileNames.flatMap((mine) => owners.map((theirs) => compareNames(mine, theirs)));
  const top = best(pairs);
  return top && { ...top, matched: top.score >= MATCH_THRESHOLD };
}

/** The profile's name as word lists to try: its parts when set, and its free text. */
function profileWords({ name, names }: ProfileName): string[][] {
  const fromParts = [names?.first, names?.middle, names?.last].flatMap(wordsOf);
  return [fromParts, wordsOf(name)].filter((words) => words.length > 0);
}

/** One name against another (normalised words), in the contract's scale. */
export function compareNames(mine: readonly string[], theirs: readonly string[]): Omit<NameMatch, 'matched'> {
  const left = withoutLegalForm(mine.filter((word) => !TITLES.has(word)));
  const right = withoutLegalForm(theirs.filter((word) => !TITLES.has(word)));
  const businessNameDetected = left.business || right.business;
  if (businessNameDetected) {
    const same = sameWords(left.words, right.words);
    return { score: same ? 100 : Math.round(60 * sharedWords(left.words, right.words)), nicknameMatched: false, firstOrLastNameMatched: false, businessNameDetected };
  }
  const person = asPerson(left.words);
  // The owner's name may come family name first (`SMITH ROBERT`): both readings are tried.
  const readings = [asPerson(right.words), asPerson([...right.words].reverse())];
  const top = best(readings.map((reading) => comparePeople(person, reading)))!;
  if (top.score > 0) return { ...top, businessNameDetected };
  return { score: Math.round(30 * sharedWords(left.words, right.words)), nicknameMatched: false, firstOrLastNameMatched: false, businessNameDetected };
}

function asPerson(words: readonly string[]): PersonWords {
  return { first: words[0] ?? '', middle: words.slice(1, -1), last: words.at(-1) ?? '' };
}

type GivenName = 'same' | 'nickname' | 'initial' | 'slip' | 'other';

function givenName(a: string, b: string): GivenName {
  if (a === b) return 'same';
  if (areNicknames(a, b)) return 'nickname';
  if ((a.length === 1 && b.startsWith(a)) || (b.length === 1 && a.startsWith(b))) return 'initial';
  if (Math.min(a.length, b.length) >= 5 && oneSlipApart(a, b)) return 'slip';
  return 'other';
}

/** Two people's names by given, middle and family name; 0 when neither given nor family name agrees. */
function comparePeople(mine: PersonWords, theirs: PersonWords): Score {
  const first = givenName(mine.first, theirs.first);
  const lastSame = mine.last === theirs.last;
  const lastSlip = !lastSame && Math.min(mine.last.length, theirs.last.length) >= 5 && oneSlipApart(mine.last, theirs.last);
  const result = (score: number, flags: Partial<Score> = {}): Score => ({ score, nicknameMatched: false, firstOrLastNameMatched: false, ...flags });
  if (lastSame && first === 'same') return result(middleScore(mine.middle, theirs.middle));
  if (lastSame && first === 'nickname') return result(90, { nicknameMatched: true });
  if ((lastSlip && (first === 'same' || first === 'nickname')) || (lastSame && first === 'slip')) return result(80, { nicknameMatched: first === 'nickname' });
  if (lastSame && first === 'initial') return result(75);
  if (lastSame) return result(50, { firstOrLastNameMatched: true });
  if (first === 'same' || first === 'nickname') return result(40, { firstOrLastNameMatched: true, nicknameMatched: first === 'nickname' });
  return result(0);
}

/** Given and family names equal: 100 with the same middle names, 95 when one side has none or an initial of the other's, 85 when they differ. */
function middleScore(mine: readonly string[], theirs: readonly string[]): number {
  if (sameWords(mine, theirs)) return 100;
  if (mine.length === 0 || theirs.length === 0) return 95;
  const agree = mine.length === theirs.length && mine.every((word, index) => ['same', 'initial'].includes(givenName(word, theirs[index]!)));
  return agree ? 95 : 85;
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join(' ') === [...b].sort().join(' ');
}
