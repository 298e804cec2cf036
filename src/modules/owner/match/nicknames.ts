import table from './nicknames.json' with { type: 'json' };

/*
 * Given names and their nicknames (Robert: Bob, Bobby, Rob, …; 1,151 names), from
 * github.com/carltonnorthern/nicknames (names.csv at 21d7505, Apache License 2.0: see
 * nicknames.LICENSE.txt beside this file), converted to `{ name: [nicknames] }` in lower case.
 */
const NICKNAMES: Readonly<Record<string, readonly string[]>> = table;

/** Whether one of the two given names (normalised words) is a nickname of the other: Bob and Robert, Jenn and Jennifer. */
export function areNicknames(a: string, b: string): boolean {
  return a !== b && (NICKNAMES[a]?.includes(b) === true || NICKNAMES[b]?.includes(a) === true);
}
