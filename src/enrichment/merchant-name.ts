/**
 * A merchant's or payer's name read from the bank's own text when the directory does not know it, as
 * an app shows it: `SQ *BLUE LINE BAGELS` → Blue Line Bagels, `ACME LOGISTICS LTD SALARY` → Acme
 * Logistics, `KELA LAPSILISA` → KELA, `TO MR T OKAFOR` → T Okafor. The name is the first run of words of the clean description
 * (clean.ts) that say who, not what for: leading and trailing purpose words (salary, refund, rent,
 * invoice, a month) go, so does a civil title before a person's given name and surname (a title before a surname alone stays: M Durand), and the name ends at a legal form (legal-forms.ts) or at a purpose word; a
 * payment facilitator's own name (Satispay Europe) is no one's.
 * Text in capitals is title-cased, keeping short all-capital tokens (HMRC's kind: DWP, NAV) and
 * lower-casing particles inside a name (Metro de Madrid); text already in mixed case is kept.
 */
import { US_STATES } from './clean.ts';
import { BALTIC_LEADING_FORMS, legalFormLength } from './legal-forms.ts';
import { givenNameFirst, isGivenName, SURNAME_PARTICLES } from './given-names.ts';
import { CIVIL_TITLES } from './guards.ts';
import { namesFacilitator } from './naming-guards.ts';
import { isAbbreviationByNeighbour } from './shortened-words.ts';
import { normalize } from './text.ts';

/** Months in the languages read, and their abbreviations. */
const MONTHS: ReadonlySet<string> = new Set([
  'JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'SEPT', 'OCT', 'NOV', 'DEC', 'JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER',
  'DECEMBER', 'JANUAR', 'FEBRUAR', 'MARZ', 'MAERZ', 'MAI', 'JUNI', 'JULI', 'OKTOBER', 'DEZEMBER', 'JANVIER', 'FEVRIER', 'MARS', 'AVRIL', 'JUIN', 'JUILLET', 'AOUT', 'SEPTEMBRE', 'OCTOBRE',
  'NOVEMBRE', 'DECEMBRE', 'ENERO', 'FEBRERO', 'MARZO', 'ABRIL', 'MAYO', 'JUNIO', 'JULIO', 'AGOSTO', 'SEPTIEMBRE', 'OCTUBRE', 'NOVIEMBRE', 'DICIEMBRE', 'GENNAIO', 'FEBBRAIO', 'APRILE', 'MAGGIO',
  'GIUGNO', 'LUGLIO', 'SETTEMBRE', 'OTTOBRE', 'JANUARI', 'FEBRUARI', 'MAART', 'MEI', 'AUGUSTUS', 'MAJ', 'AUGUSTI', 'JANEIRO', 'FEVEREIRO', 'MARCO', 'MAIO', 'JUNHO', 'JULHO', 'SETEMBRO',
  'OUTUBRO', 'NOVEMBRO', 'DEZEMBRO', 'STYCZEN', 'LUTY', 'MARZEC', 'KWIECIEN', 'CZERWIEC', 'LIPIEC', 'SIERPIEN', 'WRZESIEN', 'PAZDZIERNIK', 'LISTOPAD', 'GRUDZIEN', 'MARTS', 'DESEMBER',
  'TAMMIKUU', 'HELMIKUU', 'MAALISKUU', 'HUHTIKUU', 'TOUKOKUU', 'KESAKUU', 'HEINAKUU', 'ELOKUU', 'SYYSKUU', 'LOKAKUU', 'MARRASKUU', 'JOULUKUU', 'JAANUAR', 'VEEBRUAR', 'APRILL', 'JUUNI', 'JUULI',
  'OKTOOBER', 'DETSEMBER', 'JANVARIS', 'FEBRUARIS', 'APRILIS', 'MAIJS', 'JUNIJS', 'JULIJS', 'AUGUSTS', 'SEPTEMBRIS', 'OKTOBRIS', 'NOVEMBRIS', 'DECEMBRIS', 'SAUSIS', 'VASARIS', 'KOVAS', 'BALANDIS',
  'BALANDI', 'GEGUZE', 'BIRZELIS', 'RUGPJUTIS', 'RUGSEJIS', 'SPALIS', 'LAPKRITIS', 'GRUODIS',
]);
/** The English months, the only ones a US or British line writes: another language's there is a name's word (MAYO CLINIC, MARS PETCARE). */
const ENGLISH_MONTHS: ReadonlySet<string> = new Set([
  'JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'SEPT', 'OCT', 'NOV', 'DEC', 'JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER',
]);

function isForeignMonth(word: string, currencyCode: string): boolean {
  return (currencyCode === 'USD' || currencyCode === 'GBP') && MONTHS.has(word) && !ENGLISH_MONTHS.has(word);
}
/** Purpose words of one currency's country only, a name's word elsewhere: Poland's income tax (PIT-37), and a barbecue's pit or a pit stop (HICKORY PIT BBQ, PIT STOP CAR WASH). */
const PURPOSE_OF_ONE_CURRENCY: ReadonlyMap<string, string> = new Map([['PIT', 'PLN']]);
function isOtherCurrencysPurpose(word: string, currencyCode: string): boolean {
  const only = PURPOSE_OF_ONE_CURRENCY.get(word);
  return only !== undefined && only !== currencyCode;
}
/** Income's and its payers' words, in normalized form: on a purchase they are a shop's own (FLOUR CHILD BAKERY, PENSION HAUS SEEBLICK, a guest house). */
const INCOME_WORDS: ReadonlySet<string> = new Set([
  'SALARY', 'SALARIES', 'SUELDO', 'PAYROLL', 'WAGES', 'WAGE', 'PAY', 'NET', 'PAYCHECK', 'DIRECT', 'DIR', 'DEP', 'DIRECTDEP', 'DEPOSIT', 'EARNINGS', 'BONUS', 'GEHALT', 'LOHN', 'BEZUGE', 'SALAIRE', 'NOMINA', 'SALARIS', 'LOON',
  'LON', 'LONN', 'STIPENDIO', 'EMOLUMENTI', 'WYNAGRODZENIE', 'SALARIO', 'ORDENADO', 'VENCIMENTO', 'PALKKA', 'ALGA', 'ATLYGINIMAS', 'PENSION', 'PENSIONE', 'PENSJA', 'PENSAO', 'PENSIJA', 'PENSJON',
  'ALDERSPENSJON', 'ALLMAN', 'SENATVES', 'ELAKE', 'RENTE', 'RETRAITE', 'JUBILACION', 'REFUND', 'REF', 'TAX', 'TAXES', 'TREAS', 'TREASURY', 'ERSTATTUNG', 'EST', 'REMBOURSEMENT', 'RIMBORSO', 'IRPEF', 'REEMBOLSO',
  'DEVOLUCION', 'ZWROT', 'PODATKU', 'VEROPALAUTUS', 'SKATTEATERBARING', 'TAGASTUS', 'TULUMAKSU', 'ATMAKSA', 'GRAZINIMAS', 'GUTSCHRIFT', 'ARBEITNEHMERVERANLAGUNG', 'BENEFIT', 'BENEFITS', 'CHILD',
  'ALLOWANCE', 'KINDERGELD', 'FAMILIENBEIHILFE', 'ARBEITSLOSENGELD', 'AUSZAHLUNG', 'BARNBIDRAG', 'BARNETRYGD', 'DAGPENGER', 'LAPSILISA', 'LASTETOETUS', 'NASPI', 'ASSEGNO', 'UNICO', 'FIGLI', 'SWIADCZENIE',
  'SUBSIDIO', 'DESEMPREGO', 'ERSATTNING', 'TOOTUSKINDLUSTUSHUVITIS', 'WERKLOOSHEIDSUITKERING', 'AOW', 'UC', 'UI', 'SOC', 'SEC', 'XXSOC',
]);
/** Words that say what a payment was for or how it moved, in normalized form: never a name, and a name ends at one. */
const PURPOSE = new Set([
  ...INCOME_WORDS,
  // bills, rent and transfers
  'RENT', 'MIETE', 'LOYER', 'ALQUILER', 'HUUR', 'HYRA', 'AFFITTO', 'CZYNSZ', 'RENDA', 'HUSLEJE', 'HUSLEIE', 'VUOKRA', 'VASTIKE', 'HOITOVASTIKE', 'YHTIOVASTIKE', 'UUR', 'IRES', 'NUOMA', 'PAYMENT', 'PAYMENTS', 'PMT', 'PYMT', 'PMNT', 'BILL',
  'INVOICE', 'RECHNUNG', 'FAKTURA', 'FACTURE', 'FACTURA', 'FATTURA', 'BOLLETTA', 'ARVE', 'REKINS', 'SASKAITA', 'LASKU', 'BESTELLING', 'BESTELLUNG', 'PASUTIJUMS', 'UZSAKYMO', 'UZSAKYMAS', 'APMOKEJIMAS', 'TELLIMUS', 'ABONNEMENT', 'AANBETALING', 'RESERVERING', 'ORDERNR', 'TILAUS', 'TILAUSNRO', 'KUUKAUSIMAKSU', 'ABSCHLAG', 'TEILBETRAG', 'BEITRAG', 'VERTRAGSKONTO', 'KUNDENNR', 'AFTALENR',
  'CONTRAT', 'VERTRAG', 'CONTRATTO', 'CONTRATO', 'KONTRAKT', 'POLISA', 'POLIZZA', 'POLIZA', 'APOLICE', 'POLIISI', 'POLIIS',
  // a gift between people: what the transfer was for
  'GESCHENK', 'GEBURTSTAG', 'GEBURTSTAGSGESCHENK', 'CADEAU', 'REGALO', 'PREZENT', 'LAHJA',
  'RATA', 'AUTOPAY', 'TRANSFER', 'XFER', 'SENT', 'RECEIVED', 'RCVD', 'RECIBIDO', 'ENVIADO', 'PRZYCHODZACY', 'WYCHODZACY', 'ONLINE', 'WEB', 'APP', 'CHECK', 'CHEQUE', 'WOHNUNG', 'FLAT',
  // a flat, a street, a levy, a school's or a town's fee (version 16)
  'MIESZKANIE', 'IMPUESTO', 'VEHICULOS', 'TRACCION', 'MECANICA', 'MATRICULA', 'CONTRIBUTO', 'VOLONTARIO', 'IUV', 'MENSALIDADE', 'CANTINE', 'GIVING', 'TUITION', 'MEMBERSHIP', 'DUES', 'VANCO', 'KID', 'FELLESKOSTNADER', 'KOMMUNALE', 'AVGIFTER', 'TERMIN', 'KONTINGENT', 'ASIAKASMAKSU', 'FORSKOLEAVGIFT', 'FORAELDREBETALING', 'BOLIGAFGIFT', 'KURSGEBUHR', 'WASSERBEZUGSGEBUHR', 'WASSERGEBUHR', 'KANALBENUTZUNGSGEBUHR', 'KANALGEBUHR', 'QUARTAL', 'AFVALSTOFFENHEFFING', 'ODPADAMI', 'GOSPODAROWANIE', 'ZAHLUNGSREFERENZ', 'ELTERNBEITRAG', 'HONORARNOTE', 'WAHLARZT', 'SEPA', 'RG', 'RGNR', 'IMPFUNG', 'PROPINAS', 'PREST', 'INH', 'INHABER', 'CUOTA', 'POCKET', 'NEKUSTAMA', 'IPASUMA', 'NODOKLIS', 'PODATKOWY', 'MIKRORACHUNEK',
  // a loan's instalment, interest and principal (version 16)
  'PRESTAMO', 'HIPOTECARIO', 'BOLAN', 'BOLIGLAN', 'AMORTERING', 'GOTOWKOWEGO', 'KREDITRATE', 'WOHNBAUKREDIT', 'DARLEHENSRATE', 'RATENKREDIT', 'RATE', 'BAUFINANZIERUNG', 'MAJOKLA', 'KREDITA', 'ATMAKSA', 'BUSTO', 'PASKOLOS', 'PASKOLA', 'IMOKA', 'JA', 'ASUNTOLAINAN', 'ASUNTOLAINA', 'KORKO', 'DARL', 'DARLEHEN', 'TILGUNG', 'ZINS', 'FINANZIAMENTO', 'CRED', 'TERMINBELOP', 'LYHENNYS', 'PRESTACAO', 'HABITACAO', 'RATY', 'HIPOTECZNEGO', 'KREDYTU',
  // pay, benefits and refunds named on the line (version 16)
  'PAYE', 'ZASILEK', 'BEZROBOTNYCH', 'DAGPENGE', 'UGE', 'ANSIOPAIVARAHA', 'VAKANTIEGELD', 'PECULE', 'EINDEJAARSPREMIE', 'URLAUBSGELD', 'WEIHNACHTSGELD', 'TREDICESIMA', 'DIENSTENCHEQUES', 'KINDERBIJSLAG', 'GENEESKUNDIGE', 'VERZORGING', 'STORTING',
  // months, in the languages read: a name never carries the month a salary or a rent is for
  ...MONTHS,
  // loans, taxes and fees named on the line
  'MORTGAGE', 'MTG', 'LOAN', 'MUTUO', 'HIPOTECA', 'CAPITALE', 'INTERESSI', 'INTEREST', 'PRINCIPAL', 'ECHEANCE', 'PRET', 'IMMOBILIER', 'SPLATA', 'KREDYTU', 'KREDYT', 'USATAXPYMT', 'IMPOT', 'IMPOTS',
  'PRELEVEMENT', 'ECH', 'SOURCE', 'F24', 'DELEGA', 'DELEGHE', 'ADDEBITO', 'SCADENZA', 'GIROCONTO', 'KAPITALOWO', 'ODSETKOWA', 'ODSETEK', 'NALICZONY', 'PODATEK', 'TELEMATICA', 'TARI', 'IUC', 'PIT', 'IENAKUMA', 'NODOKLA', 'GYVENTOJU', 'PAJAMU', 'MOKESCIO', 'MAKSA', 'BORNE', 'UNGEYDELSE', 'DONATION', 'DONATIONS',
  'SPENDE', 'UTIL', 'PREMIUM', 'PREM', 'PYMNT', 'EFT', 'CCD', 'EXCISE', 'PROPTAX', 'ANNUITY', 'CASHBACK', 'REWARD', 'DEBIT', 'OFFERTORY', 'BILET', 'BILLET', 'BIGLIETTO', 'TICKET', 'TICKETS', 'RENEWAL',
  // labels before a transfer's free text (title, message, reference, an Italian transfer's number), and Latvian "for" with a month's accusative
  'NUM', 'TRASFERIMENTO', 'GIROCONTO', 'BETALT', 'TYTUL', 'TYTULEM', 'PAR', 'APDROSINASANAS', 'PREMIJA', 'KOMUNALAJIEM', 'PAKALPOJUMIEM', 'PAKALPOJUMI', 'MENESA', 'MAKSA', 'DANKT', 'DANKE', 'PALK', 'DARBO', 'UZMOKESTIS', 'TOOTASU', 'AVGIFT', 'LEASING', 'LIZINGS', 'LIZINGA', 'LIZINGO', 'MAKSAJUMS', 'ALLOCATIONS', 'FAMILIALES', 'STUDIEMEDEL', 'SJUKPENNING', 'PABALSTS', 'ISMOKA', 'TOETUS', 'BIDRAG', 'VIITE', 'VIESTI', 'MEDDELANDE', 'CAUSALE', 'CONCEPTO', 'MOTIF', 'REFERENCE', 'TERUGBETALING', 'MANDATE', 'MANDAT', 'LANDLORD', 'OMSCHRIJVING', 'MEDEDELING', 'COMMUNICATION', 'VERWENDUNGSZWECK', 'SELGITUS', 'PASKIRTIS', 'JANVARI', 'MARTU', 'APRILI', 'MAIJU',
  'JUNIJU', 'JULIJU', 'AUGUSTU', 'SEPTEMBRI', 'OKTOBRI', 'NOVEMBRI', 'DECEMBRI',
  // a UK payment code after the payer's name (K HUSSAIN FPI PIZZA MONEY) or a card's (THE BLACK BULL ON 23 MAR CPM)
  'FPI', 'FPO', 'FP', 'BGC', 'DEB', 'BCC', 'CPM', 'CLP', 'DDR', 'PAYM', 'PAYME', 'PAYMEN', 'PFD', 'INVESTEERIMISKONTOLE', 'BAC', 'STO', 'PAYMT',
  // Polish and Portuguese purpose words: treatment, tuition, a charge, a subscription, a contribution, a pension
  'LECZENIE', 'CZESNE', 'OPLATA', 'ABONAMENT', 'SKLADKA', 'PENS',
  // a receipt's, a card's or a branch's label after the shop (Danish Nota, Spanish Tarj., Dutch Pasvolgnr), a Polish street (UL.)
  'NOTA', 'TARJ', 'FAC', 'FACT', 'BILLING', 'REGISTRATION', 'ADMISSIONS', 'HOOFDREKENING', 'BELASTINGEN', 'STADTKAEMMEREI', 'STADTKAMMEREI', 'INV', 'PPD', 'CARTE', 'ODIV', 'PASVOLGNR', 'PASNR', 'TRANSACTIE', 'UL',
  // what a US bill, a Spanish benefit or a local tax is for, and a credit union's share draft or transfer
  'UTILITY', 'PAYROL', 'PAYRO', 'TAXRFD', 'PURCHASE', 'PAYMNT', 'PMTS', 'EBILL', 'RECUR', 'EINBEHALTENE', 'KEST', 'VIREMENT', 'KAUFUMSATZ', 'GROEIPAKKET', 'CTAX', 'BILLPAY', 'BILLPMT', 'PATIENT', 'RETAIL', 'FORSIKRING', 'FORSAKRING', 'PRESTACION', 'PRESTACIONES', 'DESEMPLEO', 'IBI', 'RECIBO', 'DRAFT', 'TFR', 'SHARE', 'SHARES', 'OVERDRAFT', 'MEMBER', 'BANKING', 'ACCOUNT', 'LONOVERFORSEL', 'RENTER', 'EJENDOMSSKAT',
  // a professional's letters after the name
  'DDS', 'DMD', 'MD', 'DVM', 'PHD', 'ESQ', 'CPA',
]);
/** Legal forms written before the name: the Baltic countries' (SIA ACME LATVIA, UAB Ignitis, AS Latvenergo), France's (SARL BOIS ET TOITS, SAS DATALOG), Belgium's (BV BAKKERIJ VERMEULEN, VZW …), a Dutch company's royal warrant (Koninklijke Vopak), a Dutch foundation's Stichting (Stichting Ymere: four readers in five name Ymere), an Italian amateur sports association's ASD or SSD (ASD POLISPORTIVA SAN DONATO). */
const LEADING_FORMS = new Set([...BALTIC_LEADING_FORMS, 'AS', 'AB', 'SA', 'SARL', 'SAS', 'SASU', 'EURL', 'KONINKLIJKE', 'BV', 'NV', 'VZW', 'ASBL', 'STICHTING', 'COOPERATIE', 'SRL', 'SNC', 'SCM', 'SCP', 'SELARL', 'SELAS', 'ASD', 'SSD']);
/** French M. (monsieur) before another initial is the first of a person's initials (M.A. VISSER), not a title. */
function startsInitials(flat: readonly string[], at: number): boolean {
  return flat[at]!.length === 1 && flat[at + 1]?.length === 1;
}

/** The words by which a Dutch line addresses a person or a firm after VAN DE ("from the"). */
const ADDRESSED: ReadonlySet<string> = new Set(['HEER', 'HR', 'FIRMA', 'FA']);

/**
 * Dutch VAN before DEN or DER starts a surname (VAN DEN BERGHE BOUW), as Flemish VAN DE does before a name (VAN DE VELDE BOUWWERKEN; VAN DE HEER is from Mr), and so does VAN before a surname a given name follows,
 * the person written surname first (VAN DAMME KRISTOF), as another particle (DE, DI, LE, …) does in a name of those three
 * words alone (DE CLERCQ TOM; DE VITOR MANUEL SEBASTIAN RODRIGUES is "from"); the particle is otherwise "from" or "of".
 */
function startsSurname(flat: readonly string[], at: number): boolean {
  if (!SURNAME_PARTICLES.has(flat[at]!) || at + 2 >= flat.length) return false;
  if (flat[at] === 'VAN' && (flat[at + 1] === 'DEN' || flat[at + 1] === 'DER' || (flat[at + 1] === 'DE' && !ADDRESSED.has(flat[at + 2]!)))) return true;
  return (flat[at] === 'VAN' || at + 3 === flat.length) && !isGivenName(flat[at + 1]!) && isGivenName(flat[at + 2]!);
}

/** Initials written with full stops (J.W., A.): a surname's particle in lower case may follow them (J.W. de Boer). */
const DOTTED_INITIALS = /^(?:\p{Lu}\.)+$/u;

function isInitials(token: string): boolean {
  return DOTTED_INITIALS.test(token);
}

/** M alone is an initial on an English-speaking bank's line (STANDING ORDER TO M PATEL), French Monsieur elsewhere. */
/** On an English-speaking line, a letter alone before the last word is an initial, not a link (A SAINSBURY, TO J SMITH). */
function isInitialBeforeSurname(flat: readonly string[], at: number, currencyCode: string): boolean {
  return flat[at]!.length === 1 && at === flat.length - 2 && (currencyCode === 'GBP' || currencyCode === 'USD');
}

function isEnglishInitial(word: string, currencyCode: string): boolean {
  return word === 'M' && (currencyCode === 'GBP' || currencyCode === 'USD');
}

/** MS (Mississippi) before a department on a US line is the state's, no Ms.: MS DEPT OF REV. */
function isStateBeforeDepartment(flat: readonly string[], at: number, currencyCode: string): boolean {
  return currencyCode === 'USD' && (flat[at + 1] === 'DEPT' || flat[at + 1] === 'DEPARTMENT');
}

/** A letter alone after a civil title is an initial (MRS A PATEL), not the word "to" it spells elsewhere. */
function isInitialAfterTitle(flat: readonly string[], at: number): boolean {
  return flat[at]!.length === 1 && at > 0 && CIVIL_TITLES.has(flat[at - 1]!);
}

/** The word for "for" that starts a payment's purpose after a name, by the account's currency (not a given name there: Swedish Per). */
const FOR_WORD: Readonly<Record<string, string>> = { PLN: 'ZA', EUR: 'PER' };

/**
 * Housing companies and flat owners' associations, named for their building: its number is part of the name
 * (Wspólnota Mieszkaniowa Lipowa 7, Korteriühistu Pärna 12, As Oy Koivukuja 3, Condominio Via Mazzini 44, its street no address after
 * the name); Finnish "As Oy" keeps its AS.
 */
const HOUSING_ASSOCIATIONS: ReadonlySet<string> = new Set(['WSPOLNOTA', 'SPOLDZIELNIA', 'KORTERIUHISTU', 'KU', 'ASUNTO', 'BRF', 'VVE', 'CONDOMINIO']);


/**
 * A country's or a region's name between a group's brand and its legal form names the group's company
 * there (SKANSKA SVERIGE AB, KONECRANES FINLAND OY, AMAZON EU SARL), GROUP the group's own (LUXOTTICA GROUP
 * SPA): an app names the brand. Without a form after it, GROUP is the name's (LAKESIDE DENTAL GROUP).
 */
const COUNTRY_BEFORE_FORM = new Set(['SVERIGE', 'SWEDEN', 'SUOMI', 'FINLAND', 'NORGE', 'NORWAY', 'DANMARK', 'DENMARK', 'DEUTSCHLAND', 'GERMANY', 'OSTERREICH', 'AUSTRIA', 'NEDERLAND', 'NETHERLANDS',
  'BELGIE', 'BELGIQUE', 'BELGIUM', 'FRANCE', 'ESPANA', 'SPAIN', 'ITALIA', 'ITALY', 'POLSKA', 'POLAND', 'PORTUGAL', 'EESTI', 'ESTONIA', 'LATVIJA', 'LATVIA', 'LIETUVA', 'LITHUANIA', 'IRELAND', 'UK', 'EU', 'EUROPE',
  'NORDIC', 'NORDICS', 'BALTIC', 'BALTICS', 'SCANDINAVIA', 'GROUP']);

/** Words that lead to a name (to, from, in favour of) and particles inside one; dropped at either end. */
const LINKS = new Set(['TO', 'FROM', 'DE', 'DA', 'DI', 'DEL', 'PARA', 'A', 'I', 'FRA', 'TIL', 'VAN', 'AAN', 'NAAR', 'OD', 'DO', 'FAVORE', 'BEI', 'AN', 'VON', 'FOR', 'POUR', 'AV', 'TILL', 'FRAN', 'ZA', 'PAR', 'UZ', 'NAAM', 'OF', 'DLA', 'EN']);
/** Particles written in lower case inside a title-cased name. */
const PARTICLES = new Set(['de', 'di', 'del', 'della', 'la', 'le', 'les', 'du', 'des', 'van', 'der', 'den', 'von', 'zu', 'zum', 'zur', 'y', 'e', 'i', 'og', 'och', 'da', 'do', 'dos', 'das', 'of', 'the', 'and', 'per', 'am', 'et']);
/** Short words kept in title case even alone (a short all-capital token is otherwise an initialism: DWP, NAV). */
const SHORT_WORDS = new Set(['THE', 'AND', 'BAR', 'PUB', 'SPA', 'INN', 'BUS', 'CAR', 'NEW', 'OLD', 'BIG', 'RED', 'ONE', 'TWO', 'SUN', 'SKY', 'BAY', 'CO', 'ST', 'DR', 'MR', 'MRS', 'MS', 'JOE', 'LA', 'LE', 'EL', 'AM', 'IM', 'MY', 'OUR', 'ZUM', 'ZUR', 'DEN', 'DER', 'DIE', 'DAS', 'VON', 'VAN', 'DE', 'DI', 'DEL', 'DU', 'DES', 'DA', 'DO', 'DOS', 'OG', 'OCH', 'AT', 'ON', 'IN', 'OF']);

/** Initialisms with a vowel that stay in capitals inside a name (Acme UK, Smith USA). */
const INITIALISMS = new Set(['UK', 'US', 'USA', 'EU', 'NHS', 'GB', 'AZ', 'UZ', 'KU', 'ACV', 'FOD', 'VUB', 'ULB', 'NYC', 'DOE', 'SDU']);

/** A saint's title: the word after it is a saint's name, even one that is also a month's (FARMACIA SAN MARCO, not March). */
const SAINTS = new Set(['SAN', 'SANTA', 'SANTO', 'SAO', 'ST', 'STE', 'SAINT', 'SAINTE', 'SANKT']);

/** A pay week (WK23, WK 07): what a wage is for, like a month. */
const PAY_WEEK = /^(?:WK|WEEK)\d{0,2}$/;

/** A comma after a word: banks write the name, then the town and the card (`BAR EL RINCON, CORDOBA ES, TARJ.`); the name ends there. */
const NAME_THEN_PLACE = /,$/;

/** A field's label with its colon (Mededeling:, Kenmerk:): what follows is another field; a name ends before it and never begins with it. */
const LABEL = /^\p{L}[\p{L}.-]*:$/u;

/**
 * A street's word (Belgian transfers print the other party's address after the name: SOPHIE LAMBERT
 * RUE DES ECOLES 4 NAMUR; Spanish ones C/ MAYOR 12; Sparkasse's card lines the shop's, Am Markt 3): a name of a word or more ends before it when a
 * house number follows within ADDRESS_WORDS tokens. Normalized, except C/ as written.
 */
const STREETS = new Set(['AM', 'RUE', 'AVENUE', 'BOULEVARD', 'CHAUSSEE', 'STRAAT', 'STRASSE', 'VIA', 'VIALE', 'PIAZZA', 'CALLE', 'AVENIDA', 'AVDA', 'RUA', 'ULICA', 'C/']);
const ADDRESS_WORDS = 4;
const HOUSE_NUMBER = /^\d{1,4}[A-Z]?,?$/i;

const STATE_CODES_THAT_ARE_WORDS = new Set(['CO', 'IN', 'OR', 'ME', 'OK', 'HI', 'DE', 'PA', 'LA', 'AL', 'MA', 'OH', 'ID', 'MD']);

const MIN_LETTERS = 2;
const SHORT_TOKEN = 3;
/**
 * A bank writes the counterparty in capitals and the payer's own words in lower case (`SADALES TIKLS
 * elektrība`, `VSAA bērna kopšanas pabalsts`): a name begun in capitals ends at a word in lower case, or at one
 * in title case before one in lower case.
 */
const CAPITALS = /^(?=(?:[^\p{L}]*\p{L}){2})[^\p{Ll}]+$/u;
const LOWER = /^[^\p{Lu}]*\p{Ll}[^\p{Lu}]*$/u;
/** A word in title case that begins the payer's words (`SOGECAP Assurance vie`, `CNP ASSURANCES Assurance de pret`). */
const TITLE = /^\p{Lu}\p{Ll}+$/u;
/** Dutch titles as ING writes them before a person's initials (Hr P. Jansen, Mw A. de Boer): in capitals, HR is H&R's. */
const DUTCH_TITLE = /^(?:Hr|Mw)\.?$/;
/** A token already in normalized form (most of a card line's): normalize would return it as it is. */
const PLAIN = /^[A-Z0-9]+$/;

/**
 * A text's tokens (its words as written, no empty ones), each token normalized, and the normalized
 * words in order with the token each comes from (a token may normalize to none or to several: A/S).
 * Built in one pass into packed arrays of strings and numbers: a list of small objects and the arrays
 * mapped from it cost more than the name reading itself on a short line. The steps after build their
 * arrays with `push` too: `map` and `flatMap` give holey ones once inlined, on which legalFormLength
 * and givenNameFirst, optimized for packed arrays, deoptimized late in a run.
 */
interface Words {
  tokens: string[];
  normalized: string[];
  flat: string[];
  tokenOf: number[];
}

function wordsOf(text: string): Words {
  const words: Words = { tokens: [], normalized: [], flat: [], tokenOf: [] };
  for (const token of text.split(' ')) {
    if (token === '') continue;
    const index = words.tokens.length;
    const normalized = PLAIN.test(token) ? token : normalize(token);
    words.tokens.push(token);
    words.normalized.push(normalized);
    if (normalized !== '') for (const word of normalized.split(' ')) {
      words.flat.push(word);
      words.tokenOf.push(index);
    }
  }
  return words;
}

/** The name the text gives, or null when it names no one (only purpose words, numbers or punctuation); on a `purchase`, income's words are the name's. */
export function nameFromText(text: string, currencyCode: string, purchase = false): string | null {
  const words = wordsOf(text);
  const { tokens, flat, tokenOf } = words;
  const name: number[] = [];
  for (let at = 0; at < flat.length; at++) {
    const word = flat[at]!;
    const index = tokenOf[at]!;
    // A Spanish pharmacy's licensed pharmacist (FARMACIA LDA. ROCIO GIL): the title goes, the name after it stays.
    if (isPharmacistsTitle(flat, at)) continue;
    if (name.length > 0 && legalFormLength(flat, at, currencyCode) > 0 && !isHousingCompany(flat, at)) {
      if (name.length > 1 && COUNTRY_BEFORE_FORM.has(words.normalized[name.at(-1)!]!) && !LINKS.has(words.normalized[name.at(-2)!]!)) name.pop();
      break;
    }
    if (name.at(-1) !== index && (LABEL.test(tokens[index]!) || (name.length > 0 && startsAddress(words, index) && !HOUSING_ASSOCIATIONS.has(words.normalized[name[0]!]!)))) {
      if (name.length > 0) break;
      continue;
    }
    // A word in lower or title case after a name in capitals is no part of it: a purpose, or a label OFX cut at the line's end (ZELLE PAYMENT TO PETER VOGEL Con).
    if (name.length > 0 && name.at(-1) !== index && CAPITALS.test(tokens[name[0]!]!) && ((LOWER.test(tokens[index]!) && !(PARTICLES.has(tokens[index]!) && isInitials(tokens[name.at(-1)!]!))) || (TITLE.test(tokens[index]!) && !PARTICLES.has(tokens[index - 1] ?? '') && (LOWER.test(tokens[index + 1] ?? '') || (index === tokens.length - 1 && name.length > 1))))) break;
    if ((PURPOSE.has(word) && !isOtherCurrencysPurpose(word, currencyCode) && !(purchase && INCOME_WORDS.has(word)) && !isAbbreviationByNeighbour(flat, at) && !isForeignMonth(word, currencyCode) && !givenNameBeforeName(words, at) && !givenNameNotMonth(flat, at, currencyCode, name.length) && !SAINTS.has(flat[at - 1] ?? '') && !monthInName(flat, at, name.length)) || PAY_WEEK.test(word) || afterPurposeInToken(words, at) || (name.length === 0 && (isStreetAfterUl(flat, at) || numberBeforeGivenName(flat, at)))) {
      if (name.length > 0) break;
      continue;
    }
    if (name.length === 0 && ((LINKS.has(word) && !startsSurname(flat, at) && !isInitialAfterTitle(flat, at) && !isInitialBeforeSurname(flat, at, currencyCode)) || (LEADING_FORMS.has(word) && at < flat.length - 1 && currencyCode === 'EUR' && !isHousingCompany(flat, at + 1)) || (((CIVIL_TITLES.has(word) && !startsInitials(flat, at) && !isEnglishInitial(word, currencyCode) && !isStateBeforeDepartment(flat, at, currencyCode)) || DUTCH_TITLE.test(tokens[index]!)) && at < flat.length - 2))) continue;
    // Polish "za" and Italian "per" (for) after a name of two words or more begin what the payment was for: KAROLINA NOWAK ZA BILETY, GIULIA CONTI PER REGALO.
    if (name.length > 1 && FOR_WORD[currencyCode] === word) break;
    if (name.length > 1 && name.at(-1) !== index && LOWER.test(tokens[index]!) && !PARTICLES.has(tokens[index]!) && !LINKS.has(word) && name.every((each) => TITLE.test(tokens[each]!))) break;
    if (name.at(-1) !== index) name.push(index);
    // A place's name ends at its town (NAME_THEN_PLACE), a housing association's at its building's number.
    if (NAME_THEN_PLACE.test(tokens[index]!) || isHousingAssociation(words, name)) break;
  }
  while (name.length > 0 && !isNumberedName(tokens, name) && !isHousingAssociation(words, name) && (isLink(words.normalized[name.at(-1)!]!) || (name.length > 1 && currencyCode === 'USD' && isStateCode(tokens[name.at(-1)!]!) && words.normalized[name.at(-2)!] !== 'OF'))) name.pop();
  const kept = givenNameFirst(withPossessive(withIrishO(onceOnly(withAmpersands(tokens, name)))));
  const joined = kept.join(' ');
  if (joined.replace(/[^\p{L}]/gu, '').length < MIN_LETTERS || namesFacilitator(normalize(joined))) return null;
  return /\p{Ll}/u.test(joined) ? joined : titleCased(kept);
}

/** A given name in title case that is also a month's (Jan, Marco), first or after a word leading to a name, before a capitalized word that is no purpose word: a person's name begins (to Jan Kowalski). */
function givenNameBeforeName({ tokens, flat, tokenOf }: Words, at: number): boolean {
  const index = tokenOf[at]!;
  const next = at + 1 < flat.length ? at + 1 : -1;
  return (at === 0 || LINKS.has(flat[at - 1]!)) && isGivenName(flat[at]!) && next >= 0 && tokenOf[next] !== index && /^\p{Lu}/u.test(tokens[tokenOf[next]!]!) && !PURPOSE.has(flat[next]!) && !LINKS.has(flat[next]!);
}

/**
 * A month's word inside a name, not what a payment was for (CAPE MAY PEDIATRIC, PHO MAI LINH, MARCH HARE BOOKS): after a word of the
 * name or first in the text, before a word that is no purpose, number, link or (first in the text) given name.
 */
function monthInName(flat: readonly string[], at: number, nameWords: number): boolean {
  const next = flat[at + 1];
  return MONTHS.has(flat[at]!) && (nameWords > 0 || at === 0) && next !== undefined && !/^\d/.test(next) && !PURPOSE.has(next) && !LINKS.has(next) && !(at === 0 && isGivenName(next));
}

/**
 * A given name that is also a month's abbreviation (JAN) and is a person's here: on a Polish line, whose months are Polish, before
 * another word (CZYNSZ KWIECIEŃ JAN NOWAK) or last after a surname (KOWALSKI JAN); elsewhere after a surname and before what the
 * payment was for (PEETERS JAN HUUR MAART).
 */
function givenNameNotMonth(flat: readonly string[], at: number, currencyCode: string, nameWords: number): boolean {
  const next = flat[at + 1];
  if (!isGivenName(flat[at]!) || /^\d/.test(next ?? '')) return false;
  // Last, after a surname, a Polish line's JAN is the given name of a person written surname first (KOWALSKI JAN).
  if (next === undefined) return currencyCode === 'PLN' && nameWords > 0;
  return currencyCode === 'PLN' ? !PURPOSE.has(next) : nameWords > 0 && PURPOSE.has(next);
}

/** The street's name after Polish UL. (ulica) before a name is found: an address, no name (CZYNSZ UL. POLNA 8/12 dla …). */
function isStreetAfterUl(flat: readonly string[], at: number): boolean {
  return at > 0 && flat[at - 1] === 'UL';
}

/** A number before a person's given name is a flat's or a house's, with Polish M. (mieszkanie) before it: M. 12 TOMASZ WIŚNIEWSKI. No part of the name. */
function numberBeforeGivenName(flat: readonly string[], at: number): boolean {
  const number = flat[at] === 'M' ? at + 1 : at;
  return /^\d{1,4}$/.test(flat[number] ?? '') && number + 1 < flat.length && isGivenName(flat[number + 1]!);
}

/** A street's word with a house number after it, within a few tokens: an address begins. */
function startsAddress({ tokens, normalized }: Words, index: number): boolean {
  if (!STREETS.has(tokens[index] === 'C/' ? 'C/' : normalized[index]!)) return false;
  for (let next = index + 1; next <= index + ADDRESS_WORDS && next < tokens.length; next++) if (HOUSE_NUMBER.test(tokens[next]!)) return true;
  return false;
}

/** A number glued to a purpose word before it (PIT-37, PIT-36L, F24-2026): the purpose's, not a name's. */
function afterPurposeInToken({ flat, tokenOf }: Words, at: number): boolean {
  return at > 0 && tokenOf[at - 1] === tokenOf[at] && /^\d+[A-Z]?$/.test(flat[at]!) && PURPOSE.has(flat[at - 1]!);
}

/** Spanish LDA. (licenciada) right after FARMACIA and before a name: the pharmacist's title, not Portugal's legal form. */
function isPharmacistsTitle(flat: readonly string[], at: number): boolean {
  return flat[at] === 'LDA' && flat[at - 1] === 'FARMACIA' && at + 1 < flat.length;
}

/** Finnish "As Oy" (asunto-osakeyhtiö, a housing company): its OY starts the name, not a legal form ending one. */
function isHousingCompany(flat: readonly string[], at: number): boolean {
  return flat[at] === 'OY' && (flat[at - 1] === 'AS' || flat[at - 1] === 'ASUNTO');
}

/** A housing association's name (first word), its building's number last: the number stays. */
function isHousingAssociation({ tokens, normalized }: Words, name: number[]): boolean {
  const first = normalized[name[0]!]!;
  return name.length > 1 && /^\d{1,4}[A-Z]?$/.test(tokens[name.at(-1)!]!) && (HOUSING_ASSOCIATIONS.has(first.split(' ', 1)[0]!) || (first === 'AS' && normalized[name[1]!] === 'OY'));
}

/** A short word and its number are one name (PHO 75, PHO 888): a store's number follows a longer name. */
function isNumberedName(tokens: string[], name: number[]): boolean {
  return name.length === 2 && /^\d{1,3}$/.test(tokens[name[1]!]!) && /^\p{L}{2,3}$/u.test(tokens[name[0]!]!);
}

/** The name's tokens, an ampersand between two of them kept (CROWN & ANCHOR, WINE & SPIRITS): normalizing drops it. */
function withAmpersands(tokens: string[], name: number[]): string[] {
  const kept: string[] = [];
  for (let at = 0; at < name.length; at++) {
    const index = name[at]!;
    if (at > 0 && index === name[at - 1]! + 2 && tokens[index - 1] === '&') kept.push('&');
    kept.push(tokens[index]!.replace(NAME_THEN_PLACE, ''));
  }
  return kept;
}

/** A name a bank writes twice, as creditor and as reference (MARTIN LUCAS MARTIN LUCAS), once. */
function onceOnly(tokens: string[]): string[] {
  const half = tokens.length / 2;
  return Number.isInteger(half) && half > 0 && tokens.slice(0, half).join(' ') === tokens.slice(half).join(' ') ? tokens.slice(0, half) : tokens;
}

/** A possessive whose apostrophe the bank turned into a space: CHUY S is CHUY'S (never S S, S & S). */
function withPossessive(tokens: string[]): string[] {
  const possessive = (index: number) => index > 0 && /^s$/i.test(tokens[index] ?? '') && tokens[index - 1]!.length > 1;
  const kept: string[] = [];
  for (let index = 0; index < tokens.length; index++) {
    if (possessive(index)) continue;
    kept.push(possessive(index + 1) ? `${tokens[index]}'${tokens[index + 1]}` : tokens[index]!);
  }
  return kept;
}

/** A US state's code after a payer's name (STATE OF IOWA IA TAX REF), not a word that is also one (CO, IN, OR, ME). */
function isStateCode(token: string): boolean {
  return US_STATES.has(token) && !STATE_CODES_THAT_ARE_WORDS.has(token);
}

/** Irish and Scottish names whose apostrophe the bank dropped: O BRIENS WINE is O'BRIENS WINE. Only first: after a trade's word, O is Portuguese "the" (PASTELARIA O FORNINHO). */
function withIrishO(tokens: string[]): string[] {
  return tokens[0] === 'O' && tokens.length > 1 ? [`O'${tokens[1]}`, ...tokens.slice(2)] : tokens;
}

function isLink(normalized: string): boolean {
  return normalized === '' || normalized.split(' ').every((word) => LINKS.has(word) || /^\d+$/.test(word));
}

/** The tokens title-cased and joined with spaces: one string built, no array mapped only to be joined. */
function titleCased(tokens: readonly string[]): string {
  let joined = '';
  for (let position = 0; position < tokens.length; position++) {
    const token = tokens[position]!;
    // A letter after another is an initial, no particle (J E DUNN is J E Dunn, not J e Dunn).
    joined += (position > 0 ? ' ' : '') + (position > 0 && isLetter(token) && isLetter(tokens[position - 1]!) ? token : titleCase(token, position, tokens.length));
  }
  return joined;
}

/** A token of one letter, a full stop after it or not (J, J.). */
function isLetter(token: string): boolean {
  return token.length === 1 || (token.length === 2 && token[1] === '.');
}

/**
 * BLUE → Blue, O'BRIEN → O'Brien, BERLIN-MITTE → Berlin-Mitte, DE → de inside a name. A short token
 * stays in capitals when it has no vowel (JRS, TX) or is the whole name (NAV, HSE): an initialism.
 */
function titleCase(token: string, position: number, tokens: number): string {
  const letters = token.replace(/[^\p{L}]/gu, '');
  if (letters.length > 0 && letters.length <= SHORT_TOKEN && !SHORT_WORDS.has(normalize(token)) && (tokens === 1 || !VOWEL.test(letters) || INITIALISMS.has(letters))) return token.replace(POSSESSIVE_S, "'s");
  const lower = token.toLowerCase();
  if (position > 0 && PARTICLES.has(lower)) return lower;
  const site = WEB_ENDING.exec(lower);
  return site ? capitalized(lower.slice(0, site.index)) + site[0] : capitalized(lower);
}

/** A vowel, accented or not (PÅ, ÖL and ÉTÉ are words, no initialisms). */
const VOWEL = /[AEIOUYÅÄÖØÆÉÈÊËÀÁÂÍÌÎÏÓÒÔÚÙÛÜ]/i;
/** A possessive's s after an initial kept in capitals (HATTIE B'S → Hattie B's). */
const POSSESSIVE_S = /'S$/;
/** A web address's ending, in lower case as written (MYSCHOOLBUCKS.COM → Myschoolbucks.com). */
const WEB_ENDING = /\.(?:com|net|org|io)$/;

/** Characters after which a letter starts a part of a name (Berlin-Mitte, A.B.C, (Mc)Donald, Kum&Go). */
const PART_STARTS = new Set(['-', '/', '.', '(', '&']);
const LETTER = /\p{L}/u;
const WORD_CHARACTER = /\w/;

/** A Scottish or Irish name's Mc before a capital (MCMENAMINS → McMenamins): Mc and at least three letters more. */
const MC_NAME = /^mc\p{L}{3}/u;

/** `lower` with a capital for a letter that starts it, follows PART_STARTS, an O' (O'Brien, not Ko'a) or a name's Mc (McKenzie): one pass, no regex callback per letter. */
function capitalized(lower: string): string {
  let result = '';
  let at = 0;
  const mc = MC_NAME.test(lower);
  for (const character of lower) {
    const starts = at === 0 || PART_STARTS.has(lower[at - 1]!) || (lower[at - 1] === "'" && lower[at - 2] === 'o' && !WORD_CHARACTER.test(lower[at - 3] ?? '')) || (mc && at === 2);
    result += starts && LETTER.test(character) ? character.toUpperCase() : character;
    at += character.length;
  }
  return result;
}
