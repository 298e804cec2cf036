/**
 * Company legal forms as they end a name on a bank line (ACME SVERIGE AB, HERA COMM SPA, LUX MED
 * SP. Z O.O., Zalando SE), in normalized form (text.ts). They say nothing of what was bought: the
 * pipeline drops them before its rules and directory read the text (an Italian SpA is no spa, a
 * Spanish SL no Stockholm transit), and a name read from the line ends before one. The forms that count
 * are those of the account's currency's countries, so a US "HAPPY NAILS SPA" stays a spa and a
 * Swedish "SL" Stockholm's transit.
 */
import { HashFilter, hashOf } from './hash-filter.ts';
import { phrasesRegex, wordEnd } from './text.ts';

/** CORP stays: it is part of the name people say (Acme Corp). */
/** LL is LLC cut at its field's end (IN *PIEDMONT LAWN CARE LL). */
const ENGLISH = ['LTD', 'LIMITED', 'PLC', 'LLC', 'LL', 'INC', 'LLP', 'PLLC', 'LP', 'PC'];
/** The euro area's forms: Germany and Austria, France, Italy, Spain, Portugal, the Benelux, Ireland, Finland and the Baltics. */
const EURO = [
  'GESELLSCHAFT MIT BESCHRANKTER HAFTUNG', 'GESELLSCHAFT MIT BESCHRAENKTER HAFTUNG', 'GMBH', 'MBH', 'GMBH CO KG', 'UG HAFTUNGSBESCHRANKT', 'UG HAFTUNGSBESCHRAENKT', 'UG', 'OG', 'KEG', 'GBR', 'PARTG MBB', 'PARTG', 'MBB', 'AKTIENGESELLSCHAFT', 'EPE', 'CO KG', 'KG', 'AG', 'E K', 'EK', 'E U', 'SSD ARL', 'SSD A RL', 'SSD A R L', 'E V', 'EV', 'EG', 'SE', 'SARL', 'S A R L', 'SAS', 'SASU', 'SA', 'S A', 'SAU', 'SCA', 'S C A', 'SNC', 'SL', 'S L', 'SLU',
  'SRL', 'S R L', 'SCARL', 'S C A R L', 'SPA', 'S P A', 'LDA', 'UNIPESSOAL LDA', 'UNIPESSOAL', 'BV', 'B V', 'NV', 'N V', 'BVBA', 'SPRL', 'COMMV', 'SCRL', 'VZW', 'ASBL', 'U A', 'SOC COOP', 'COOP UA', 'COOP U A', 'SELARL', 'SELAS', 'SCP', 'EURL', 'VOF', 'V O F', 'GESMBH', 'GES M B H', 'VVAG', 'SNC', 'S N C', 'SOCIETA COOPERATIVA SOCIALE ONLUS', 'SOCIETA COOPERATIVA SOCIALE', 'SOCIETA COOPERATIVA', 'ONLUS', 'APS', 'SLP', 'S L P', 'DAC', 'CLG', 'DAC', 'OY', 'OYJ', 'KY', 'TMI', 'RY', 'KESKINAINEN VAKUUTUSYHTIO', 'AB', 'AS', 'OU', 'SIA', 'UAB', 'AAS', 'VAS', 'LT',
];
/** Other currencies, the forms of the countries that use them. */
const BY_CURRENCY: Readonly<Record<string, readonly string[]>> = {
  EUR: EURO,
  // LTD cut to its field's length (HARGREAVE DENTAL LT SALARY BGC).
  GBP: ['LT'],
  SEK: ['AB', 'PUBL', 'HB', 'KB', 'EK FOR', 'EKONOMISK FORENING'],
  NOK: ['AS', 'ASA', 'ANS', 'DA', 'SA'],
  DKK: ['A S', 'APS', 'I S', 'P S', 'AMBA', 'A M B A'],
  PLN: ['SP Z O O', 'SPZOO', 'S A', 'SA', 'SP J', 'SP K', 'SPOLKA Z O O', 'SPOLKA Z OGRANICZONA ODPOWIEDZIALNOSCIA', 'SPOLKA AKCYJNA', 'SPOLKA KOMANDYTOWA', 'SPOLKA JAWNA', 'S C', 'SC'],
  CHF: ['AG', 'GMBH', 'SA', 'SARL', 'SAGL'],
  CZK: ['S R O', 'A S'],
  HUF: ['KFT', 'ZRT', 'NYRT'],
  RON: ['SRL', 'SA'],
};

/** Each form's words, by its first word, longest first: one map lookup per word of text. */
function byFirstWord(forms: readonly string[]): ReadonlyMap<string, readonly string[][]> {
  const map = new Map<string, string[][]>();
  for (const words of forms.map((form) => form.split(' ')).sort((a, b) => b.length - a.length)) map.set(words[0]!, [...(map.get(words[0]!) ?? []), words]);
  return map;
}
/** A currency's forms: by first word, their first words as a hash filter (a text with none of them has no form), and a regex finding any. */
interface Forms {
  words: ReadonlyMap<string, readonly string[][]>;
  firstWords: HashFilter;
  any: RegExp;
}
function formsOf(forms: readonly string[]): Forms {
  const words = byFirstWord(forms);
  return { words, firstWords: new HashFilter(words.keys()), any: phrasesRegex(forms) };
}
const ENGLISH_ONLY = formsOf(ENGLISH);
const FORMS = new Map(Object.entries(BY_CURRENCY).map(([currency, forms]) => [currency, formsOf([...ENGLISH, ...forms])]));

/** How many words at `start` of `words` are a legal form (0: none). The first word is never one: it names the company (AG Insurance, SAS). */
export function legalFormLength(words: readonly string[], start: number, currencyCode: string): number {
  if (start === 0) return 0;
  const forms = (FORMS.get(currencyCode) ?? ENGLISH_ONLY).words.get(words[start]!);
  return forms?.find((form) => form.every((word, offset) => words[start + offset] === word))?.length ?? 0;
}

/** The Baltic forms written before the name (SIA TET, UAB IGNITIS, AAS BALTA): the name follows, as short as it may be. */
export const BALTIC_LEADING_FORMS: ReadonlySet<string> = new Set(['SIA', 'UAB', 'AAS', 'OU', 'VAS', 'MTU', 'VSI', 'BIEDRIBA', 'IK', 'MB']);

/** `normalized` without its legal forms, a Baltic one before the name too. */
export function withoutLegalForms(normalized: string, currencyCode: string): string {
  const forms = FORMS.get(currencyCode) ?? ENGLISH_ONLY;
  if (!startsAForm(normalized, forms.firstWords) || !forms.any.test(normalized)) return normalized;
  const words = normalized.split(' ');
  const kept: string[] = [];
  for (let index = currencyCode === 'EUR' && words.length > 1 && BALTIC_LEADING_FORMS.has(words[0]!) ? 1 : 0; index < words.length; index++) {
    const length = legalFormLength(words, index, currencyCode);
    if (length > 0) index += length - 1;
    else kept.push(words[index]!);
  }
  return kept.length === words.length ? normalized : kept.join(' ');
}

/** True when a word of `normalized` is a form's first word (`firstWords`), each word hashed in place: most texts have none, and no regex is run on them. */
function startsAForm(normalized: string, firstWords: HashFilter): boolean {
  for (let start = 0; start < normalized.length; ) {
    const end = wordEnd(normalized, start);
    if (firstWords.mayHold(hashOf(normalized, start, end))) return true;
    start = end + 1;
  }
  return false;
}
