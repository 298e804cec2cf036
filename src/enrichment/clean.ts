/**
 * A bank's description without what is not the counterparty: the payment method's words (POS,
 * Kartenzahlung, PRLV SEPA, Kortköp, …), card processors' prefixes (SQ *, TST*, PAYPAL *), card
 * references, dates and times, store and terminal numbers, references (SEPA's EREF/MREF, ACH's PPD
 * ID, trace numbers), foreign amounts and, at the end, city, state and country. The case is kept.
 * Every pattern is compiled once, here; a call runs a fixed list of linear passes.
 */
import places from './data/places.json' with { type: 'json' };
import { HashFilter, hashOf } from './hash-filter.ts';
import { METHOD_PHRASES } from './method-words.ts';
import { isTradesWord } from './rules.ts';
import { normalize } from './text.ts';

/** Longer than any bank's description: bounds the cost of one call. */
export const MAX_DESCRIPTION_LENGTH = 400;

/** Card processors and payment facilitators whose prefix stands before the merchant's own name. */
const PROCESSORS = ['SQ', 'TST', 'PAYPAL', 'PP', 'SP', 'IC', 'PY', 'BT', 'CKO', 'FS', 'DRI', '2CO', 'CLV', 'ZTL', 'SUMUP', 'SMP', 'IZ', 'ZETTLE_?', 'GOOGLE'];

/** PayPal's SEPA lines name the shop after its own name: "… Ihr Einkauf bei Spotify AB". */
const PURCHASE_AT = /\b(?:Ihr Einkauf bei|Your purchase at|Votre achat chez|Su compra en|Uw aankoop bij|Ditt k[oö]p hos)\s+(.+)$/i;
const ORIGINATOR = /ORIG CO NAME:\s*(.+?)\s+(?:ORIG ID:|CO ENTRY DESCR:|DESC DATE:|SEC:|$)/i;
const ENTRY_DESCRIPTION = /CO ENTRY DESCR:\s*(.+?)\s+(?:SEC:|TRACE|EED:|IND ID|$)/i;
const SVWZ = /\b(?:EREF|MREF|CRED|KREF|ABWA|ABWE|IBAN|BIC)\+\S+/gi;
const PURPOSE_MARKER = /\bSVWZ\+/gi;
const LABELLED_REFERENCE = new RegExp(
  String.raw`\b(?:End-to-End-Ref|Mandatsref|Mandat|Gl(?:ä|ae|a)ubiger-?ID|Kundenreferenz|Kundennr|Referenz|Ref|R[ée]f|Referencia|Kenmerk|Betalingskenm|Machtiging|Incassant-?ID|OCR|Trace ?#?|TRN|PPD ID|WEB ID|CCD ID|CO ID|IND ID|INDN|ID|Conf ?#?|Confirmation|Auth ?#?|TXN|IBAN|BIC|Mandate|NR|Nr|No|Transaction)\s*[.:#]?\s*[:#]?\s*[A-Z0-9][A-Z0-9./-]*\d[A-Z0-9./-]*`,
  'gi',
);
/**
 * The method phrases as one anchored regex per first letter (a phrase starting with a class such as
 * [UÜ] under each): a description's first letter picks the few that can match, instead of trying
 * every phrase at every strip.
 */
const LEADING_METHOD: ReadonlyMap<string, RegExp> = (() => {
  const byLetter = new Map<string, string[]>();
  for (const phrase of [...METHOD_PHRASES].sort((a, b) => b.length - a.length)) {
    const letters = phrase.startsWith('[') ? phrase.slice(1, phrase.indexOf(']')) : phrase[0]!;
    for (const letter of new Set([...letters].map((each) => each.toUpperCase()))) byLetter.set(letter, [...(byLetter.get(letter) ?? []), phrase]);
  }
  return new Map([...byLetter].map(([letter, phrases]) => [letter, new RegExp(String.raw`^(?:${phrases.join('|')})(?=[\s,:*/-]|$)[\s,:*/-]*`, 'i')]));
})();
const LEADING_PROCESSOR = new RegExp(String.raw`^(?:${PROCESSORS.join('|')})\s?\*\s*`, 'i');
/** A processor's prefix after other text (a Dutch "BEA NR:… SumUp *Koffiebar"), before the stars go. */
const PROCESSOR = new RegExp(String.raw`(?<=^|\s)(?:${PROCESSORS.join('|')})\s?\*\s*`, 'gi');
/** German lines name the method after the counterparty: "Imbiss Ali Baba Kartenzahlung". */
const TRAILING_WORDS = /\s(?:Kartenzahlung|Lastschrift|Gutschrift|Dauerauftrag|[UÜ]berweisung|Einzug)$/i;
/** SumUp's and other terminals' "NAME//CITY/COUNTRY". */
const SLASHED_PLACE = /\/\/.*$/;
/** Dutch SEPA lines: "Naam: Gemeente Amsterdam Omschrijving: …". */
const NAAM = /\bNaam:\s*(.+?)(?:\s+(?:Omschrijving|Kenmerk|IBAN|BIC|Machtiging|Incassant(?:-?ID)?|Betalingskenm)\s*:|$)/i;
/** PKO BP's card lines: "Lokalizacja: Adres: PIEKARNIA GRZYBEK Miasto: LODZ Kraj: POLSKA". */
const ADRES = /\bAdres:\s*(.+?)(?:\s+(?:Miasto|Kraj)\s*:|$)/i;
/** Bank of America's ACH lines: "HubSpot Inc DES:Coupa Pay ID:… INDN:…". */
const ACH_DES = /^(.+?)\s+DES:\s*(.+?)\s+(?:ID:|INDN:|CO ID:)/i;
/** OFX cuts a name at 32 characters: "ROSA MEXICANO UNION SQ NEW YOR" ends in part of a city. */
const OFX_NAME_LENGTH = 32;
/** Words that tie a city into a name ("CITY OF AUSTIN", "COMUNE DI MILANO", "Gemeente Amsterdam"): the city then stays. */
const CITY_LINKS = new Set(['OF', 'DI', 'DE', 'DEL', 'DA', 'DU', 'VON', 'VAN', 'LA', 'GEMEENTE', 'GEMEINDE', 'STADT', 'STADTWERKE', 'COMUNE', 'KOMMUNE', 'KUNTA', 'MUNICIPIO', 'VILLE']);
const MONTH = '(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)';
const CURRENCY = '(?:EUR|USD|GBP|SEK|NOK|DKK|CHF|PLN|CZK|HUF|RON|ISK)';
/** A date, card number or amount between method words and the name: 12/03, XXXX1234, 240312, 2024.03.12, 18,30, Ireland's POS08DEC, Austria's "AT K1". */
const LEADING_DATE_OR_CARD = new RegExp(
  String.raw`^(?:\d{1,2}[/.]\d{1,2}(?:[/.]\d{2,4})?\.?|\d{4}[.-]\d{2}[.-]\d{2}|X{2,}\d{2,4}|\d{4}\*+|\*{1,}\d{4}|\d{4,8}|\d+[.,]\d{2}-?(?: ${CURRENCY})?|${CURRENCY}|POS\d{1,2}${MONTH}|ON|[A-Z]{2} K\d|MC/\d+)(?=\s|$)\s*`,
  'i',
);
const CARD_REFERENCE = /(?:\b(?:CARD|KARTE|CARTE|CARTA|KORT)\s?(?:NO\.?|NR\.?|N\.|#)?\s?[X*]*\d{4}\b|\bCARTA N\.?(?=\s|$)|\b[X*]{2,}\d{2,6}\b|\*\d{4}\b|\b\d{4}\*{2,}|\bX{4}\b)/gi;
const DATE = /\b(?:(?:DU|LE|ON|AM|VOM|DATE|FECHA|DEL|DATO|DATA|DNIA) )?(?:\d{4}[-.]\d{2}[-.]\d{2}|\d{1,2}-\d{1,2}-\d{2,4}|\d{1,2}\/\d{1,2}(?:\/\d{2,4})?|\d{1,2}\.\d{1,2}\.(?:\d{2,4})?|\d{1,2}\.\d{1,2}\.\d{2,4}|\d{1,2}-(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)-\d{2,4}|\d{1,2} ?(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(?: ?\d{2,4})?)(?=\s|$|[^\w])/gi;
/** UK statements end a line with the payment's code (direct debit, standing order, giro credit, …). */
const TRAILING_METHOD = /\s(?:DD|SO|STO|BGC|FPI|FPO|TFR|DEB|DR|CR)$/i;
/**
 * A UK payment code at the start of a line that ends with one is part of the name: `SO ENERGY DD` is
 * a direct debit to So Energy, not a standing order.
 */
const LEADING_UK_CODE = /^(?:SO|DD|FP)\s/i;
const TIME = /\b(?:(?:KL|ORE|GODZ)\.? )?(?:\d{1,2}[:.]\d{2}(?::\d{2})?\s?(?:UHR|H)?(?=\s|$)|\d{1,2}:\d{2}\b)/gi;
const FOREIGN_AMOUNT = new RegExp(String.raw`\b(?:${CURRENCY}\s?\d+(?:[.,]\d+)?|\d+(?:[.,]\d+)?\s?${CURRENCY}|(?:KURS|RATE|FX RATE)\s?\d+(?:[.,]\d+)?)\b`, 'gi');
/** A day and month after its label (Norway's "Dato 12.03", Italy's "DEL 14/03"), which alone would read as a time. */
const LABELLED_DATE = /\b(?:DATO|DATA|DEL|DNIA|DATE)\s+\d{1,2}[./]\d{1,2}(?:[./]\d{2,4})?\.?(?=\s|$)/gi;
const PHONE = /\b(?:\+?\d{1,3}[ -])?\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b|\b\d{3}-\d{7}\b/g;
const STORE_NUMBER = /(?:#\s?\d+|\b(?:STORE|STORE NO|STR|NO|NR|NUM|TERM|TERMINAL|TID|FIL|FILIALE|KASSE|T)\s?[.:#-]?\s?\d+\b)/gi;
/** A bank's bracketed code: a country "(ITA)", a reference "(123456)", Italy's "A (ITA)" before the shop. */
const BRACKETED = /(?:\bA )?\(\s*(?:[A-Z]{3}|\d+)\s*\)/gi;
const REFERENCE_SUFFIX = /\*[A-Z0-9]*\d[A-Z0-9]*/gi;
const STAR = /\s*\*\s*/g;
/** A number of three digits or more on its own, or a code mixing letters and at least two digits (2K4L81QT2). */
const NUMBER_OR_CODE = /\b(?:\d{3,}|(?=[A-Z0-9]*\d[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6,})\b/gi;
/** Punctuation left standing alone once what was around it went ("Utrecht,, / UTRECHT"); an ampersand stays. */
const STRAY_PUNCTUATION = /(?<=^|\s)[^\p{L}\p{N}\s&]+(?=\s|$)/gu;
const EDGES = /^[\s*#:;,./\\|_+-]+|[\s*#:;,/\\|_+-]+$/g;
const SPACES = /\s+/g;
/** Whitespace other than a space: with two spaces in a row, what SPACES would change. Most lines have neither. */
const OTHER_WHITESPACE = /[^\S ]/;
const SPACE_BEFORE_PUNCTUATION = /\s+([,.;:])/g;
/** Text whose words normalize as they are (STARBUCKS STORE SEATTLE WA): normalize would return each unchanged. */
const PLAIN_WORDS = /^[A-Z0-9]+(?: [A-Z0-9]+)*$/;

const COUNTRIES = new Set(places.countries);
const US_STATES = new Set(places.usStates);
const CITIES = new Set(places.cities);
/** Every city's last word: a text whose last word is none of them ends with no city, found without joining its words. */
const CITY_LAST_WORDS = new HashFilter(places.cities.map((city) => city.slice(city.lastIndexOf(' ') + 1)));
const LONGEST_CITY = Math.max(...places.cities.map((city) => city.split(' ').length));
/** Every proper start of a city's name of three characters or more (NEW YOR, PORTLA), for names OFX cut short. */
const CITY_PREFIXES = new Set(places.cities.flatMap((city) => Array.from({ length: Math.max(0, city.length - 3) }, (_, index) => city.slice(0, index + 3)).filter((prefix) => !prefix.endsWith(' '))));

/**
 * The passes that blank what is not the counterparty, in order, each with the character its pattern
 * cannot match without: a line without digits, stars or brackets (blanking never adds one) skips
 * the passes that look for them.
 */
const BLANKED: ReadonlyArray<readonly [pattern: RegExp, needs: 'digit' | '*' | '(' | null]> = [
  [LABELLED_REFERENCE, 'digit'],
  [BRACKETED, '('],
  [CARD_REFERENCE, null],
  [FOREIGN_AMOUNT, 'digit'],
  [LABELLED_DATE, 'digit'],
  [DATE, 'digit'],
  [TIME, 'digit'],
  [PHONE, 'digit'],
  [STORE_NUMBER, 'digit'],
  [PROCESSOR, '*'],
  [REFERENCE_SUFFIX, '*'],
  [STAR, '*'],
  [NUMBER_OR_CODE, 'digit'],
  [STRAY_PUNCTUATION, null],
];
const DIGIT = /\d/;

/** The description's counterparty text; the whole description (whitespace collapsed) when nothing is left. */
export function cleanDescription(raw: string): string {
  const whole = collapseSpaces(raw.slice(0, MAX_DESCRIPTION_LENGTH)).trim();
  let text = PURCHASE_AT.exec(whole)?.[1] ?? labelled(NAAM, whole) ?? labelled(ADRES, whole) ?? achOriginator(whole) ?? whole;
  if (text.includes('+')) text = text.replace(SVWZ, ' ').replace(PURPOSE_MARKER, ' ');
  const codeEnds = TRAILING_METHOD.test(text) && LEADING_UK_CODE.test(text);
  text = codeEnds ? text : stripLeading(text);
  const has = { digit: DIGIT.test(text), '*': text.includes('*'), '(': text.includes('(') };
  for (const [pattern, needs] of BLANKED) if (needs === null || has[needs]) text = text.replace(pattern, ' ');
  text = collapseSpaces(text).replace(SPACE_BEFORE_PUNCTUATION, '$1');
  text = (codeEnds ? text.replace(EDGES, '') : stripLeading(text.replace(EDGES, ''))).replace(TRAILING_METHOD, '').replace(TRAILING_WORDS, '').replace(SLASHED_PLACE, '');
  text = stripPlace(text, whole.length >= OFX_NAME_LENGTH - 2 && whole.length <= OFX_NAME_LENGTH).replace(EDGES, '');
  return text || whole;
}

function collapseSpaces(text: string): string {
  return text.includes('  ') || OTHER_WHITESPACE.test(text) ? text.replace(SPACES, ' ') : text;
}

/** What `pattern`, whose label ends in a colon (Naam:, Adres:), captures; most lines have no colon to look for it after. */
function labelled(pattern: RegExp, text: string): string | undefined {
  return text.includes(':') ? pattern.exec(text)?.[1] : undefined;
}

/** NACHA entries as US banks print them: the originator's name and its entry description (both forms have labels with a colon). */
function achOriginator(text: string): string | undefined {
  if (!text.includes(':')) return undefined;
  const described = ACH_DES.exec(text);
  if (described) return `${described[1]} ${described[2]}`;
  const name = ORIGINATOR.exec(text)?.[1];
  if (!name) return undefined;
  const entry = ENTRY_DESCRIPTION.exec(text)?.[1];
  return entry ? `${name} ${entry}` : name;
}

/** Payment-method words, processor prefixes, and dates or card numbers between them, from the start. */
function stripLeading(text: string): string {
  let previous;
  do {
    previous = text;
    const method = LEADING_METHOD.get(text.charAt(0).toUpperCase());
    text = method ? text.replace(method, '') : text;
    // A processor's prefix ends in a star.
    text = (text.includes('*') ? text.replace(LEADING_PROCESSOR, '') : text).replace(LEADING_DATE_OR_CARD, '').trimStart();
  } while (text !== previous && text !== '');
  return text;
}

/**
 * Country, US state and city at the end, in any order, keeping at least one word and a city a word
 * ties into the name (CITY OF AUSTIN); a city glued on with a hyphen (ESQUINA-MADRID); in a name
 * OFX cut short (`truncated`), the start of a city at the very end (NEW YOR).
 */
function stripPlace(text: string, truncated: boolean): string {
  const lastWord = text.slice(text.lastIndexOf(' ') + 1);
  // Most names end with a word that is no place's and has none glued on: nothing to strip, nothing to split.
  if (!truncated && !lastWord.includes('-') && !mayEndPlace(normalize(lastWord))) return text;
  let words = text.split(' ');
  const last = words.at(-1) ?? '';
  const glued = last.lastIndexOf('-');
  if (words.length > 1 && glued > 0 && CITIES.has(normalize(last.slice(glued + 1)))) words = [...words.slice(0, -1), last.slice(0, glued)];
  const normalized = PLAIN_WORDS.test(text) ? words : words.map(normalize);
  let end = placeStart(normalized);
  if (end < normalized.length && CITY_LINKS.has(normalized[end - 1] ?? '')) end = normalized.length;
  // A trade's word alone before a city is a shop named for it: PIZZERIA NAPOLI, PASTELARIA VERSAILLES, CAFE PARIS.
  if (end === 1 && normalized.length > 1 && !normalized[0]!.includes(' ') && normalized.slice(1).every((word) => !COUNTRIES.has(word) && !US_STATES.has(word)) && isTradesWord(normalized[0]!)) end = normalized.length;
  if (truncated && end === normalized.length) end -= cutCityLength(normalized);
  return words.slice(0, end).join(' ');
}

/** How many words at the end of `words` (normalized) are a city's first words, the last cut short (NEW YOR, PORTLA); 0 when none. */
function cutCityLength(words: string[]): number {
  for (let length = Math.min(2, words.length - 1); length >= 1; length--) {
    const tail = words.slice(-length).join(' ');
    if (tail.length >= 3 && CITY_PREFIXES.has(tail)) return length;
  }
  return 0;
}

/** True when the text ends with a city (and maybe state and country): a shop's location, as card networks print it. */
export function endsWithCity(normalized: string): boolean {
  // Most lines end with a word that is no place's: then there is nothing to split.
  if (!mayEndPlace(normalized.slice(normalized.lastIndexOf(' ') + 1))) return false;
  const words = normalized.split(' ');
  for (let end = words.length; end > 1; end--) {
    if (cityLength(words, end) > 0) return true;
    if (!COUNTRIES.has(words[end - 1]!) && !US_STATES.has(words[end - 1]!)) return false;
  }
  return false;
}

/** Where the place at the end of `words` (each normalized) starts; their length when there is none. */
function placeStart(words: string[]): number {
  let end = words.length;
  for (;;) {
    const last = words[end - 1] ?? '';
    if (end > 1 && (COUNTRIES.has(last) || US_STATES.has(last) || isStateAndCountry(last))) {
      end -= 1;
      continue;
    }
    const city = cityLength(words, end);
    if (city === 0) break;
    end -= city;
  }
  return end;
}

/** False when a normalized word is certainly not a country, a state or a city's last word: the words before it are then no place at the end either. */
function mayEndPlace(word: string): boolean {
  return COUNTRIES.has(word) || US_STATES.has(word) || isStateAndCountry(word) || CITY_LAST_WORDS.mayHold(hashOf(word, word.lastIndexOf(' ') + 1));
}

/** Huntington's "NEW YORK NYUS": a state with the country glued on. */
function isStateAndCountry(word: string): boolean {
  return word.length === 4 && word.endsWith('US') && US_STATES.has(word.slice(0, 2));
}

/** How many normalized words before `end` name a city (the longest such), leaving at least one word; 0 when none. */
function cityLength(words: string[], end: number): number {
  if (end < 2) return 0;
  const last = words[end - 1]!;
  if (!CITY_LAST_WORDS.mayHold(hashOf(last, last.lastIndexOf(' ') + 1))) return 0;
  for (let length = Math.min(LONGEST_CITY, end - 1); length >= 1; length--) {
    if (CITIES.has(words.slice(end - length, end).join(' '))) return length;
  }
  return 0;
}
