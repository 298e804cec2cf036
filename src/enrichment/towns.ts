/**
 * The towns a bank line may end with, by the account's currency: a card line names the shop's town
 * after its name (KIRKGATE FISH BAR HALIFAX, KWIACIARNIA STOKROTKA SWARZEDZ), and no list written by
 * hand holds every town. data/towns.json holds GeoNames' towns of the countries below (`npm run towns`);
 * a line is read against the towns of its currency's countries only, so that a town abroad named
 * like a word of the line's language (Spa in Belgium, on a US line) is not cut from a name.
 */
import table from './data/towns.json' with { type: 'json' };

/** The countries whose banks keep accounts in each currency: the euro's members (Bulgaria's since 2026), and each other currency's country. */
const CURRENCY_COUNTRIES: Readonly<Record<string, readonly string[]>> = {
  EUR: ['AT', 'BE', 'BG', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK'],
  USD: ['US'], CAD: ['CA'], GBP: ['GB'], CHF: ['CH', 'LI'], SEK: ['SE'], NOK: ['NO'], DKK: ['DK'], ISK: ['IS'],
  PLN: ['PL'], CZK: ['CZ'], HUF: ['HU'], RON: ['RO'], BGN: ['BG'],
};

/** A town's first word as card descriptors shorten or spell it out: GeoNames's Fort Worth is FT WORTH on a card line, its St. Louis SAINT LOUIS. */
const SHORT_FORMS: ReadonlyMap<string, string> = new Map([
  ['SAINT', 'ST'],
  ['ST', 'SAINT'],
  ['FORT', 'FT'],
  ['MOUNT', 'MT'],
]);

/** `names`, and each with its first word in its other form (SHORT_FORMS). */
function withShortForms(names: readonly string[]): string[] {
  const all = [...names];
  for (const name of names) {
    const space = name.indexOf(' ');
    const other = space > 0 ? SHORT_FORMS.get(name.slice(0, space)) : undefined;
    if (other !== undefined) all.push(`${other}${name.slice(space)}`);
  }
  return all;
}

/** Every country data/towns.json holds towns of. */
export const TOWN_COUNTRIES: readonly string[] = [...new Set(Object.values(CURRENCY_COUNTRIES).flat())].sort();

/** No towns: a line of a currency no country here keeps accounts in. */
export const NO_TOWNS: ReadonlySet<string> = new Set();
const byCurrency = new Map<string, ReadonlySet<string>>();

/** The towns (normalized) of the countries whose banks keep accounts in `currencyCode`; none for another currency. */
export function townsOf(currencyCode: string | undefined): ReadonlySet<string> {
  if (currencyCode === undefined) return NO_TOWNS;
  // Read for every line: found by the code as given, so most lines make no string.
  let towns = byCurrency.get(currencyCode);
  if (!towns) {
    const countries = CURRENCY_COUNTRIES[currencyCode.toUpperCase()];
    if (!countries) return NO_TOWNS;
    towns = new Set(withShortForms(countries.flatMap((country) => (table.towns as Record<string, string[]>)[country] ?? [])));
    byCurrency.set(currencyCode, towns);
  }
  return towns;
}

const byCurrencies = new Map<string, ReadonlySet<string>>();

/** The towns of either currency's countries: the account's and, when the line gives an amount in another, that one's. */
export function townsOfEither(currencyCode: string | undefined, other: string | undefined): ReadonlySet<string> {
  if (other === undefined || other === currencyCode?.toUpperCase()) return townsOf(currencyCode);
  // Kept per pair of currencies that have towns: a few dozen at most, whatever codes the accounts carry.
  if (townsOf(currencyCode) === NO_TOWNS) return townsOf(other);
  const key = `${currencyCode} ${other}`;
  let towns = byCurrencies.get(key);
  if (!towns) {
    towns = new Set([...townsOf(currencyCode), ...townsOf(other)]);
    byCurrencies.set(key, towns);
  }
  return towns;
}

/** Every town's name, of every country, and its short form where it has one (withShortForms). */
export const ALL_TOWNS: readonly string[] = withShortForms(Object.values(table.towns as Record<string, string[]>).flat());

const byState = new Map<string, ReadonlySet<string>>();

/**
 * True when `normalized` is a town of the US state of this two-letter code (data/towns.json's
 * `usTownsByState`, small towns too): read only right before the state's code in a card descriptor.
 */
export function isStateTown(state: string, normalized: string): boolean {
  let towns = byState.get(state);
  if (!towns) {
    towns = new Set(withShortForms(stateTowns(state)));
    byState.set(state, towns);
  }
  return towns.has(normalized);
}

/** Every proper start, `shortest` characters or more and not ending in a space, of each of `names` (NEW YOR, PORTLA). */
export function properStarts(names: Iterable<string>, shortest: number): ReadonlySet<string> {
  return new Set([...names].flatMap((name) => Array.from({ length: Math.max(0, name.length - shortest) }, (_, index) => name.slice(0, shortest + index)).filter((start) => !start.endsWith(' '))));
}

const startsByState = new Map<string, ReadonlySet<string>>();
/** A cut town keeps at least this many characters: a shorter start is as likely a word of the name. */
const SHORTEST_START = 6;

/**
 * True when `normalized` is a proper start, six characters or more, of a town of the US state of this code: a card network's
 * town field of 13 characters cuts one (SAN LUIS OBIS for San Luis Obispo). Each state's starts are made on its first such line.
 */
export function isStateTownStart(state: string, normalized: string): boolean {
  let starts = startsByState.get(state);
  if (!starts) {
    starts = properStarts(withShortForms(stateTowns(state)), SHORTEST_START);
    startsByState.set(state, starts);
  }
  return starts.has(normalized);
}

function stateTowns(state: string): readonly string[] {
  return (table.usTownsByState as Record<string, string[]>)[state] ?? [];
}
