/**
 * French, Belgian, Italian and Polish banks write a person surname first (`VIR SEPA EMIS DE MME ROUSSEL ANNE`,
 * `BLIK P2P-WYCHODZĄCY KOWALSKA ANNA`, `INSTANTOVERSCHRIJVING VAN JANSSENS SOFIE`), where an app shows
 * Anne Roussel. A name of two words whose second is a common given name and whose first is not is read
 * that way round. The list is small on purpose: the most common given names of the countries the
 * providers reach (normalized), enough to turn the usual case and never a shop's name, which rarely ends
 * in a given name alone; names that are also shops' or common words (MART, LIGA, ROSA, MAX) are left out.
 * A name that starts with one of them is a person's (isPersonName): a payment to them is a transfer.
 */
import { CIVIL_TITLES } from './guards.ts';
import { isTradesWord } from './rules.ts';
import { normalize } from './text.ts';

const GIVEN_NAMES: ReadonlySet<string> = new Set([
  // French
  'ANNE', 'MARIE', 'CAMILLE', 'JULIE', 'SOPHIE', 'NATHALIE', 'ISABELLE', 'CATHERINE', 'CLAIRE', 'CAROLINE', 'VALERIE', 'SANDRINE', 'CELINE', 'EMMA', 'LEA', 'CHLOE',
  'MANON', 'INES', 'LOUISE', 'AURELIE', 'ELODIE', 'EMILIE', 'AMELIE', 'PAULINE', 'SYLVIE', 'MONIQUE', 'FRANCOISE', 'CHRISTINE', 'MARTINE', 'HELENE', 'LAURE', 'ALICE',
  'PAUL', 'PIERRE', 'JEAN', 'LUCAS', 'LOUIS', 'HUGO', 'NICOLAS', 'THOMAS', 'JULIEN', 'ANTOINE', 'CHRISTOPHE', 'PHILIPPE', 'FRANCOIS', 'MICHEL', 'ALAIN', 'ERIC',
  'LAURENT', 'SEBASTIEN', 'STEPHANE', 'GABRIEL', 'ARTHUR', 'RAPHAEL', 'JULES', 'MATHIEU', 'GUILLAUME', 'PATRICK', 'OLIVIER', 'VINCENT', 'FREDERIC', 'BENOIT', 'YANNICK', 'CEDRIC',
  // Dutch and Flemish
  'LUUK', 'ANOUK', 'GOEDELE', 'ELINE', 'ROBBE', 'LIESBETH', 'ANNELIES', 'MARLEEN', 'JELLE', 'SEPPE', 'ARNE', 'JOLIEN', 'FIEN', 'NOOR', 'LISE', 'MIEKE', 'KATLEEN', 'FRANS', 'LUDO', 'KURT',
  'KRISTOF', 'SVEN', 'JEROEN', 'NIELS', 'LIEVEN', 'FILIP', 'JORIS', 'BRAM', 'NELE', 'HANNE', 'LIEN', 'VEERLE', 'TINE',
  'SOFIE', 'LIES', 'ELS', 'AN', 'INGE', 'HILDE', 'KATRIEN', 'GRIET', 'SANNE', 'LOTTE', 'EVA', 'FLEUR', 'LAURA', 'NINA', 'ANKE', 'EVELIEN',
  'JAN', 'PIETER', 'TOM', 'BART', 'JOHAN', 'KOEN', 'WIM', 'DIRK', 'LUC', 'MARC', 'GEERT', 'PETER', 'DAAN', 'SEM', 'JOOST', 'MAARTEN', 'RUBEN', 'THIJS', 'WOUTER', 'STIJN',
  // Italian
  'GINEVRA', 'BEATRICE',
  'GIOVANNA', 'ROSSELLA', 'ANTONELLA', 'CRISTINA', 'SIMONA', 'GIANLUCA', 'FABIO', 'MASSIMO', 'EMANUELE', 'SALVATORE', 'VINCENZO', 'CLAUDIO', 'MAURIZIO',
  'LUCA', 'MARCO', 'GIUSEPPE', 'GIOVANNI', 'FRANCESCO', 'ALESSANDRO', 'MATTEO', 'LORENZO', 'DAVIDE', 'STEFANO', 'PAOLO', 'ROBERTO', 'ANDREA', 'SIMONE', 'FEDERICO', 'RICCARDO',
  'GIULIA', 'FRANCESCA', 'CHIARA', 'SARA', 'ELENA', 'ALESSIA', 'VALENTINA', 'FEDERICA', 'SILVIA', 'MARTINA', 'ELISA', 'GIORGIA', 'SERENA', 'ROBERTA', 'PAOLA', 'SOFIA',
  // Polish
  'MARTA', 'ZUZANNA', 'NATALIA', 'KAROLINA', 'PAULINA', 'WERONIKA', 'IZABELA', 'JUSTYNA', 'SYLWIA', 'URSZULA', 'HALINA', 'JADWIGA', 'IRENA', 'TERESA', 'JANINA', 'OLIWIA',
  'STANISLAW', 'ZBIGNIEW', 'JERZY', 'TADEUSZ', 'JACEK', 'RYSZARD', 'JANUSZ', 'HENRYK', 'KAZIMIERZ', 'DAMIAN', 'MACIEJ', 'PRZEMYSLAW', 'RAFAL', 'SZYMON', 'DOMINIK', 'KACPER',
  'ANNA', 'MARIA', 'KATARZYNA', 'MALGORZATA', 'AGNIESZKA', 'BARBARA', 'EWA', 'KRYSTYNA', 'ELZBIETA', 'MAGDALENA', 'JOANNA', 'ALEKSANDRA', 'MONIKA', 'ZOFIA', 'DOROTA', 'BEATA',
  'PIOTR', 'KRZYSZTOF', 'ANDRZEJ', 'TOMASZ', 'PAWEL', 'MICHAL', 'MARCIN', 'JAKUB', 'ADAM', 'LUKASZ', 'GRZEGORZ', 'MATEUSZ', 'WOJCIECH', 'MARIUSZ', 'DARIUSZ', 'KAMIL', 'MAREK', 'BARTOSZ',
  // German and Austrian
  'MAXIMILIAN', 'ELIAS', 'ELISABETH', 'NIKLAS', 'JANNIK', 'MORITZ', 'HEIKE', 'KERSTIN', 'KATRIN', 'SILKE', 'NADINE', 'JANA', 'GUNTER', 'HORST', 'HELMUT', 'MANFRED', 'DIETER', 'RALF', 'ROLF',
  'SABINE', 'PETRA', 'CLAUDIA', 'SUSANNE', 'BIRGIT', 'STEFANIE', 'KATHARINA', 'JULIA', 'LENA', 'LEONIE', 'HANNAH', 'LISA', 'MIA', 'JOHANNA', 'ANJA', 'NICOLE', 'MELANIE',
  'MICHAEL', 'ANDREAS', 'STEFAN', 'MARKUS', 'CHRISTIAN', 'MATTHIAS', 'FLORIAN', 'TOBIAS', 'JONAS', 'FELIX', 'LUKAS', 'ALEXANDER', 'SEBASTIAN', 'JURGEN', 'JUERGEN', 'KLAUS', 'WOLFGANG', 'UWE', 'JORG', 'JOERG',
  // English, Irish, American
  'ALEX', 'JAMIE', 'KIRSTY', 'CALLUM', 'RHYS', 'GARETH', 'CRAIG', 'NEIL', 'IAN', 'DARREN', 'GEMMA', 'NATALIE', 'HAYLEY', 'LEANNE', 'STACEY', 'ZOE', 'JOANNE', 'ABBIE', 'ELLIE',
  'ISABELLA', 'SOPHIA', 'ABIGAIL', 'KAYLA', 'DANIELLE', 'AIDEN', 'ELIJAH', 'THEO', 'SAOIRSE', 'EILIS', 'CAOIMHE', 'DEIRDRE', 'OISIN', 'CILLIAN', 'DARRAGH', 'TADHG', 'SEAMUS', 'DONAL', 'FIONN',
  'MARY', 'PATRICIA', 'LINDA', 'SUSAN', 'KAREN', 'BETTY', 'SANDRA', 'ASHLEY', 'KIMBERLY', 'DONNA', 'MICHELLE', 'CAROL', 'AMANDA', 'MELISSA', 'DEBORAH',
  'STEPHANIE', 'SHARON', 'CYNTHIA', 'KATHLEEN', 'AMY', 'ANGELA', 'BRENDA', 'SAMANTHA', 'KATHERINE', 'CHRISTINA', 'RUTH', 'MEGAN', 'LAUREN', 'ALICIA', 'GRACE', 'MARGARET',
  'KEVIN', 'BRIAN', 'STEVEN', 'STEPHEN', 'JASON', 'JEFFREY', 'RYAN', 'JACOB', 'TIMOTHY', 'LARRY', 'JUSTIN', 'SCOTT', 'BENJAMIN', 'SAMUEL', 'GREGORY',
  'RAYMOND', 'AARON', 'NATHAN', 'ZACHARY', 'KYLE', 'ETHAN', 'NOAH', 'JEREMY', 'KEITH', 'ANTHONY', 'DONALD', 'KENNETH', 'JOSHUA', 'EDWARD', 'RONALD', 'CHARLES', 'MARK',
  'RAHUL', 'ARJUN', 'NEHA', 'ANJALI', 'RAVI', 'WEI',
  'SARAH', 'EMILY', 'JESSICA', 'JENNIFER', 'ELIZABETH', 'CHARLOTTE', 'OLIVIA', 'AMELIA', 'LUCY', 'REBECCA', 'RACHEL', 'HANNA', 'KATIE', 'AOIFE', 'SIOBHAN', 'NIAMH', 'CIARA', 'SINEAD', 'ORLA', 'ROISIN', 'PRIYA',
  'JAMES', 'JOHN', 'DAVID', 'ROBERT', 'WILLIAM', 'RICHARD', 'JOSEPH', 'DANIEL', 'MATTHEW', 'ANDREW', 'CHRISTOPHER', 'JONATHAN', 'OLIVER', 'HARRY', 'GEORGE', 'SEAN', 'CIARAN', 'CONOR', 'DECLAN', 'EOIN', 'NIALL', 'PADRAIG', 'LIAM',
  // Spanish and Portuguese
  'MATEO', 'DANIELA', 'VALERIA', 'JOSEFA', 'RICARDO', 'RODRIGO', 'DIOGO', 'DUARTE', 'AFONSO', 'MATILDE', 'LEONOR',
  'JUAN', 'LUIS', 'JOSE', 'ISABEL',
  'LUCIA', 'CARMEN', 'PILAR', 'JAVIER', 'JORGE', 'ALEJANDRO', 'PABLO', 'SERGIO', 'ALVARO', 'DIEGO', 'CARLOS', 'MIGUEL', 'ANTONIO', 'MANUEL', 'RAFAEL', 'FERNANDO', 'ANA', 'BEATRIZ', 'MARIANA', 'JOAO', 'RUI', 'TIAGO', 'PEDRO', 'NUNO',
  // Swedish, Danish, Norwegian, Finnish
  'KRISTIAN', 'KRISTIANE', 'LINNEA', 'EBBA', 'ALVA', 'ELSA', 'AXEL', 'VIKTOR', 'EMIL', 'MIKAEL',
  'OLOF', 'BIRGITTA', 'ANNIKA', 'WILMA', 'TUVA', 'TOVE', 'KAROLINE', 'FREDERIK', 'MALTHE', 'TERJE', 'GEIR', 'NOORA', 'EETU', 'ONNI', 'VEETI', 'LEEVI', 'JUHANI', 'AKSELI', 'EERO', 'JOONAS',
  'ELIN', 'INGRID', 'ASTRID', 'SIGRID', 'KARIN', 'MALIN', 'FREJA', 'IDA', 'MAJA', 'KARI', 'HEGE', 'SILJE', 'METTE', 'AINO', 'SANNA', 'TIINA', 'MINNA', 'KAISA',
  'ERIK', 'LARS', 'ANDERS', 'MAGNUS', 'OSKAR', 'NILS', 'BJORN', 'HENRIK', 'MADS', 'RASMUS', 'SOREN', 'JENS', 'MIKKEL', 'FREDRIK', 'HAKON', 'OLA', 'EINAR', 'MATTI', 'JUHA', 'MIKKO', 'JUKKA', 'TIMO', 'ANTTI', 'VILLE',
  // Estonian, Latvian, Lithuanian
  'LIGA', 'AGNE',
  'MARI', 'MAARJA', 'KRISTI', 'SIIM', 'KAUR', 'RAIVO', 'ROKAS', 'MANTAS', 'TOMAS', 'MARIUS', 'GIEDRIUS', 'DARIUS', 'LAURYNAS', 'MARTYNAS', 'GIEDRE', 'VAIDA', 'JURGITA', 'INGA', 'EDGARS', 'ANDRIS', 'MARIS', 'ZANE',
  'KRISTJAN', 'KERLI', 'LIIS', 'MERLE', 'ARTURS', 'KRISTAPS', 'RAIVIS', 'DACE', 'AGNESE', 'BAIBA', 'DOVYDAS', 'EMILIJA', 'GABIJA', 'KOTRYNA', 'URTE', 'RUGILE', 'AUSRA', 'EGLE', 'JURATE', 'KRISTINA',
  'KADRI', 'TIIU', 'KAIRI', 'MARET', 'KATRIN', 'PIRET', 'TRIIN', 'ANNELI', 'TOOMAS', 'TONU', 'JAAN', 'ANDRES', 'PRIIT', 'MARGUS', 'URMAS', 'TIIT', 'AIVAR', 'JAAK', 'ILZE', 'INESE', 'KRISTINE', 'JANIS', 'ANDRIS', 'MARTINS', 'EDGARS', 'RUTA', 'JURGITA', 'RASA', 'TOMAS', 'MANTAS', 'DARIUS', 'MINDAUGAS',
]);
/** First words of a place's or a shop's name that a given name follows: SAINT PAUL, CHEZ ANNE, VILLA MARIA. */
const NOT_SURNAMES: ReadonlySet<string> = new Set(['SAINT', 'SAINTE', 'ST', 'STE', 'SAN', 'SANTA', 'SANKT', 'CHEZ', 'VILLA', 'CASA', 'CAFE', 'LA', 'LE', 'DE', 'VAN', 'THE']);

/**
 * The name's words in the order an app shows a person's: ROUSSEL ANNE → ANNE ROUSSEL, DUBOIS JEAN-PIERRE → JEAN-PIERRE DUBOIS (a given name joined of two),
 * a surname with its particles too (Van Damme Kristof → Kristof Van Damme, VAN DEN BOSSCHE PATRICK, DE CLERCQ TOM), a surname
 * before two given names (VIRTANEN MATTI JUHANI → MATTI JUHANI VIRTANEN); any other name as it is.
 */
export function givenNameFirst(words: readonly string[]): readonly string[] {
  const particle = surnameParticles(words);
  if (particle === 0 && words.length === 3) return threeWordsGivenFirst(words);
  if (words.length !== 2 + particle) return words;
  const surname = normalize(words[particle]!);
  const given = normalize(words[particle + 1]!);
  return isGiven(given) && isSurname(surname) ? [words[particle + 1]!, ...words.slice(0, particle + 1)] : words;
}

/** A surname and two given names (VIRTANEN MATTI JUHANI), given names first; a name ending in one given name is as likely a shop's (BROWS BY NINA, STUDIO URODY EWA). */
function threeWordsGivenFirst(words: readonly string[]): readonly string[] {
  const [first, second, third] = words.map((word) => normalize(word)) as [string, string, string];
  return isSurname(first) && isGiven(second) && isGiven(third) ? [words[1]!, words[2]!, words[0]!] : words;
}

/** A given name, or one joined of two (JEAN PIERRE of JEAN-PIERRE). */
function isGiven(normalized: string): boolean {
  return normalized.split(' ').every((part) => GIVEN_NAMES.has(part));
}

/** A word that may be a surname before a given name: no given name itself, no word a place's or a shop's name starts with, no trade's. */
function isSurname(normalized: string): boolean {
  return !GIVEN_NAMES.has(normalized) && !NOT_SURNAMES.has(normalized) && !isTradesWord(normalized);
}

/** The words a surname may start with (VAN DAMME, DE CLERCQ, DI MAURO, LE ROUX), and the second of two (VAN DEN BOSSCHE, VAN DER MEER, DE LA CRUZ). */
export const SURNAME_PARTICLES: ReadonlySet<string> = new Set(['VAN', 'DE', 'DI', 'DA', 'DEL', 'DU', 'LE', 'LA', 'DOS', 'DAS']);
const SECOND_PARTICLES: ReadonlySet<string> = new Set(['DEN', 'DER', 'LA', 'DE']);

/** How many particles start `words` before a surname (0, 1 or 2: VAN DEN). */
function surnameParticles(words: readonly string[]): number {
  if (words.length < 3 || !SURNAME_PARTICLES.has(normalize(words[0]!))) return 0;
  return words.length > 3 && SECOND_PARTICLES.has(normalize(words[1]!)) ? 2 : 1;
}

/** The most words a person's name has on a statement (given names, surname). */
const PERSON_WORDS = 3;

/**
 * True when a normalized name reads as a person's: two or three words of letters, a common given name
 * first, and no word that names a trade (ANNA SCHMIDT FRISEUR is a hairdresser's shop).
 */
export function isPersonName(normalized: string): boolean {
  const words = normalized.split(' ');
  return words.length >= 2 && words.length <= PERSON_WORDS && GIVEN_NAMES.has(words[0]!) && words.every((word) => /^[A-Z]+$/.test(word) && !isTradesWord(word));
}

/**
 * True when a bank's counterparty field (normalized) names a person written surname first (ANDERSSON ANNA, MARTIN SOPHIE) or
 * after a civil title (HR P BAKKER, MME MARTIN SOPHIE): two or three words of letters, the last a common given name and the first
 * none, or a title before initials or a name; read only in that field, where a firm's name has its legal form.
 */
export function isPersonOfField(normalized: string): boolean {
  const words = normalized.split(' ');
  if (words.length > 1 && (CIVIL_TITLES.has(words[0]!) || DUTCH_TITLES.has(words[0]!))) {
    const rest = words.slice(1).join(' ');
    return isInitialsName(rest) || isPersonName(rest) || isPersonOfField(rest);
  }
  return words.length >= 2 && words.length <= PERSON_WORDS && GIVEN_NAMES.has(words.at(-1)!) && !GIVEN_NAMES.has(words[0]!) && words.every((word) => /^[A-Z]{2,}$/.test(word) && (TRADE_SURNAMES.has(word) || !isTradesWord(word)));
}

/** Dutch banks' short titles in a counterparty field (Hr. P. Bakker, Mw. A. Jansen). */
const DUTCH_TITLES: ReadonlySet<string> = new Set(['HR', 'MW', 'MEJ']);

/** Surnames that are a trade's word too (the Dutch baker, fisher, miller): after initials they are a person's. */
const TRADE_SURNAMES: ReadonlySet<string> = new Set(['BAKKER', 'BAKER', 'VISSER', 'MULDER', 'SMIT', 'BECKER', 'KOCH']);
/** Initials, as a word of the normalized text: J P of J.P. */
const INITIAL = /^[A-Z]$/;
/** A single letter among a normalized text's words: it may hold initials (read further only then). */
const HAS_INITIAL = /(?:^| )[A-Z](?: |$)/;

/** True when a normalized text has a single letter among its words: it may name a person by initials (read further only then). */
export function mayHoldInitials(normalized: string): boolean {
  return HAS_INITIAL.test(normalized);
}

/**
 * True when a normalized name reads as a person's written with initials, as Dutch and British banks write one (J.P. BAKKER,
 * L. DE VRIES, K HUSSAIN): one to three initials first, then one to three words of letters naming no trade (a surname that is one, BAKKER, aside).
 */
export function isInitialsName(normalized: string): boolean {
  if (!mayHoldInitials(normalized)) return false;
  const words = normalized.split(' ');
  let initials = 0;
  while (initials < words.length && INITIAL.test(words[initials]!)) initials++;
  const surname = words.slice(initials);
  return initials >= 1 && initials <= PERSON_WORDS && surname.length >= 1 && surname.length <= PERSON_WORDS && surname.every((word) => /^[A-Z]{2,}$/.test(word) && (TRADE_SURNAMES.has(word) || !isTradesWord(word)));
}

/** True when a word of a normalized text is a common given name: the text may name a person (read further only then). */
export function namesGivenName(normalized: string): boolean {
  for (let start = 0; start < normalized.length; ) {
    const space = normalized.indexOf(' ', start);
    const end = space < 0 ? normalized.length : space;
    // A given name has two letters at least, and most words of a line are no name: a length check first.
    if (end - start >= 2 && GIVEN_NAMES.has(normalized.slice(start, end))) return true;
    start = end + 1;
  }
  return false;
}

/** True when a normalized word is one of the common given names (JAN, MARCO), which a purpose word (a month) may also be. */
export function isGivenName(word: string): boolean {
  return GIVEN_NAMES.has(word);
}
