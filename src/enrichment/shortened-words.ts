/**
 * Words a statement shortened to fit its fields, read whole. Card networks give a merchant's name 22
 * to 25 characters and OFX 32, so a name cut there ends in part of a word (SQ *PEPPERCORN THAI KITCHE,
 * PP*GRIND HOUSE ESPRESS, CROSSPOINT PROPERT WEB PMTS). The last
 * word of a name of two words or more that is the start of the words businesses' names end with, and
 * not such a word itself, is read whole. A stem of fewer than five letters (HOU, PI) could be the start
 * of too many words to say which; a plural's singular (BAGEL, SPIRIT) is a word already.
 */
import { normalize } from './text.ts';

/** Words a business's name ends with, in normalized form. */
const NAME_ENDINGS = [
  'KITCHEN', 'COFFEE', 'ESPRESSO', 'ROASTERS', 'ROASTERY', 'BAKERY', 'BAKEHOUSE', 'CREAMERY', 'PIZZERIA', 'RESTAURANT', 'STEAKHOUSE', 'SMOKEHOUSE', 'TAQUERIA', 'CANTINA', 'BREWERY', 'BREWING',
  'DISTILLERY', 'WINERY', 'CATERING', 'DELICATESSEN', 'NOODLES', 'DUMPLINGS', 'BURGERS', 'SANDWICHES', 'CUPCAKES', 'CHOCOLATES', 'MARKET', 'MARKETPLACE', 'GROCERY', 'PHARMACY', 'HARDWARE',
  'FURNITURE', 'OUTDOORS', 'OUTFITTERS', 'BOUTIQUE', 'JEWELERS', 'JEWELRY', 'OPTICAL', 'FLORIST', 'GALLERY', 'STUDIO', 'STUDIOS', 'PHOTOGRAPHY', 'CLEANERS', 'LAUNDROMAT',
  'AUTOMOTIVE', 'COLLISION', 'TRANSMISSION', 'TOWING', 'PLUMBING', 'ELECTRICAL', 'MECHANICAL', 'HEATING', 'ROOFING', 'LANDSCAPING', 'CONSTRUCTION', 'EXCAVATING', 'MILLWORKS', 'CABINETRY',
  'PROPERTIES', 'APARTMENTS', 'MANAGEMENT', 'LOGISTICS', 'TRANSPORT', 'TRUCKING', 'SERVICES', 'SOLUTIONS', 'CONSULTING', 'ASSOCIATES', 'ENTERPRISES', 'INDUSTRIES', 'INTERNATIONAL',
  'TECHNOLOGIES', 'COMMUNICATIONS', 'INSURANCE', 'FINANCIAL', 'HEALTHCARE', 'DENTISTRY', 'ORTHODONTICS', 'PEDIATRICS', 'CHIROPRACTIC', 'VETERINARY', 'HOSPITAL', 'MEDICAL', 'CLINIC', 'THERAPY', 'FITNESS',
  'ACADEMY', 'UNIVERSITY', 'COLLEGE', 'SCHOOLS', 'UTILITIES', 'WIRELESS', 'COMPANY', 'CORPORATION', 'LIQUORS', 'SPIRITS', 'TAVERN', 'BISTRO', 'STORAGE', 'PARKING', 'CARWASH',
  'BARBERSHOP', 'DENTAL', 'LESSONS', 'DAYCARE', 'LUMBER', 'SUPPLY', 'CONTROL', 'GROOMING', 'CARNICERIA', 'PANADERIA',
  'FOUNDATION', 'PRACTICE', 'SURGERY', 'GUESTHOUSE', 'BUTCHERS', 'OPTICIANS', 'SOLICITORS', 'ACCOUNTANTS', 'LETTINGS', 'NURSERY', 'SOCIETY', 'CENTRE', 'CENTER',
  'CHURCH', 'MINISTRIES', 'FELLOWSHIP', 'TRATTORIA', 'RISTORANTE', 'PASTICCERIA', 'BOULANGERIE', 'PATISSERIE', 'VIETNAMESE', 'JAPANESE', 'CHINESE', 'MEDITERRANEAN', 'ORTHOPEDICS', 'TORTILLERIA', 'OPTOMETRY', 'SANITATION', 'LEARNING', 'MEDICINE', 'REPAIR', 'COLLECTIVE', 'PROPANE', 'REVENUE', 'BROADBAND', 'SERVICE', 'BREAKFAST', 'LOUNGE', 'DISPOSAL', 'TAPHOUSE',
];
/** Words of their own that start an ending: a name may end with them (PIEDMONT ELECTRIC, JOHN BAKER, SPARKLE CLEAN). */
const WORDS = new Set(['ACCOUNT', 'FOUND', 'SURGE', 'GUEST', 'NURSE', 'FELLOW', 'BARBER', 'BARBERS', 'LESSON', 'GROOM', 'HEALTH', 'CONSTRUCT', 'PHARMA', 'OUTFIT', 'ROASTER', 'BREWER', 'DISTILLER', 'CONSULT', 'PHOTOGRAPH', 'CREAMER', 'BAKER', 'CLEAN', 'CREAM', 'STEAK', 'SMOKE', 'TRUCK', 'ELECTRIC', 'MECHANIC', 'MEDIC', 'GROCER', 'CATER', 'PHOTO', 'OPTIC', 'ENTER', 'INTER', 'CABIN', 'ORTHO', 'PLUMB', 'LANDS']);
const ENDINGS: ReadonlySet<string> = new Set(NAME_ENDINGS);
/** The fewest letters a cut word keeps before it is read whole. */
const SHORTEST_STEM = 5;

/** Each proper start of an ending (five letters or more) and the one word it completes; null where it starts several that are not one another's plural. */
const COMPLETIONS: ReadonlyMap<string, string | null> = (() => {
  const byStem = new Map<string, string | null>();
  for (const word of [...ENDINGS].sort((a, b) => a.length - b.length)) {
    for (let length = SHORTEST_STEM; length < word.length; length++) {
      const stem = word.slice(0, length);
      // A plural's singular is a word (BAGEL, SPIRIT); another ending starts the same (THEATER, THEATRE): neither is read whole.
      if (ENDINGS.has(stem) || WORDS.has(stem) || word === `${stem}S` || word === `${stem}ES`) continue;
      const earlier = byStem.get(stem);
      byStem.set(stem, earlier === undefined || (earlier !== null && word.startsWith(earlier)) ? (earlier ?? word) : null);
    }
  }
  return byStem;
})();

const LETTERS = /^\p{L}+$/u;
const ASCII_LETTERS = /^[A-Za-z]+$/;

/** `name` with its last word whole when a card network or OFX cut it (PEPPERCORN THAI KITCHE → PEPPERCORN THAI KITCHEN); as it is otherwise. */
export function withLastWordWhole(name: string): string {
  const space = name.lastIndexOf(' ');
  if (space <= 0) return name;
  const last = name.slice(space + 1);
  if (last.length < SHORTEST_STEM || !LETTERS.test(last)) return name;
  const whole = COMPLETIONS.get(ASCII_LETTERS.test(last) ? last.toUpperCase() : normalize(last));
  if (!whole) return name;
  const written = last === last.toUpperCase() ? whole : whole.charAt(0) + whole.slice(1).toLowerCase();
  return `${name.slice(0, space + 1)}${written}`;
}

/** Words a name written together ends with besides NAME_ENDINGS (PAYPAL *WOODLINEGOODS, PARKVIEWTERRACE WEB PMTS). */
const JOINED_ENDINGS = ['GOODS', 'TERRACE', 'CANDLE', 'CANDLES', 'DESIGN', 'DESIGNS', 'SUPPLY', 'FARMS', 'OUTDOOR', 'BARN', 'LAWN', 'KARATE', 'YOGA'];
/** The fewest letters before an ending for a name written together to be read as two words. */
const JOINED_STEM = 4;
/** The endings, longest first, so that OUTDOORS wins over a shorter ending it ends with. */
const ENDINGS_LONGEST_FIRST = [...new Set([...NAME_ENDINGS, ...JOINED_ENDINGS])].sort((a, b) => b.length - a.length);

/**
 * A one-word name a processor or a biller's field wrote together, its words apart at a business name's
 * ending (Woodlinegoods → Woodline Goods, PARKVIEWTERRACE → PARKVIEW TERRACE); any other name as it is.
 */
export function withEndingApart(name: string): string {
  if (name.length < JOINED_STEM + 5 || !ASCII_LETTERS.test(name)) return name;
  const upper = name.toUpperCase();
  const ending = ENDINGS_LONGEST_FIRST.find((word) => upper.length - word.length >= JOINED_STEM && upper.endsWith(word));
  if (!ending) return name;
  const cut = name.length - ending.length;
  const rest = name.slice(cut);
  return `${name.slice(0, cut)} ${name === upper ? rest : rest.charAt(0).toUpperCase() + rest.slice(1)}`;
}

/** US and UK banks' and billers' abbreviations of the words of a name, written out as an app shows the name (UNIV OF IOWA → University of Iowa). */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['UNIV', 'UNIVERSITY'], ['HLTHCR', 'HEALTHCARE'], ['HLTH', 'HEALTH'], ['MTR', 'MOTOR'], ['SVCS', 'SERVICES'], ['SVC', 'SERVICE'], ['MGMT', 'MANAGEMENT'], ['ASSN', 'ASSOCIATION'],
  ['INTL', 'INTERNATIONAL'], ['CTR', 'CENTER'], ['HOSP', 'HOSPITAL'], ['UTIL', 'UTILITIES'], ['UTILS', 'UTILITIES'], ['CNTY', 'COUNTY'], ['TWP', 'TOWNSHIP'],
  ['SERV', 'SERVICES'], ['CTY', 'COUNTY'], ['MKT', 'MARKET'], ['CMTY', 'COMMUNITY'], ['HDWE', 'HARDWARE'], ['ELEC', 'ELECTRIC'], ['CSD', 'COMMUNITY SCHOOL DISTRICT'],
]);
/** The words a church's name has before CH (COMMUNITY CH, FIRST BAPTIST CH). */
const CHURCHES: ReadonlySet<string> = new Set(['COMMUNITY', 'BAPTIST', 'METHODIST', 'LUTHERAN', 'CATHOLIC', 'PRESBYTERIAN', 'CHRISTIAN', 'BIBLE', 'EPISCOPAL', 'PENTECOSTAL', 'FELLOWSHIP', 'CALVARY', 'BETHEL', 'TABERNACLE']);
/** The words FIN for finance follows in a name (MOTOR FIN); elsewhere it is a word or Finland's code. A restaurant's REST stays: statements' readers keep it as often as not. */
const FINANCE_AFTER: ReadonlySet<string> = new Set(['MOTOR', 'MTR', 'AUTO']);
/** Abbreviations that are words or codes elsewhere, read so only after the words they follow in a name (MOTOR FIN, PUBLIC SCH, SERV AUTH, COMMUNITY CH). */
const AFTER: ReadonlyMap<string, readonly [ReadonlySet<string>, string]> = new Map([
  ['FIN', [FINANCE_AFTER, 'FINANCE']],
  ['SCH', [new Set(['PUBLIC']), 'SCHOOLS']],
  ['MGM', [new Set(['PROPERTY', 'PROP']), 'MANAGEMENT']],
  ['AUTH', [new Set(['SERV', 'SERVICES', 'SEWER', 'WATER', 'TRANSIT', 'HOUSING', 'PARKING', 'PORT', 'TURNPIKE', 'AIRPORT', 'UTILITY']), 'AUTHORITY']],
  ['MG', [new Set(['PROPERTY', 'PROP']), 'MANAGEMENT']],
  ['INS', [new Set(['MUTUAL', 'LIFE', 'CASUALTY', 'FARM', 'FARMERS', 'AUTO', 'HOME', 'TITLE', 'PROP', 'PROPERTY']), 'INSURANCE']],
  ['UN', [new Set(['STATE']), 'UNIVERSITY']],
  ['MED', [new Set(['FAMILY', 'INTERNAL', 'SPORTS', 'URGENT', 'EMERGENCY']), 'MEDICINE']],
  // A church's name cut at an ACH field's end (GRACE LUTHERAN C, FIRST BAPTIST CHU).
  ...['CH', 'C', 'CHU', 'CHUR', 'CHURC'].map((cut): [string, readonly [ReadonlySet<string>, string]] => [cut, [CHURCHES, 'CHURCH']]),
  ['TREAS', [new Set(['CO', 'COUNTY', 'CITY', 'TOWNSHIP', 'TWP']), 'TREASURER']],
  ['COLL', [new Set(['TAX']), 'COLLECTOR']],
  ['BA', [new Set(['STATE', 'NATIONAL', 'SAVINGS', 'TRUST', 'CITIZENS', 'PEOPLES', 'FARMERS', 'MERCHANTS']), 'BANK']],
]);
/** Words read by the word after them: CO for county before a county's office (JACKSON CO CLERK, MARION CO TREAS; elsewhere it is a company or Colorado), MED for medical before a center. */
const BEFORE: ReadonlyMap<string, readonly [ReadonlySet<string>, string]> = new Map([
  // TAX before a tax office's or a preparer's word is the name's, no purpose (LEE COUNTY TAX COLL, KILLEEN TAX SERVICE).
  ['TAX', [new Set(['COLL', 'COLLECTOR', 'COMMISSIONER', 'ASSESSOR', 'SERVICE', 'SERVICES', 'SVC', 'SVCS', 'OFFICE']), 'TAX']],
  ['MED', [new Set(['CTR', 'CENTER']), 'MEDICAL']],
  ['CO', [new Set(['TREAS', 'TREASURER', 'CLERK', 'SCHOOLS', 'SCHOOL', 'SHERIFF', 'COURT', 'COURTS', 'ASSESSOR', 'COLLECTOR', 'RECORDER', 'AUDITOR', 'LIBRARY', 'PARKS', 'HEALTH', 'COMMISSIONERS', 'JAIL', 'FAIR']), 'COUNTY']],
]);

/** True when a normalized word is one a business's name ends with (CENTER, KITCHEN), whole. */
export function isNameEnding(word: string): boolean {
  return ENDINGS.has(word);
}

/** True when the word of `words` (in capitals) at `at` is an abbreviation of a name's word written out below (CNTY, PUBLIC SCH), not a town OFX cut short. */
export function isNamesAbbreviation(words: readonly string[], at: number): boolean {
  return ABBREVIATIONS.has(words[at]!) || afterItsWord(words, at, words[at]!) !== undefined;
}

/** True when the word of `words` (in capitals) at `at` abbreviates a name's word by the word beside it (MARION CO TREAS), so no purpose word there. */
export function isAbbreviationByNeighbour(words: readonly string[], at: number): boolean {
  return afterItsWord(words, at, words[at]!) !== undefined;
}

/** The word an abbreviation of AFTER stands for when the word before it is the one it follows (DENVER PUBLIC SCH), or one of BEFORE when the word after it is (JACKSON CO CLERK). */
function afterItsWord(words: readonly string[], at: number, word: string): string | undefined {
  const [before, whole] = AFTER.get(word) ?? [];
  if (before && at > 0 && before.has(words[at - 1]!.toUpperCase())) return whole;
  const [after, written] = BEFORE.get(word) ?? [];
  return after && at < words.length - 1 && after.has(words[at + 1]!.toUpperCase()) ? written : undefined;
}

/** A US or UK name with its abbreviated words written out, in the name's case (Northbay Hlthcr → Northbay Healthcare, Hyundai Motor Fin → Hyundai Motor Finance). */
export function withAbbreviationsWritten(name: string): string {
  const words = name.split(' ');
  // A name in capitals gets the word in capitals; a title-cased one in title case, an acronym it kept in capitals too (Subaru MTR Fin).
  const capitals = name === name.toUpperCase();
  let changed = false;
  for (let at = 0; at < words.length; at++) {
    const word = words[at]!.toUpperCase();
    const whole = ABBREVIATIONS.get(word) ?? afterItsWord(words, at, word);
    if (!whole) continue;
    words[at] = capitals ? whole : whole.split(' ').map((each) => each.charAt(0) + each.slice(1).toLowerCase()).join(' ');
    changed = true;
  }
  return changed ? words.join(' ') : name;
}
