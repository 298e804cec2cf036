/**
 * A bank's description without what is not the counterparty: the payment method's words (POS,
 * Kartenzahlung, PRLV SEPA, Kortköp, …), card processors' prefixes (SQ *, TST*, PAYPAL *), card
 * references, dates and times, store and terminal numbers, references (SEPA's EREF/MREF, ACH's PPD
 * ID, trace numbers), foreign amounts and, at the end, city, state and country. The case is kept.
 * Every pattern is compiled once, here; a call runs a fixed list of linear passes.
 */
import places from './data/places.json' with { type: 'json' };
import { ALL_TOWNS, isStateTown, isStateTownStart, NO_TOWNS, properStarts, townsOf, townsOfEither } from './towns.ts';
import { isGivenName } from './given-names.ts';
import { HashFilter, hashOf } from './hash-filter.ts';
import { METHOD_PHRASES } from './method-words.ts';
import { isFacilitator } from './naming-guards.ts';
import { isTradesWord } from './rules.ts';
import { isNameEnding, isNamesAbbreviation } from './shortened-words.ts';
import { isNormalized, normalize, normalizeEach } from './text.ts';

/** Longer than any bank's description: bounds the cost of one call. */
export const MAX_DESCRIPTION_LENGTH = 400;

/** Card processors and payment facilitators whose prefix stands before the merchant's own name. */
const PROCESSORS = ['SQ', 'SQC', 'EB', 'CKE', 'VIPPS', 'GIV', 'CASH APP', 'TST', 'PAYPAL', 'PP', 'SP', 'IC', 'PY', 'BT', 'CKO', 'FS', 'DRI', '2CO', 'CLV', 'ZTL', 'SUMUP', 'SMP', 'IZ', 'ZETTLE_?', 'GOOGLE', 'HPY', 'MOL', 'CCV', 'CC', 'PAR', 'STRIPE', 'SATISPAY', 'IN', 'GIVELIFY', 'NEXI', 'GOFAN', 'PROCARE', 'USA', 'TITHELY', 'TITHE LY', 'TITHE\\.LY', 'PUSHPAY', 'INSTAMED', 'BRIGHTWHEEL', 'SPOT', 'TOAST', 'VENMO', 'FSP', 'SPO', 'TOCK', 'FLYWIRE', 'GLOSSGENIUS', 'BOOKSY', 'REVTRAK', 'ABC', 'LAWPAY'];

/** PayPal's SEPA lines name the shop after its own name: "… Ihr Einkauf bei Spotify AB". */
const PURCHASE_AT = /\b(?:Ihr Einkauf bei|Your purchase at|Votre achat chez|Su compra en|Uw aankoop bij|Ditt k[oö]p hos)\s+(.+)$/i;
const ORIGINATOR = /ORIG CO NAME:\s*(.+?)(?:\s+(?:ORIG ID:|CO ENTRY DESCR:|DESC DATE:|SEC:|O(?:R(?:IG?)?)?$)|\s*$)/i;
/** Bank of America's wires: "Wire Type:Wire IN … Orig:ACME CORP ID:123 Snd Bk:…", "Wire Type:Wire OUT … BNF:JANE ROE ID:…"; a Fedwire's payer by order of: "FEDWIRE CREDIT VIA: … B/O: PATRICIA NGUYEN … REF: …". */
const WIRE_PARTY = /\b(?:Orig|BNF|B\/O):\s*(.+?)\s+(?:ID:|Snd Bk:|Bnf Bk:|Pmt Det:|REF:|IMAD:)/i;
/**
 * Credit unions' ACH lines: "Deposit ACH TYPE: PAYROLL ID: 9111111101 CO: ACME TOOLS"; with the company's field empty, the next
 * label follows CO: and the name stands before TYPE: ("Deposit ACH ACMETOOLS TYPE: PAYROLL … CO: Entry Class Code: PPD").
 */
const ACH_COMPANY = /\bTYPE:.*?\bCO:\s*(?![\s]|Entry Class Code\b)(.+)$/i;
const ACH_NAME_BEFORE_TYPE = /\bACH\s+(?!TYPE:)([^\s:][^:]*?)\s+TYPE:/i;
const SVWZ = /\b(?:EREF|MREF|CRED|KREF|ABWA|ABWE|IBAN|BIC)\+\S+/gi;
const PURPOSE_MARKER = /\bSVWZ\+/gi;
const LABELLED_REFERENCE = new RegExp(
  String.raw`\b(?:End-to-End-Ref|Mandatsref|Mandat|Gl(?:ä|ae|a)ubiger-?ID|Kundenreferenz|Kundennr|Steuer-?nr\.?|Steuernummer|Referenz|Ref|R[ée]f|Referencia|Bankreferentie|R[ée]f[ée]rence banque|Kenmerk|Betalingskenm|Machtiging|Incassant-?ID|OCR|Trace ?#?|TRN|PPD ID|WEB ID|CCD ID|CO ID|IND ID|INDN|ID|KFN|VJ|ABI|CAB|Conf ?#?|Confirmation|Auth ?#?|TXN|Nota(?:nr)?|IBAN|BIC|Mandate|NR|Nr|No|Transaction|Kto|Konto(?:nr)?)\s*[.:#]?\s*[:#]?\s*[A-Z0-9][A-Z0-9./-]*\d[A-Z0-9./-]*`,
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
/** SumUp's prefix is written with a full stop too: "SumUp .Cafe Milchbar//Leipzig/DE". */
const SUMUP_DOT = String.raw`SUMUP\s?\.(?=\p{L})`;
const LEADING_PROCESSOR = new RegExp(String.raw`^(?:(?:${PROCESSORS.join('|')})\s?\*|${SUMUP_DOT})\s*`, 'iu');
/** The same prefix before a bank's counterparty name, spaced as banks pad it ("SumUp  *Koffiebar Lot"). */
const PROCESSOR_BEFORE_PARTY = new RegExp(String.raw`^(?:(?:${PROCESSORS.join('|')})\s*\*|${SUMUP_DOT})\s*(?=\S)`, 'iu');

/** Tikkie's counterparty field names the person who paid before its own name: "S de Boer via Tikkie". */
const VIA_TIKKIE = /\s+via Tikkie$/i;

/** A doctor's faculty after the title, which a name read from the field leaves out: "Dr. med. dent. Julia Wendt" is Dr. Julia Wendt. */
const FACULTY_AFTER_DR = /\b(Dr\.?)(?:\s+(?:med|dent|vet|univ|rer|nat|phil|jur|iur|pharm)\.)+(?=\s)/gi;
/** A German diploma before a name: "Steuerberater Dipl.-Kfm. Klaus Wendland", "Dipl.-Ing. Eva Roth". */
const DIPLOMA = /\bDipl\.-?\s?\p{L}+\.\s+/giu;

/**
 * A bank's counterparty name as it names the other party: without the processor that carried the payment, before the shop's
 * (SumUp  *Koffiebar Lot) or after the person's (S de Boer via Tikkie), or the card's network (ING's VISA CAFE GLUECKSMOMENT), without quotation marks (SIA "Citadele Leasing"), and
 * without the place a card payee's field ends in: a town after two slashes or a backslash ("TANKSTELLE MAIER//BAD TOELZ/DE",
 * Erste Bank's "CAFE SPERL\WIEN\1060"), or a town of the account's countries and a country's code (ING's "EFES KEBAB KIELCE PL").
 */
export function counterpartyName(name: string, currencyCode: string, card: boolean): string {
  const party = (mayHoldProcessor(name) ? name.replace(PROCESSOR_BEFORE_PARTY, '') : name).replace(LEADING_SPORTS_ASSOCIATION, '').replace(CARD_BEFORE_PARTY, '').replace(VIA_TIKKIE, '').replace(TOWN_AFTER_SLASHES, '').replace(QUOTES, ' ').trim();
  return withoutTownAndCountry(withoutOwner(party, currencyCode), townsOf(currencyCode), card);
}

/** A name without a doctor's faculty (FACULTY_AFTER_DR) or a diploma (DIPLOMA): what a person reads of it, the rules having read the words. */
export function withoutDegrees(name: string): string {
  return name.includes('.') ? name.replace(FACULTY_AFTER_DR, '$1').replace(DIPLOMA, '') : name;
}

/** The bank's counterparty without a public body's or a firm's department after its name: "GEMEENTE UTRECHT - AFDELING BELASTINGEN" is Gemeente Utrecht. */
export function withoutDepartment(party: string): string {
  return party.replace(DEPARTMENT_AFTER_NAME, '');
}

/** A public body's or a firm's department after its name in the bank's field (a Danish housing association's numbered one after a name of any length: "AAB Afdeling 12"): "GEMEENTE UTRECHT - AFDELING BELASTINGEN", "URZĄD MIASTA KRAKOWA WYDZIAŁ ORGANIZACJI", "HELSINGIN KAUPUNKI / KASVATUKSEN JA KOULUTUKSEN TOIMIALA", a sports club's section ("SV Traun Sektion Tennis"), a head office ("DUO Hoofdvestiging"). */
const DEPARTMENT_AFTER_NAME = /(?<=\S\s+\S+)\s+(?:(?:-|\/)\s+.*|(?:AFDELING|WYDZIA[ŁL]|ABTEILUNG|FACHBEREICH|CLUSTER|SEKTION)\s.*)$|(?<=\S)\s+AFDELING\s+\d+$|(?<=\S)\s+HOOFDVESTIGING$/iu;

/** An Italian amateur sports association's or company's form with its stops, before the name in the bank's field (A.S.D. PILATES STUDIO CORPOLIBERO). */
const LEADING_SPORTS_ASSOCIATION = /^(?:A\.S\.D\.|S\.S\.D\.)\s+(?=\S)/i;

/** ING Germany's card payee names the card's network first: "VISA CAFE GLUECKSMOMENT". */
const CARD_BEFORE_PARTY = /^VISA\s+(?=\S)/i;

/** A German card payee's town and country after two slashes, as the bank's field gives it ("TANKSTELLE MAIER//BAD TOELZ/DE"), or its street, town and country after one each (DKB's "SUPERMARKT A/STRASSE 1/STADT/DE"), or an Austrian one's town and postcode after a backslash ("CAFE SPERL\WIEN\1060"), or a Dutch one's town after a greater-than sign ("Tweewielers Van Dam>DELFT"). */
const TOWN_AFTER_SLASHES = /\/\/.*$|\\.*$|\/[^/]*\/[^/]*\/[A-Z]{2}$|>.*$/;

/**
 * `party` without a country's code at its end and the town of `towns` (or the written list's city) before it, a word of the name left at least;
 * on a card's purchase (`card`: a shop's or a website's channel, or the card network's merchant code), where the field is the network's name and town, without a town at its end, two words of the name left (KAHVILA SIENI TAMPERE).
 */
function withoutTownAndCountry(party: string, towns: ReadonlySet<string>, card: boolean): string {
  const words = party.split(' ');
  if (words.length < 3) return party;
  if (COUNTRIES.has(words.at(-1)!)) {
    const town = cityLength(normalizeEach(words.slice(0, -1)), words.length - 1, towns);
    return town > 0 ? words.slice(0, -1 - town).join(' ') : party;
  }
  if (!card) return party;
  const normalized = normalizeEach(words);
  const town = cityLength(normalized, words.length, towns);
  return town > 0 && words.length - town >= 2 && !TOWN_OF.has(normalized[words.length - town - 1]!) ? words.slice(0, -town).join(' ') : party;
}

/** Words that make the town after them part of a name: Comune di Bologna, Museen der Stadt Leipzig, Universität Hamburg. */
const TOWN_OF = new Set([
  'DE', 'DI', 'DU', 'DES', 'OF', 'VAN', 'FUR', 'FUER', 'DEL', 'DELLA', 'DA', 'DO', 'W', 'IN', 'AM', 'AN', 'LA', 'LE',
  'STADT', 'STAD', 'GEMEENTE', 'GEMEINDE', 'COMUNE', 'VILLE', 'CITY', 'COUNTY', 'REGION', 'KOMMUNE', 'KOMMUN',
  'UNIVERSITAT', 'UNIVERSITY', 'UNIVERSITEIT', 'UNIVERSITE', 'UNIVERSIDAD', 'UNIVERSITA', 'HOCHSCHULE', 'HOGESCHOOL',
]);

/**
 * A till's prefix (Toast, Square, Clover, SumUp, Zettle), at the start or after a card word: a shop's
 * terminal, not a website's star; its descriptor names the shop, then after " - " which of its places (TST* JOES PIZZA - CARMINE).
 */
export const TILL = /(?:^|\s)(?:TST|SQ|CLV|ZTL|SUMUP|SMP|IZ|ZETTLE_?)\s?\*/i;
/** A processor's prefix after other text (a Dutch "BEA NR:… SumUp *Koffiebar"), before the stars go. */
const PROCESSOR_PREFIX = String.raw`(?<=^|\s|-)(?:${PROCESSORS.join('|')})\s?\*\s*`;
const PROCESSOR = new RegExp(PROCESSOR_PREFIX, 'gi');
/** The same prefix with a name after it. */
const PROCESSOR_BEFORE_NAME = new RegExp(String.raw`${PROCESSOR_PREFIX}\p{L}`, 'iu');
/**
 * Whether a processor's star prefix stands before the shop's own name in `raw` (PAYPAL *VINTED, Google
 * Pay CCV*Eetcafe De Waag), or PayPal's SEPA line names the shop after its own (… Ihr Einkauf bei
 * HOLZSPIELZEUG WALDMANN): a directory name found in the whole line but not in what `cleanDescription`
 * kept is then the processor's or the wallet's, which only carried the payment.
 */
export function behindProcessor(raw: string): boolean {
  return (raw.includes('*') && PROCESSOR_BEFORE_NAME.test(raw)) || PURCHASE_AT.test(raw);
}

/** German lines name the method after the counterparty: "Imbiss Ali Baba Kartenzahlung"; Belgian card lines the scheme: "… LIER 05/03/2026 BANCONTACT - CONTACTLOOS", "… LOKEREN 9160 16/03/2026 BANCONTACT PAYCONIQ CO"; UK app banks the scheme in brackets: "Priya Raman (Faster Payments)"; US credit unions the ACH after the payee: "HYUNDAI MOTOR FIN ACH WEB-RECUR"; mBank the day's label after the town: "KAWIARNIA MLECZARNIA /KRAKOW DATA TRANSAKCJI: 2025-01-10"; a Visa Direct payout its network after the person: "VENMO *KAYLA BROOKS VISA DIRECT NY". */
/** A field's label left at the end once its value went (PKO BP's and Pekao's "… ZIELONA GORA PL Kwota: 160,00 PLN"): no part of the name. */
const TRAILING_LABEL = /\s\p{L}+:\s*$/u;
/** A German shop's branch after Fil. (Filiale): "Baeckerei Schneider Fil. Marktplatz"; the shop is the name. */
const BRANCH_AFTER_FIL = /\s+Fil\.\s.*$/i;
/** A Danish or Norwegian business names its owner after v/ (ved): "Klip & Krøl v/Lene Holm"; the business is the name. */
const OWNER_AFTER_V = /\s+v\/\s*\p{L}.*$/iu;
/** mBank's card lines end in the shop's town after a spaced slash, any town of one or more words (SMILE DENT GABINET STOMATOL /GORZOW WLKP). */
const MBANK_TOWN = /\s\/[\p{L} .'-]+$/u;
/** A British postcode's district after the town, two words of the name before it: "THUNDERBIRD FRIED CHIC LONDON E20", "THE KINGS ARMS CHIPPING CAMPDEN GL55". */
const UK_POSTCODE_DISTRICT = /(?<=\S\s+\S+\s+\S+)\s+[A-Z]{1,2}\d{1,2}[A-Z]?$/;
const TRAILING_WORDS = /\s(?:Kartenzahlung|Kaufumsatz|Kartenumsatz|Lastschrift|Gutschrift|Dauerauftrag|[UÜ]berweisung|Einzug|CONTACTLESS|BANCONTACT(?: PAYCONIQ(?: CO)?| CONTACTLOOS| CONTACTLESS| SANS CONTACT)?|\((?:Faster Payments?|Direct Debit|Standing Order|Bacs)\)|Vipps by DNB|ACH(?: WEB-RECUR)?|SEPA CREDIT TRANSFER|APPLE PAY|GOOGLE PAY|KAART|DATA TRANSAKCJI|VISA DIRECT(?: [A-Z]{2})?|(?:- )?Transazione C-less|ZAKUP PRZY U[ŻZ]YCIU KARTY|K\d{1,2} Bezahlung(?: Bankomat| Maestro| Karte)?|Karte \d{1,2}(?: Maestro)?|Umsatz)$/iu;
/** SumUp's and other terminals' "NAME//CITY/COUNTRY", SEB's Baltic card lines' "NAME/CITY/EST", French card lines' "NAME\\CITY\\ FR", and Adyen's German lines' "NAME/STREET 1/TOWN/DE". */
const SLASHED_PLACE = /\/\/.*$|\/[\p{L} .'-]+\/[A-Z]{3}\b.*$|\\.*$|\/[^/]*\/[^/]*\/[A-Z]{2}$/u;
/** Polish transfers name the other party after a label: "Przelew przychodzący … Od: ACME SPÓŁKA Z O.O.", "Przelew wychodzący do: Jan Kowalski Tytuł: …". */
const POLISH_PARTY = /\b(?:Od|Do|Nadawca|Odbiorca|Nazwa (?:i adres )?(?:odbiorcy|nadawcy)):\s*(.+?)(?:\s+(?:Tytu[łl]|Adres|Rachunek|Nr rachunku)\s*:|$)/i;
/** NatWest's and RBS's fields, spaced commas between them: "4417 02APR26 C , THE BOOK NOOK , YORK GB", "SOUTHERN ELECTRIC , 12345678 , DDR". */
const FIELD_SEPARATOR = ' , ';
/** A NatWest field before the name: the card's last digits with the day (and C for contactless, CD for a card), a call reference. */
const FIELD_BEFORE_NAME = /^(?:\d{4} \d{2}[A-Z]{3}\d{2}(?: CD?)?|CALL REF\.NO\. \d+)$/i;
/** comdirect's lines ("Empfänger: Katharina Vogt Kto/IBAN: DE44… BLZ/BIC: … Buchungstext: Miete April") and Erste's George in English ("Payment recipient: A1 Telekom Austria Aktiengesellschaft Purpose of use: …", "… Recipient: Andreas Ragg Payment reference: …"). */
const EMPFAENGER = /\b(?:Empf(?:ä|ae|a)nger|Payment recipient|Recipient|Payer):\s*(.+?)(?:\s*(?=Kto\/IBAN:)|\s+(?:Kto\/IBAN|IBAN|BLZ\/BIC|Buchungstext|Verwendungszweck|Payment reference|Purpose of use|Recipient IBAN|Payment recipient IBAN|Payer IBAN)\s*:|$)/i;
/** Paysera's lines name the seller after a label: "… projekts https://www.bilesuserviss.lv pardevejs: Bilesu Serviss". */
const SELLER = /\bp[āa]rdev[ēe]js:\s*([^,]+)/iu;
/** Dutch SEPA lines: "Naam: Gemeente Amsterdam Omschrijving: …". */
const NAAM = /\bNaam:\s*(.+?)(?:\s+(?:Omschrijving|Kenmerk|IBAN|BIC|Machtiging|Incassant(?:-?ID)?|Betalingskenm)\s*:|$)/i;
/** ING's description after its label, where the name field holds a payment provider's name ("Naam: Stichting Mollie Payments Omschrijving: M4012233 0020 Wolwinkel De Bolle Kat bestelling 10583 IBAN: …"). */
const OMSCHRIJVING = /\bOmschrijving:\s*(.+?)(?:\s+(?:Kenmerk|IBAN|BIC|Machtiging|Incassant(?:-?ID)?)\s*:|$)/i;
/** A tagged SEPA line's remittance text (/REMI/…), read where its name is a payment provider's. */
const TAGGED_PURPOSE = /\/REMI\/([^/]+)/i;
/** ABN AMRO's and ING's SEPA lines in tagged form: "/TRTP/SEPA OVERBOEKING/IBAN/…/NAME/Werkgever BV/REMI/…", ING's MT940 counterparty field "/CNTP/IBAN/BIC/Klant BV/Amsterdam/". */
const TAGGED_NAME = /\/(?:NAME\/|CNTP\/[^/]*\/[^/]*\/)([^/]+)/i;
/** BNP Paribas's transfers name the payee after /BEN, among /MOTIF and /REFDO fields ("VIR SEPA EMIS /MOTIF ANNIV LEA /BEN MME LAURENT SOPHIE /REFDO NOTPROVIDED"), and the payer after /DE or /FRM ("VIR SEPA INST RECU /DE ACME CORP /REF …"). */
const BEN_FIELD = /\/(?:BEN|FRM|DE)\s+([^/]+?)\s*(?=\/|$)/i;
/** KBC and ING name the shop first and the card after, as do Austrian card lines that end in the card's field, the day and the time ("GASTHAUS ZUR LINDE LINZ 4020 POS 54,20 AT D5 09.03. 19:45") and Fineco's card lines ("TRATTORIA DA NELLO     LUCCA         ITCarta N. *****208Data operazione …"): "DELHAIZE ETTERBEEK BE1040 ETTERBEEK Betaling met Google Pay via Debit Mastercard …", "Bakkerij Bart Amersfoort NLD Pasvolgnr: 001 …"; so do Italian banks: "… TREVISO ITA Operazione carta ****1234 del …", KBC and CBC with their own card's name ("… COFFEE LAB GENT GENT MET KBC-DEBETKAART 5169 41XX XXXX 3312"), and Belgian banks that name the cardholder after a label ("… NEUHAUS ZAVENTEM 19/07/2024 om 06:58 Kaarthouder: SOFIE DE SMET", "… Titulaire: THOMAS LAMBERT"); an Italian operation's number, a girocard's sequence and terminal, a Polish card's number after POL or its amount, a French card's number label. */
const CARD_AFTER_NAME = /,\s*PAS\s?\d{3}\b.*$|,?\s+(?:(?:Betaling (?:met|via)\s|MET (?:KBC|CBC)-DEBETKAART\b|WITH (?:KBC|CBC) DEBIT CARD\b|(?:WITH|MET|AVEC) (?:APPLE|GOOGLE) PAY\b|CARDHOLDER\s*:|AVEC CARTE DE D[ÉE]BIT (?:KBC|CBC)\b|(?:Kaarthouder|Titulaire)\s*:|Pasvolgnr\b|OPERAZIONE \d+\b|Karte \d{1,2} Terminal \d+\b|Folgenr\.? ?\d+\b|(?<=\bPOL )NR KARTY\b|kwota [\d.,]+ [A-Z]{3}\b|Num[ée]ro de (?:carte|s[ée]quence)\b|Operazione carta\b|Debitkarte\b|Visa-Umsatz\b|(?:kaart|carte) \d{4} [\dX*]{2}|Pas \d{3} Terminal\b|BankAxept\b|(?:DEBIT CARD|POS(?: DEBIT)?) \d{4} \d{2}\/\d{2}\b|POS DEBIT \d{2}\/\d{2}\b|(?:[A-Z]{2})?Carta N[.°]|(?:CON TARJETA|TARJ\.?) \*\d{4}\b|(?<!^(?:COMPRA|PAGO)(?: CON)?\s+)Tarjeta [\dX*]{8,}).*|(?:POS \d+,\d{2} AT )?[DK]\d{1,3} \d{2}\.\d{2}\. \d{1,2}:\d{2})$/i;
/**
 * Italian banks' labelled parties: the shop a PagoBancomat card paid ("… ora 18:21 presso: TABACCHERIA RICCI N.14 VIA ROMA 22
 * CARPI ITA Carta N° …"), a postal bill's creditor ("… CCPOST : 000000000000 CREDITORE: COMUNE DI BERGAMO"), a transfer's
 * payer or payee (ORDINANTE:, BENEFICIARIO:). The shop's street number and address after its name are not the name.
 */
/** Intesa Sanpaolo's and other Italian card lines name the card, then the shop after PRESSO (at): "PAGAMENTO POS 1,40 EUR DEL 03.04.2024 ALLE ORE 08:12 CON CARTA XXXX XXXX XXXX 5521 PRESSO BAR DA GINO". */
/**
 * Intesa Sanpaolo's exports: the shop after PRESSO and the person after DA or A in Bancomat Pay's lines ("Pagamento BANCOMAT PAY presso
 * GELATERIA FIORE SRL data: 16.04 ore: 22:54 …", "Trasferimento denaro BANCOMAT Pay Da MARIO ROSSI data: …"), the shop after SU POS where
 * the export names it first too ("Farmacia Centrale 3 Pagamento su POS FARMACIA CENTRALE 3 18/061832 Carta n.…"), the sender after MITT.
 * ("… Bonifico a Vostro favore disposto da MITT. ACME S.P.A. BENEF. …") and the payee after A FAVORE DI ("Bonifico istantaneo da voi disposto a favore di MARIO ROSSI 0126…");
 * ING Italia's creditor after its id ("Addebito SDD CORE Scad. … Creditor id. IT12ZZZ… ACME SPA Id Mandato …") and payee after the transfer's CRO ("BONIFICO DA … CRO 175… A FAVORE DI Lacos Group srl C. BENEF. …").
 */
const INTESA = /BANCOMAT PAY|PAGAMENTO (?:SU|TRAMITE) POS|DISPOSTO (?:DA MITT\.|A FAVORE DI)|CREDITOR ID\.|CRO \d+ A FAVORE DI/i;
const INTESA_PARTY = /(?:\bBANCOMAT PAY (?:presso|da|a)|\S\s+Pagamento (?:su|tramite) POS|\bdisposto da MITT\.|\bdisposto a favore di|\bCreditor id\.\s+\S+|\bCRO \d+ A FAVORE DI)\s+(.+?)(?:\s+(?:data:|C\. BENEF\.|BENEF\.|BIC\b|Carta n\.|MANDATO\b|Id Mandato\b|\d{2}\/\d{3,}|\d{10,}).*)?$/i;
const SHOP_AFTER_PRESSO = /\bCARTA\b.*?\bPRESSO\s+(.+?)(?:\s+(?:N\.\s?\d+|VIA|VIALE|PIAZZA|P\.ZZA|CORSO|LARGO)\b.*)?$/i;
/** Intesa Sanpaolo's card lines label the shop as the merchant (esercente): "… con Carta xxxx1234; Eser. BAR PASTICCERIA AURORA - MONCALIERI". */
const ESERCENTE = /\bEser(?:\.|cente:)\s*(.+)$/i;
const ITALIAN_PARTY = /\b(?:presso|CREDITORE|BENEFICIARIO|ORDINANTE):\s*(.+?)(?:\s+(?:N\.\s?\d+|VIA|VIALE|PIAZZA|P\.ZZA|CORSO|LARGO)\b.*)?$/i;
/** PKO BP's card lines: "Lokalizacja: Adres: PIEKARNIA GRZYBEK Miasto: LODZ Kraj: POLSKA". */
const ADRES = /\bAdres:\s*(.+?)(?:\s+(?:Miasto|Kraj|Data wykonania operacji)\s*:|$)/i;
/** BNP Paribas's amount paid abroad and its commission after a card's shop: "YUTORI CARTE 0000XXXXXXXX0000 USA 15,00USD+COMMISSION : 1,27". */
const FOREIGN_COMMISSION = /\s+(?:[A-Z]{3}\s+)?[\d.,]+\s?[A-Z]{3}\s?\+\s?COMMISSION\s*:\s*[\d.,]+/i;
/** A bank's note of the exchange or its commission after a card paid abroad, and all after it: "Cambio aplicado 1 EUR = 1,0842 USD", "TX CAMBIO 0,8431 COM MOEDA ESTRANG 0,25", "COMM. 1,00 EUR", "VALOR 312,00 CZK", "IMP. VALUTA 78,50 CHF", Latvian "kurss", Lithuanian "kursas", Dutch "wisselkoers". */
const EXCHANGE_NOTE = /\s+(?:CAMBIO APLICADO|WISSELKOERS|TX\.? CAMBIO|TIPO (?:DE )?CAMBIO|VALOR(?= \d)|IMP\. VALUTA|KURSS|KURSAS|COM(?:ISS[AÃ]O)? MOEDA ESTRANG\w*|COMM\. ?\d[\d.,]*)(?=\s|$).*$/i;
/** BNP Paribas's country in brackets after a card's shop, a town's A before it: "PAIEMENT CB LE SURFING (FRANCE) DU 29/06/25", "S-BAHN BERLIN A (ALLEMAGNE)". */
const COUNTRY_IN_BRACKETS = /(?:\s+A)?\s+\((?:FRANCE|ALLEMAGNE|PAYS-BAS|BELGIQUE|ESPAGNE|ITALIE|PORTUGAL|SUISSE|LUXEMBOURG|ROYAUME-UNI|IRLANDE|AUTRICHE|ETATS-UNIS|GRECE|POLOGNE|SUEDE|DANEMARK|NORVEGE|FINLANDE|CROATIE|MAROC|CANADA|JAPON)\)/i;
/** Erste's George names a card's shop as the purpose: "Purpose of use: RIESNERALM-HOCHSITZ IRDNING DONNE 8953 Payment reference: POS 22,00 AT D3 03.02. 14:03". */
const GEORGE_CARD_SHOP = /^Purpose of use:\s*(.+?)\s+Payment reference:\s*POS\b/i;

/**
 * A US card line's street address after the shop, as some issuers' exports give it in the name's field, cut at its width: a house
 * number, then a direction or a street's name and its kind ("SWORK COFFEE 2160 COLORADO BLVD", "T BOYLES TAVERN 37 N CATALINA AV",
 * "CHIPOTLE 0929 246 SOUTH LAKE AVE", "SQ *THE WALRUS AND 111 EAST HOLL"). A word of the name stands before it.
 */
/** The same where OFX cut the field at its width, the street's kind cut off: a house number after two words of the name, a word or two after it ("GLOBAL PARKING SYSTEMS 3470 WILS", "UCLA PARKING SVCS 555 WESTWOOD P"). */
const STREET_IN_CUT_FIELD = /(?<=\S\s+\S+)\s+\d{1,5}\s+[A-Z0-9][A-Za-z0-9.]*(?:\s+[A-Za-z.]+)?\s*$/;
/** Words of a transfer or an ACH entry, whose numbers are codes and accounts, not a house's (ACH CREDIT IRS TREAS 310 TAX REF, TRANSFER TO SHARE 01 SAVINGS ONL). */
const NOT_A_PURCHASE = /\b(?:ACH|TRANSFER|XFER|TREAS|DEPOSIT|PAYROLL|SAVINGS|SHARE|PAYMENT|PMT|CREDIT|DIVIDEND|INTEREST|CHECK)\b/i;
const STREET_ADDRESS_AFTER_NAME = /(?<=\S)\s+\d{1,5}\s+(?:(?:N|S|E|W|NE|NW|SE|SW|NORTH|SOUTH|EAST|WEST)\.?\s+\S.*|[A-Z][A-Z.]*(?:\s+[A-Z][A-Z.]*)?\s+(?:AVE?|BLVD?|ST|RD|DR|LN|WAY|PKWY|HWY)\.?(?:\s+\S+)?)$/i;

/**
 * German card lines that give the payee's fields after slashes and the time of the payment (Sparkasse, whose counterparty field says
 * only "Lastschrift aus Kartenzahlung": "Setzer 24/7 Vell./Wolpertshausen/DE 31.12.2025 um 19:08:01 Uhr …"; Volksbanks: "DIAK Klinikum
 * Landkrei/Am Mutterhaus 1/Schwaebisch H/D02.01.2026 / 18:58 Ortszeit"): the first field, a slash between digits (24/7) no end of it.
 */
const GERMAN_CARD_PAYEE = /^(.+?)(?:(?<=\D)\/|\/(?=\D)).*\/DE?(?=[\s/\d]|$).*\b(?:Uhr|Ortszeit)\b/;

/** American Express's name field is twenty characters, the city right after it, glued when the name fills it: "TAKAHACHI RESTAURANTNEW YORK", "UNION MARKET -  HOUSNEW YORK". */
const AMEX_NAME_FIELD = 20;

/** `raw` without the city American Express writes after its twenty-character name field (AMEX_NAME_FIELD), a city of the written list or a US town. */
function withoutCityAfterField(raw: string): string {
  if (raw.length <= AMEX_NAME_FIELD + 2 || raw.length > AMEX_NAME_FIELD + 24 || raw.charCodeAt(AMEX_NAME_FIELD - 1) === 32) return raw;
  // A city of five letters or more, after a name whose last word keeps three (PIXEL PALACE RETRO GAMES is no RETRO G in Ames).
  const city = raw.slice(AMEX_NAME_FIELD).trim();
  const name = raw.slice(0, AMEX_NAME_FIELD);
  return city.length >= 5 && name.length - name.lastIndexOf(' ') > 3 && /^[A-Z][A-Z .]+$/.test(city) && isPlace(normalize(city), townsOf('USD')) ? name : raw;
}

/** Santander UK's card lines end the shop at the day, a rate between them when it paid abroad: "CARD PAYMENT TO PARCELBROKER ON 05-01-2023 …", "CARD PAYMENT TO GITHUB ,4.00 USD, RATE 0.8100/[ ON 28-01-2023". */
const SANTANDER_CARD = /^CARD PAYMENT TO\s+(.+?)\s*(?:,\s*[\d.,]+\s*[A-Z]{3},\s*RATE\b.*?)?\s+ON \d{2}-\d{2}-\d{4}\b/i;
/** Wells Fargo's bill payments end the payee at the channel: "Bill Pay Scana Energy on-Line xxxxxxxx68971 on 02-01". */
const WELLS_BILL_PAY = /^Bill Pay\s+(.+?)\s+on-Line\b/i;

/** The account holder's name a US ACH line carries (Bank of America's INDN:, Chase's IND NAME:): never the other party, nor what the payment was for (INDN:RED CEDAR ELECTRIC on a phone bill). */
const ACCOUNT_HOLDER = /\b(?:INDN|IND NAME):.*?(?=\s+(?:CO ID|TRN|ORIG ID|SEC|DESC DATE|CO ENTRY DESCR):|$)/gi;
/** Barclays's note on a purchase abroad, the fee it includes and the name again: "DP TASTATUR AUSST. GERMANY AMOUNT IN EUR 88.00 ON 27 MAR VISA 1.09954 FINAL GBP AMOUNT INCLUDES NON-STERLING TRANS FEE £2.20 DP TASTATUR AUSST. UG". A purchase, not a fee. */
const FEE_INCLUDED = /\s+AMOUNT IN [A-Z]{3} [\d.,]+ ON \d{1,2} [A-Z]{3} .*?\bFINAL GBP AMOUNT INCLUDES NON-STERLING.*$/i;

/** DKB's card lines paid abroad, the amount in the shop's currency, the rate and the fee the amount includes: "… Debitk.0 2030-12 Original 39,86 USD 1 Euro=1,1563 USD Einsatzentgelt 0,15 EUR Zahl.System VISA Debit". A purchase, not a fee. */
const ORIGINAL_AMOUNT = /\s+Original [\d.,]+ [A-Z]{3} 1 Euro\s?=.*$/;

/** Swedbank Latvia's rate and conversion fee on a card paid abroad: "PIRKUMS 1 17.11.2019 2.50 GBP VALŪTAS KURSS 0.856164, KONVERTĀCIJAS MAKSA 0.06 EUR (1) Rapha". */
const LATVIAN_RATE = /\bVAL[ŪU]TAS KURSS [\d.,]+,?\s*KONVERT[ĀA]CIJAS MAKSA [\d.,]+ [A-Z]{3}/i;
/** Openbank's and Santander's receipt and mandate numbers after the creditor: "RECIBO VODAFONE ESPANA S.A.U. Nº RECIBO 0073 0100 755 BCBHHCR REF. MANDATO 0910024644". */
const RECEIPT_NUMBER = /\s+N[º°] RECIBO\b.*$/;

/** `raw` without what it says beside the payment: a US ACH line's account holder (ACCOUNT_HOLDER), Barclays's and DKB's notes of a fee included (FEE_INCLUDED, ORIGINAL_AMOUNT), a Spanish receipt's numbers (RECEIPT_NUMBER), a Latvian card's rate abroad (LATVIAN_RATE). */
export function withoutAsides(raw: string): string {
  const text = raw.includes('IND') ? raw.replace(ACCOUNT_HOLDER, ' ') : raw;
  const abroad = text.includes('Original') ? text.replace(ORIGINAL_AMOUNT, '') : text;
  const rate = abroad.includes('KURSS') ? abroad.replace(LATVIAN_RATE, ' ') : abroad;
  const receipt = rate.includes('RECIBO') ? rate.replace(RECEIPT_NUMBER, '') : rate;
  const fee = receipt.includes('FINAL GBP') ? receipt.replace(FEE_INCLUDED, '') : receipt;
  return fee.includes('CKCD') ? fee.replace(CHECK_CARD_TAIL, '') : fee;
}

/** Bank of America's check card tail after the shop and its reference: the card's code word, the merchant's category code and the masked card ("… 24492155073000128374651 CKCD 5812 XXXXXXXXXXXX7731 XXXX XXXX 7731"). */
const CHECK_CARD_TAIL = /\s+CKCD \d{4}\b.*$/;

/** PayPal's instant transfers name the shop paid after their own words, in the entry's ID or alone: "PAYPAL DES:INST XFER ID:ETSY.COM INDN:…". */
const PAYPAL_SHOP = /^PAYPAL\s+(?:DES:\s*)?INST XFER\s+(?:ID:\s*)?(?!PAYPAL\b|WEB\b|PYPL\b)([A-Z][A-Z0-9.&-]{2,})(?=\s|$)/i;
/** Bank of America's ACH lines: "HubSpot Inc DES:Coupa Pay ID:… INDN:…", or cut by OFX after the entry's description ("COLUMBUS SOUTHERN POWER DES:AEP"). */
const ACH_DES = /^(.+?)\s+DES:\s*(?:.+?\s+(?:ID:|INDN:|CO ID:)|\S+$)/i;
/**
 * Some US credit unions' exports join the descriptor and the bank's own type of entry with a spaced
 * colon, the type in title case: "D5438 SQ *LUCY'S COFFEE SAN LUIS OBIS CA 25 : Mobile Purchase Sign
 * Based 12/10 03:03p #7458", "JANE ROE : Zelle Debit PAY ID:… ORG ID:BAC". The descriptor is before it.
 */
const ENTRY_TYPE_AFTER = /\s:\s+\p{Lu}\p{Ll}.*$/u;
/**
 * BAWAG's and easybank's fields, split by bars: the entry's type and reference, the terminal or the
 * other bank's BIC and IBAN, then the counterparty with its town or purpose ("Bezahlung Karte
 * MC/000009168|POS 2800 K002 27.12. 09:33|SPAR DANKT 5362\\GRAZ\8020", "Abbuchung Onlinebanking
 * BG/000003091|BAWAATWWXXX AT30… Mag. Julia Steiner Miete"). The name is in the last field.
 */
const FIELD_BAR = '|';
const BIC_AND_IBAN = /^(?:[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?\s+)?[A-Z]{2}\d{2}[A-Z0-9]{10,30}\s+/;
/** Barclays (through Teller) prints the name, a reference, the payment's code and the name again, the second in full: "LB HACKNEY 61830274 DDR London Borough of Hackney". */
const NAME_AFTER_CODE = /\s(?:DDR|BCC|CPM)\s+(\S.*)$/;
/** Santander's incoming payments put the payer's reference first: "FASTER PAYMENTS RECEIPT REF LUNCH FROM TOM HASTINGS". */
const RECEIPT_FROM = /\bFASTER PAYMENTS? RECEIPT\b.*?\bFROM\s+(.+)$/i;
/**
 * Tikkie's lines name the payer after its own: "Naam: Tikkie Omschrijving: Tikkie ID 0001…, Pizza avond, Van Lisa Bakker, NL12RABO…",
 * "Tikkie ID 0011…, Etentje, Door Sanne de Wit via Tikkie", and ABN AMRO's with the person last, their IBAN after them or not: "Tikkie ID 0008…, Pizza vrijdag, Daan de Wit".
 */
const TIKKIE_PAYER = /\bTikkie ID \S+,.*?,\s*(?:Van\s+([^,]+),|Door\s+(.+?)\s+via Tikkie\b|(\p{L}[\p{L}' .-]*)(?:,\s*[A-Z]{2}\d{2}[A-Z0-9]{8,})?(?:\s+(?:IBAN|Kenmerk):.*)?$)/iu;
/** Bank of America's Zelle lines, "Zelle Transfer Conf# t5k2w1; Ortega, Lucia", and Swedish Swish lines, "Swish inbetalning LINDQVIST, OSKAR" (surname, given name). */
const SURNAME_COMMA_GIVEN = /(?:\bZelle\b[^;]*;|\bSwish(?: (?:betalning|inbetalning|fr[åa]n|till))?)\s*([\p{L}' -]+),\s*([\p{L}' -]+)$/iu;
/** A letter alone at the end, after two words or more, with the ampersand before it (HEIRLOOM BAKERY & C). */
const CUT_LETTER = /(?<=\S \S+)(?: &)? \p{L}$/u;
/** A payment's day OFX cut after ON at the line's end (ZELLE FROM KIMBERLY OKAFOR ON 03): no part of the name. */
const CUT_DAY = / ON \d{1,2}(?:\/\d{0,2})?$/;
/** OFX cuts a name at 32 characters: "ROSA MEXICANO UNION SQ NEW YOR" ends in part of a city. */
const OFX_NAME_LENGTH = 32;

/** A card issuer's fixed-width name field padded with spaces, then the town's field, cut by OFX: "MAGNOLIA HOUSE INN       NATCHEZ". */
const PADDED_TOWN = /^(\S+(?: \S+)+) {3,}\p{L}+(?: \p{L}+)?$/u;

/** `raw` without the town a padded name field leaves at its end (a name of two words or more, three spaces or more, one or two words of letters). */
function withoutPaddedTown(raw: string): string {
  return PADDED_TOWN.exec(raw.trimEnd())?.[1] ?? raw;
}

/** True when a description is as long as OFX's name field, or two characters shorter (a cut before a space): its end may be cut. */
export function isCutByOfx(description: string): boolean {
  return description.length >= OFX_NAME_LENGTH - 2 && description.length <= OFX_NAME_LENGTH;
}
/** ACH's company name field (NACHA): 16 characters, which US banks print before the entry's description. */
const ACH_NAME_LENGTH = 16;
/** An ACH entry's fields as US banks print them (DES:, ORIG CO NAME:, PPD ID:, CO ID:). */
const ACH_ENTRY = /\b(?:DES:|ORIG CO NAME:|(?:PPD|CCD|WEB|TEL|CTX) ID:|CO ID:)/i;

/** The company name an ACH line (`description`) starts the name read from it (`kept`) with, when it fills the field's 16 characters: its end may be cut (AMERICAN RED CRO). */
export function achNameCut(description: string, kept: string): string | undefined {
  return kept.length >= ACH_NAME_LENGTH && (kept.length === ACH_NAME_LENGTH || kept[ACH_NAME_LENGTH] === ' ') && kept[ACH_NAME_LENGTH - 1] !== ' ' && ACH_ENTRY.test(description) ? kept.slice(0, ACH_NAME_LENGTH) : undefined;
}
/**
 * Words that tie a city into a name ("CITY OF AUSTIN", "COMUNE DI MILANO", "Gemeente Amsterdam",
 * "VAN DER LINDEN"), and titles a surname follows ("DR MARTIN"): the place's word then stays.
 */
const CITY_LINKS = new Set(['OF', 'DI', 'DE', 'DEL', 'DA', 'DU', 'VON', 'VAN', 'DER', 'DEN', 'TER', 'TEN', 'LA', 'GEMEENTE', 'GEMEINDE', 'STADT', 'STADTWERKE', 'COMUNE', 'KOMMUNE', 'KUNTA', 'MUNICIPIO', 'VILLE', 'MIESZKANIOWA',
  'DR', 'DOCTOR', 'MR', 'MRS', 'MS', 'MME', 'MLLE', 'HERR', 'FRAU', 'SIG', 'SIGRA', 'PAN', 'PANI']);
const MONTH = '(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)';
const CURRENCY = '(?:EUR|USD|GBP|SEK|NOK|DKK|CHF|PLN|CZK|HUF|RON|ISK)';
/** A date, card number or amount between method words and the name: 12/03, XXXX1234, 4***, 240312, 2024.03.12, 18,30, 1 240,00, Ireland's POS08DEC, Austria's "AT K1" and BAWAG's card "K002", day glued to UM and time before O (15.06.UM 12:05 O), Belgium's 19U47, a US credit union's terminal (D5438). */
const LEADING_DATE_OR_CARD = new RegExp(
  String.raw`^(?:\d{1,2}[/.]\d{1,2}(?:[/.]\d{2,4})?\.?|\d{2}-\d{2}(?:-\d{2}(?:\d{2})?)?|\d{1,2}[UH]\d{2}|\d{1,2}\.\d{1,2}\.UM|\d{1,2}:\d{2} O|\d{4}[.-]\d{2}[.-]\d{2}|X{2,}\d{2,4}|\d{4}\*+|\*{1,}\d{4}|\d?\*{3,}|\d{4,8}|\d{1,3}(?: \d{3})+[.,]\d{2}-?(?: ${CURRENCY})?|\d+[.,]\d{2}-?(?: ${CURRENCY})?|${CURRENCY}|(?:POS|ATM)\d{1,2}${MONTH}|POS\d{3,}|ON|[A-Z]{2} [DK]\d|K\d{1,3}|MC/\d+|D\d{4}|\.{2,}\d{4}|\d{1,6}\*+\d{2,6}|\d{2}XX)(?=\s|$)\s*`,
  'i',
);
/**
 * BAWAG's and easybank's card lines without their bars glue the card's entry to its terminal and the
 * time to the shop ("MC/000004471POS 4471 K002 04.03. 17:41BILLA DANKT"): a space goes after each; a US
 * bank's time of day keeps its a or p (09:14a).
 */
const GLUED_CARD_FIELDS = /(\bMC\/\d+(?=POS\b)|\b\d{1,2}:\d{2}(?=\p{L})(?![AaPp][Mm]?(?:\s|$)))/gu;
/** A name in capitals with a word in title case glued to it before a US state: the card network's name field filled, then the town (SQ *FIRESIDE PIZZAMissoula MT). */
const GLUED_TITLE_CASE = /(\p{Lu}{3,})(?=\p{Lu}\p{Ll}{3,}(?:\s|$))/gu;
/** Bank of Ireland's cash machine lines glue the day to ATM: "ATM12MAR DAME STREET". */
const GLUED_ATM_DAY = new RegExp(String.raw`^(ATM)(?=\d{1,2}${MONTH}\b)`, 'i');
/** Plaid's names of some banks' ACH entries glue the entry's kind to the payer: "ACH Electronic CreditGUSTO PAY 418832". */
const GLUED_ACH_ENTRY = /^(ACH Electronic (?:Credit|Debit))(?=\S)/i;
/**
 * `text` with what a bank glued to a name apart from it, as the cleaning and the rules read it: an ACH entry's kind before the payer
 * (ACH Electronic CreditGUSTO PAY → ACH Electronic Credit GUSTO PAY), a BAWAG card line's time before the shop (08:02CAFE KONDITOREI → 08:02 CAFE KONDITOREI),
 * a cash machine's day (ATM12MAR → ATM 12MAR).
 */
export function withGluedFieldsApart(text: string): string {
  const fields = text.includes(':') ? text.replace(GLUED_CARD_FIELDS, '$1 ') : text;
  // Read only where the text starts with an A: most lines do not.
  return (fields.charCodeAt(0) | 32) === 97 ? fields.replace(GLUED_ACH_ENTRY, '$1 ').replace(GLUED_ATM_DAY, '$1 ') : fields;
}
/** Quotation marks around a company's name (SIA "KAFIJAS GRAUDS", UAB „Kavos namai“): no part of it. */
const QUOTE = /["“”„«»]/;
const QUOTES = /["“”„«»]/g;
/**
 * Belgian transfers name the other party's account as printed, in groups of four, and its bank: "… VAN
 * REKENING BE68 5390 0754 7034 BIC KREDBEBB LOGISTIEK DE SMET BV". Past the bank's code, every group
 * has a digit: a word of four letters after the account (JOKE PEETERS) is the name's.
 */
const SPACED_ACCOUNT = /\b[A-Z]{2}\d{2} [A-Z0-9]{4}(?: (?=[A-Z]{0,3}\d)[A-Z0-9]{4}){1,6}(?: \d{1,3})?(?: BIC:? [A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)?(?=\s|$)/g;
const CARD_REFERENCE = /(?:\bNR X{4} \d{4}\b|\b4B\*\d{4}\b|\bCB\*+\d{4}\b|\bCD \d{4}\b|\bX\d{3,4}\b|\b(?:NUMMER |NUMERO )?\d{4} [\dX]{2}XX XXXX \d{4}(?: \d\b)?|\b(?:CARD|KARTE|KARTEN|CARTE|CARTA|KARTA|KORTTI|KORT|KAART|KAARTNUMMER|KORTEL[EĖ]|VISA)\s*(?:NO\.?|NR\.?|N\.|N°|#|:)?\s*(?:(?:[\dX*]{4} ){1,3}[\dX*]{4}(?: \d\b)?|(?:\.{2,})?[\dX*]*\d{4})\b(?: (?:INTER)?NAZIONALE\b)?|\bCARTA N\.?(?=\s|$)|\b[X*]{2,}\d{2,6}\b|\*\d{4}\b|\b\d{4}\*{2,}|\bX{4,}\b)/gi;
/** A date, or a month with its year (09/2025, 09.2025, 2025-09: the month a salary or a bill is for), with a label before it. */
const DATE = /\b(?:(?:DU|LE|ON|AM|VOM|DATE|FECHA|DEL|DATO|DATA|DNIA) )?(?:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?|\d{4}[-.]\d{2}[-.]\d{2}|\d{1,2}[/.]\d{4}|\d{4}[-/]\d{2}|\d{1,2}-\d{1,2}-\d{2,4}|\d{1,2}\/\d{1,2}(?:\/\d{2,4})?|\d{1,2}\.\d{1,2}\.(?:\d{2,4})?|\d{1,2}\.\d{1,2}\.\d{2,4}|\d{1,2}-(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)-\d{2,4}|\d{1,2} ?(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(?: ?\d{2,4})?)(?=\s|$|[^\w])/gi;
/** UK statements end a line with the payment's code (direct debit, standing order, giro credit, Barclays's card payment CPM, …). */
const TRAILING_METHOD = /\s(?:DD|SO|STO|BGC|FPI|FPO|TFR|DEB|DR|CR|CPM|CLP)$/i;
/**
 * A UK payment code at the start of a line that ends with one is part of the name: `SO ENERGY DD` is
 * a direct debit to So Energy, not a standing order.
 */
const LEADING_UK_CODE = /^(?:SO|DD|FP)\s/i;
/** A time of day, with its label (Norway's kl., Italy's ore, Poland's godz., Belgian card lines' "OM 11.20 UUR", "A 19.22 HEURES", KBC's English "AT 21.34 TIME", "om 06:58" and "à 14:10"). */
const TIME = /\b(?:(?:OM|A|AT) )?\d{1,2}[:.]\d{2} (?:UUR|HEURES?|TIME)\b|(?:\b(?:KL|ORE|GODZ|OM)\.? |(?<=^|\s)À )?\b(?:\d{1,2}[:.]\d{2}(?::\d{2})?(?:\s?(?:UHR|H|O)|[AP]M?)?(?=\s|$)|\d{1,2}:\d{2}\b)/gi;
/** A payment provider's id of a payment before the shop's name (Mollie's tr_Wx3kRq9Hp2, Stripe's py_… and pi_…). */
const PAYMENT_ID = /\b(?:tr|py|pi|ch|cs|re)_[A-Za-z0-9]{8,}\b/g;
/** A time of day in hours and minutes (Portugal's and France's 21H07), after the date a card line gives. */
const HOURS_MINUTES = /\b\d{1,2}H\d{2}\b/gi;
const FOREIGN_AMOUNT = new RegExp(String.raw`\b(?:${CURRENCY}\s?\d+(?:[.,]\d+)*|\d+(?:[.,]\d+)*\s?${CURRENCY}|(?:KURS|KURSSI|RATE|FX RATE|AL CAMBIO):?\s?\d+(?:[.,]\d+)?(?:\/${CURRENCY})?|1 EURO? = \d+(?:[.,]\d+)?)\b`, 'gi');
/** The currency of an amount the line gives beside its own (a card paid abroad: EUR 18.50, 24.50 EUR). */
const FOREIGN_CURRENCY = new RegExp(String.raw`\b(${CURRENCY.slice(3, -1)})\s?\d|\d\s?(${CURRENCY.slice(3, -1)})\b`, 'i');

/** The other currency the line gives an amount in, if any (upper case). */
function foreignCurrency(text: string): string | undefined {
  const amount = FOREIGN_CURRENCY.exec(text);
  return amount ? (amount[1] ?? amount[2])!.toUpperCase() : undefined;
}

/** A day and month after its label (Norway's "Dato 12.03", Italy's "DEL 14/03"), which alone would read as a time. */
const LABELLED_DATE = /\b(?:DATO|DATA|DEL|DNIA|DATE|DEN|VALUTADATUM|UITGEVOERD OP|DATE VALEUR|VALEUR|EX[EÉ]CUT[EÉ] LE|VAL\.)\s*:?\s+\d{1,2}[./-]\d{1,2}(?:[./-]\d{2,4})?\.?(?=\s|$)/gi;
/** A French or Spanish postcode and the one-word town after it, at the end: "BOULANGERIE DES ARCADES 33700 MERIGNAC" (not a US store number before a city and state). */
const POSTCODE_TOWN = /\s\d{5}\s+\p{L}[\p{L}'-]*$/u;
const PHONE = /\b(?:\+?\d{1,3}[ -])?\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b|\b\d{3}-\d{7}\b/g;
/** A store's or terminal's number, and ABN AMRO's card sequence after the town and a comma (Albert Heijn 1234 Zwolle,PAS 012); a word's last letter is no T's (Finnish kevät 2025: any script's letter before it). */
const STORE_NUMBER = /(?:,PAS\s?\d+|#\s?\d+|\bK\.\d+\b|\bRIV\.? (?:N\.? ?)?\d+\b|(?<![\p{L}\d])(?:STORE|STORE NO|STR|NO|NR|NUM|TERM|TERMINAL|TID|FIL|FILIALE|KASSE|AUT|T)\s?[.:#-]?\s?\d+\b)/giu;
/** A bank's bracketed code: a country "(ITA)", a reference "(123456)", Italy's "A (ITA)" before the shop. */
const BRACKETED = /(?:\bA )?\(\s*(?:[A-Z]{3}|\d+)\s*\)/gi;
/** A reference after a star (AMZN MKTP US*2K4L81QT2), or its first characters where OFX cut the line (HUNTINGTON INGALLS*P). */
const REFERENCE_SUFFIX = /\*[A-Z0-9]*\d[A-Z0-9]*|\*[A-Z0-9]{1,3}$/gi;
const STAR = /\s*\*\s*/g;
/** A token with six digits or more in a row, whatever is glued to it (BIPT224070300012345_C): a reference, never a name. */
const LONG_REFERENCE = /(?<=^|\s)\S*\d{6,}\S*(?=\s|$)/g;
/** An amount written with a decimal comma (312,45, 1.234,56): what a loan's interest or principal was, never a name's. */
const COMMA_AMOUNT = /(?<=^|\s)\d{1,3}(?:\.\d{3})*,\d{2}(?=\s|$)/g;
/** A Norwegian account number (1234.56.78901). */
const DOTTED_ACCOUNT = /\b\d{4}\.\d{2}\.\d{5}\b/g;
/** The word a restaurant's number belongs to (PHO 888): its number is the name's, no store's. */
const NUMBERED_NAME_WORD = 'PHO';
const NUMBERED_NAME = new RegExp(`^${NUMBERED_NAME_WORD}$`, 'i');
/** A number of three digits or more on its own, or a code mixing letters and at least two digits (2K4L81QT2); not a pho restaurant's number. */
const NUMBER_OR_CODE = new RegExp(String.raw`\b(?:(?<!\b${NUMBERED_NAME_WORD} )\d{3,}|(?=[A-Z0-9]*\d[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6,})\b`, 'gi');
/** Punctuation left standing alone once what was around it went ("Utrecht,, / UTRECHT"); an ampersand stays. */
const STRAY_PUNCTUATION = /(?<=^|\s)[^\p{L}\p{N}\s&]+(?=\s|$)/gu;
const EDGES = /^[\s*#:;,./\\|_+-]+|[\s*#:;,/\\|_+-]+$/g;
const SPACES = /\s+/g;
/** Whitespace other than a space: with two spaces in a row, what SPACES would change. Most lines have neither. */
const OTHER_WHITESPACE = /[^\S ]/;
const SPACE_BEFORE_PUNCTUATION = /\s+([,.;:])/g;

/** What US banks print after a card descriptor's state: the day (10/05, 03-25-26), the year (25), Wells Fargo's authorization and card (S386073512345678 CARD 4471), a credit union's card (Card 3390), an authorization code, a ZIP code, a reference or the masked card. */
const US_TAIL = /^(?:\d{2}\/\d{2}|\d{2}-\d{2}-\d{2}|\d{2}|\d{4,}|[X*]{4,}\d{4}|[SP]\d{12,}|CARD|Card|C#\d{4})$/;
/** A state with the country and a code glued on (FRESNO CAUS07162): the state. */
const STATE_GLUED = /^([A-Z]{2})US\d*$/;
/** A store number in a US card descriptor (16344, #2614), or the merchant's phone in its place. */
const US_STORE_NUMBER = /^#?\d{3,}$/;
/** A web address in a card descriptor's town field, maybe cut (SHOP.COM, TUCKERKNITS.C, AMZN.COM/BILL). */
const WEB_FIELD = /^[\p{L}\d-]{2,}\.\p{L}{1,3}(?:\/\S*)?$/u;
/** A US telephone number as a card descriptor's town field holds it, written in one word (303-555-0110, 866-5797172). */
const PHONE_FIELD = /^\d{3}-\d{3}-?\d{4}$/;
/** A token with two letters in a row: part of a name, not a time's or a code's. */
const TWO_LETTERS = /\p{L}{2}/u;
/** A word of letters with a store's number glued on (PETRO1243). */
const GLUED_STORE_NUMBER = /^[A-Z]{3,}\d{3,}$/;
/** The word before a store's number (STARBUCKS STORE 06672). */
const STORE_WORD = /^(?:STORE|STR|NO|NR)$/i;
const TITLE_CASE = /^\p{Lu}\p{Ll}+$/u;
const LOWER_CASE = /\p{Ll}/u;

const COUNTRIES = new Set(places.countries);
/** The US states' two-letter codes (merchant-name.ts reads them too). */
export const US_STATES: ReadonlySet<string> = new Set(Object.keys(places.usStates));
const CITIES = new Set(places.cities);
/** The written list's cities and every country's towns. */
const PLACE_NAMES = [...places.cities, ...ALL_TOWNS];
/** Every city's and town's last word: a text whose last word is none of them ends with no place, found without joining its words. */
const CITY_LAST_WORDS = new HashFilter(PLACE_NAMES.map((city) => city.slice(city.lastIndexOf(' ') + 1)));
const LONGEST_CITY = Math.max(...PLACE_NAMES.map((city) => city.split(' ').length));
/** Every city's and town's whole name: a run of words that is none of them is passed over without joining it. */
const PLACES = new HashFilter(PLACE_NAMES);
/** Every proper start of a city's name of three characters or more (NEW YOR, PORTLA), for names OFX cut short. */
const CITY_PREFIXES = properStarts(places.cities, 3);
/** The starts of the US towns of the gazetteer's table (50,000 people and more) too, for a US name OFX cut short (BELLINGHA, ASHEVI); made on the first such line. */
let usTownPrefixes: ReadonlySet<string> | undefined;
/** A US town's start this long at least: a shorter stub (MOO, PIZZ) is as likely the name's own word cut. */
const US_CUT_SHORTEST = 5;

/**
 * What a pass needs in the text to match at all. Blanking puts a space where it takes text out, so it
 * never adds a character, a digit or a longer run of digits: what the text lacked before the passes it
 * lacks after each, and the passes it cannot match are skipped (most lines have a few digits and no more).
 */
interface Needs {
  digit: boolean;
  twoDigits: boolean;
  fiveInARow: boolean;
  sixInARow: boolean;
  tenDigits: boolean;
  /** A colon or a full stop, as between a time's hours and minutes. */
  timeMark: boolean;
  ',': boolean;
  '.': boolean;
  '*': boolean;
  '(': boolean;
  /** A digit, an X (a masked card) or CARTA (Italy's card word), as every card reference has. */
  card: boolean;
  /** A character other than a letter, a digit, whitespace or an ampersand (any beyond ASCII counted as one). */
  symbol: boolean;
  /** An underscore, as in a payment provider's id. */
  _: boolean;
  /** A digit, then an H, as in a time written 21H07. */
  hourMark: boolean;
}

/** The passes that blank what is not the counterparty, in order, each with what it needs. */
const BLANKED: ReadonlyArray<readonly [pattern: RegExp, needs: keyof Needs]> = [
  [SPACED_ACCOUNT, 'digit'],
  [LABELLED_REFERENCE, 'digit'],
  [BRACKETED, '('],
  [CARD_REFERENCE, 'card'],
  [FOREIGN_AMOUNT, 'digit'],
  [POSTCODE_TOWN, 'fiveInARow'],
  [LABELLED_DATE, 'digit'],
  [DATE, 'digit'],
  [TIME, 'timeMark'],
  [HOURS_MINUTES, 'hourMark'],
  [PHONE, 'tenDigits'],
  [STORE_NUMBER, 'digit'],
  [PAYMENT_ID, '_'],
  [PROCESSOR, '*'],
  [REFERENCE_SUFFIX, '*'],
  [STAR, '*'],
  [LONG_REFERENCE, 'sixInARow'],
  [COMMA_AMOUNT, ','],
  [DOTTED_ACCOUNT, '.'],
  [NUMBER_OR_CODE, 'twoDigits'],
  [STRAY_PUNCTUATION, 'symbol'],
];
const DIGIT = /\d/;
const CARTA = /CARTA/i;

/** What `text` has of what the passes need, read in one pass over its characters. */
function needsOf(text: string): Needs {
  let digits = 0;
  let run = 0;
  let longestRun = 0;
  let x = false;
  let symbol = false;
  let underscore = false;
  let hourMark = false;
  let [colon, comma, stop, star, bracket] = [false, false, false, false, false];
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code >= 48 && code <= 57) {
      digits++;
      if (++run > longestRun) longestRun = run;
      continue;
    }
    const letter = code | 32;
    if (letter === 104 && run > 0) hourMark = true;
    run = 0;
    if (letter >= 97 && letter <= 122) {
      if (letter === 120) x = true;
    } else if (code !== 32 && code !== 38 && !(code >= 9 && code <= 13)) {
      symbol = true;
      if (code === 58) colon = true;
      else if (code === 44) comma = true;
      else if (code === 46) stop = true;
      else if (code === 42) star = true;
      else if (code === 40) bracket = true;
      else if (code === 95) underscore = true;
    }
  }
  return {
    digit: digits > 0,
    twoDigits: digits >= 2,
    fiveInARow: longestRun >= 5,
    sixInARow: longestRun >= 6,
    tenDigits: digits >= 10,
    timeMark: colon || stop,
    ',': comma,
    '.': stop,
    '*': star,
    '(': bracket,
    card: digits > 0 || x || CARTA.test(text),
    symbol,
    _: underscore,
    hourMark,
  };
}

/** The HTML entities a bank's web export leaves in a description (MAPLE &AMP; RYE COFFEE, JOE&#39;S), and the line breaks an export writes as tags (ING's notes: "HFD Kiosk HOOFDDORP NLD<br>Pasvolgnr: 006 …"). */
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', quot: '"', apos: "'", '#39': "'" };
const ENTITY = /&(amp|quot|apos|#39);/gi;

const LINE_BREAK_TAG = /<br\s*\/?>/gi;

/** TD Bank's star between a card payee's town and its state (MONTCLAIR FARMERS MKT MONTCLAIR * NJ): no processor's. */
const STAR_BEFORE_STATE = /\s\*\s(?=[A-Z]{2}$)/;

/** `text` with the HTML entities ENTITIES lists written as their characters, a line break's tag as a space, and a star before a US state at its end (STAR_BEFORE_STATE) as a space. */
export function withEntitiesDecoded(text: string): string {
  const decoded = text.includes('&') ? text.replace(ENTITY, (_, name: string) => ENTITIES[name.toLowerCase()]!) : text;
  const unstarred = decoded.includes(' * ') ? decoded.replace(STAR_BEFORE_STATE, ' ') : decoded;
  return unstarred.includes('<') ? unstarred.replace(LINE_BREAK_TAG, ' ') : unstarred;
}

/** The description's counterparty text (counterpartyText); the whole description, whitespace collapsed, when nothing is left. */
export function cleanDescription(raw: string, keepPlace = false, currencyCode?: string): string {
  return counterpartyText(raw, keepPlace, currencyCode) || wholeDescription(raw);
}

/** The description, its whitespace collapsed: the clean description of a line that names no one. */
export function wholeDescription(raw: string): string {
  return collapseSpaces(raw.slice(0, MAX_DESCRIPTION_LENGTH)).trim();
}

/**
 * The description's counterparty text; empty when nothing is left (method words, dates and references only: VIR SEPA 000123).
 * `keepPlace` keeps a town at the end: in a payment between people it is a surname (MobilePay Mads Lund).
 * `currencyCode`: the account's, whose countries' towns end a name as the written list's cities do (towns.ts).
 */
export function counterpartyText(raw: string, keepPlace = false, currencyCode?: string): string {
  const collapsed = wholeDescription(!keepPlace && (currencyCode === undefined || currencyCode === 'USD') && isCutByOfx(raw) ? withoutPaddedTown(raw) : currencyCode === 'USD' ? withoutCityAfterField(withoutAsides(raw)) : withoutAsides(raw));
  const whole = withGluedFieldsApart(collapsed);
  const descriptor = whole.includes(' : ') ? whole.replace(ENTRY_TYPE_AFTER, '') || whole : whole;
  let text = PURCHASE_AT.exec(descriptor)?.[1] ?? (/^(?:CARD PAYMENT TO|Bill Pay|Purpose of use:) /i.test(descriptor) ? (SANTANDER_CARD.exec(descriptor) ?? WELLS_BILL_PAY.exec(descriptor) ?? GEORGE_CARD_SHOP.exec(descriptor))?.[1] : undefined) ?? (whole.includes('Uhr') || whole.includes('Ortszeit') ? GERMAN_CARD_PAYEE.exec(whole)?.[1] : undefined) ?? (descriptor.includes(' - ') || descriptor.includes('KAART') ? belgianCardShop(descriptor) : undefined) ?? tillShop(descriptor) ?? tikkiePayer(whole) ?? RECEIPT_FROM.exec(whole)?.[1] ?? NAME_AFTER_CODE.exec(whole)?.[1] ?? givenThenSurname(whole) ?? partyOrPurpose(labelled(NAAM, whole), labelled(OMSCHRIJVING, whole)) ?? labelled(SELLER, whole) ?? labelled(EMPFAENGER, whole) ?? labelled(POLISH_PARTY, whole) ?? partyOrPurpose(TAGGED_NAME.exec(whole)?.[1], TAGGED_PURPOSE.exec(whole)?.[1]) ?? (whole.includes('/BEN') || (whole.startsWith('VIR') && (whole.includes('/DE ') || whole.includes('/FRM '))) ? BEN_FIELD.exec(whole)?.[1] : undefined) ?? labelled(ADRES, whole) ?? (whole.includes('PRESSO') || whole.includes('presso') || whole.includes('Presso') ? SHOP_AFTER_PRESSO.exec(whole)?.[1] : undefined) ?? (INTESA.test(whole) ? INTESA_PARTY.exec(whole)?.[1] : undefined) ?? labelled(ITALIAN_PARTY, whole) ?? (whole.includes('Eser') || whole.includes('ESER') ? ESERCENTE.exec(whole)?.[1] : undefined) ?? labelled(WIRE_PARTY, whole) ?? PAYPAL_SHOP.exec(whole)?.[1] ?? firstField(whole) ?? lastBarField(whole) ?? achOriginator(whole) ?? descriptor.replace(CARD_AFTER_NAME, '');
  if (text.includes('+')) text = text.replace(SVWZ, ' ').replace(PURPOSE_MARKER, ' ');
  if (QUOTE.test(text)) text = text.replace(QUOTES, ' ');
  if (text.includes('(')) text = text.replace(COUNTRY_IN_BRACKETS, '');
  if (text.includes('>')) text = text.replace(TOWN_AFTER_MARK, '');
  if (text.includes('COMMISSION')) text = text.replace(FOREIGN_COMMISSION, '');
  const abroad = DIGIT.test(whole) ? foreignCurrency(whole) : undefined;
  // An exchange note follows an amount in a currency; an Italian commission may stand alone ("COMM. 0,00").
  if (abroad !== undefined || text.includes('COMM.')) text = text.replace(EXCHANGE_NOTE, '');
  const codeEnds = TRAILING_METHOD.test(text) && LEADING_UK_CODE.test(text);
  text = codeEnds ? text : stripLeading(text, currencyCode);
  // Shopify's payments put SP and a space before the shop on a US card line, no star (SP AWESOME SOCKS CO); SP+ (SP PLUS) is a parking operator.
  if (currencyCode === 'USD' && text.startsWith('SP ')) text = text.replace(SHOPIFY_PREFIX, '');
  // A US card descriptor's store number, town and state: on a dollar account, or a card paid in dollars (a Belgian NV after a number is no Nevada).
  if (currencyCode === undefined || currencyCode === 'USD' || abroad === 'USD') {
    text = withoutUsTown(text).replace(STREET_ADDRESS_AFTER_NAME, '');
    if (isCutByOfx(raw) && !NOT_A_PURCHASE.test(raw)) text = text.replace(STREET_IN_CUT_FIELD, '');
  }
  // An ACH company name cut short, then the same word whole in the entry's description (LAKES AREA PROPA PROPANE).
  if (currencyCode === 'USD') text = text.replace(CUT_BEFORE_WHOLE, '');
  if (currencyCode === 'USD' && (text.includes(' BANK DRAFT') || text.includes(' AUTO PAY') || (text.includes('REF') && ZELLE_LINE.test(raw)))) text = text.replace(US_ENTRY_AFTER_NAME, '');
  text = withoutTillBranch(text, whole);
  // A card paid abroad names the amount in the shop's currency (EUR 18.50 on a krone account): its countries' towns end the name too.
  const towns = keepPlace ? NO_TOWNS : townsOfEither(currencyCode, abroad);
  if (!keepPlace) text = withoutLeadingTown(withoutDepartmentTown(text, towns), whole, towns);
  const has = needsOf(text);
  for (const [pattern, needs] of BLANKED) if (has[needs]) text = text.replace(pattern, ' ');
  text = collapseSpaces(text).replace(SPACE_BEFORE_PUNCTUATION, '$1').replace(TRAILING_LABEL, '');
  // A web address after the name is the shop's site, no part of its name (PINEHURST FLORIST WWW.PINEHURSTFLORIST.COM NC).
  if (text.includes('.')) text = text.replace(WEB_AFTER_NAME, '');
  text = (codeEnds ? text.replace(EDGES, '') : stripLeading(text.replace(EDGES, ''), currencyCode)).replace(TRAILING_METHOD, '').replace(TRAILING_WORDS, '').replace(SLASHED_PLACE, '');
  if (currencyCode === 'PLN' && text.includes(' /')) text = text.replace(MBANK_TOWN, '');
  if (currencyCode === 'GBP') text = text.replace(UK_POSTCODE_DISTRICT, '');
  if (text.includes('.')) text = text.replace(BRANCH_AFTER_FIL, '');
  const cut = isCutByOfx(whole);
  // A town cut short ends the name only where the name ends the line: after a till's branch (TST* BEN'S CHILI BOWL - U STREET) the line was cut, not the name.
  if (!keepPlace) text = withoutStreetAtEnd(stripPlace(text, cut && whole.endsWith(text.slice(text.lastIndexOf(' ') + 1)), towns, currencyCode).replace(EDGES, ''));
  text = withoutOwner(text, currencyCode);
  // A letter alone after two words or more, where OFX cut a US line, is what began the next field (ZELLE TO DANIELA KIM ON 03/14 R); a Danish line's is a district (Aarhus C).
  return siteName(withoutSquashedRepeat(cut && currencyCode === 'USD' ? text.replace(CUT_DAY, '').replace(CUT_LETTER, '') : text));
}

/** A Dutch card line's town after a mark, and what follows it (Cafetaria Smikkel >ROOSENDAAL 12.04.2024 19:02 pasnr 123). */
const TOWN_AFTER_MARK = /(?<=\S)\s*>\s*\p{Lu}.*$/u;

/** A word of four letters or more that the next word starts with: the first is the second cut short. */
const CUT_BEFORE_WHOLE = /\b([A-Z]{4,}) (?=\1[A-Z]+\b)/gi;

/** Shopify's prefix before a shop's name on a US card line (SP AWESOME SOCKS CO), not SP PLUS's own name. */
const SHOPIFY_PREFIX = /^SP (?!PLUS\b)(?=\S{2})/;

/** The fewest letters of a name written again together after it (a shop's site or account name) for it to be read so. */
const SQUASHED_REPEAT_LENGTH = 6;

/** `text` without a last word that writes the words before it together, whole or cut (SP WILDROOT APOTHECARY WILDROOTA, BRANDYWINE CANDLE BRANDYWINECAND). */
function withoutSquashedRepeat(text: string): string {
  const space = text.lastIndexOf(' ');
  if (space < 0 || text.length - space - 1 < SQUASHED_REPEAT_LENGTH) return text;
  // Most lines' last word (a phone's dash before it aside: 800-COMCAST) starts with another letter than their first: nothing to compare.
  const lastStart = text.charCodeAt(space + 1) === 45 ? space + 2 : space + 1;
  if ((text.charCodeAt(0) | 32) !== (text.charCodeAt(lastStart) | 32)) return text;
  const before = text.slice(0, space);
  const words = normalize(before);
  const last = normalize(text.slice(space + 1));
  // At least the first word again: a word that only starts like it is another (PENSIONSMYNDIGHETEN ALLMAN PENSION).
  const first = words.indexOf(' ');
  return first > 0 && last.length >= first && words.replaceAll(' ', '').startsWith(last) ? before : text;
}

/** `text` (a line's name or the bank's field) without an owner after the shop's name: Italian, surname first (IDRAULICA SERRA DI SERRA PAOLO), Danish and Norwegian after v/ (SALON KLIPPESTUEN V/LENE BACH). */
function withoutOwner(text: string, currencyCode: string | undefined): string {
  if (currencyCode === 'EUR') return text.includes(' DI ') || text.includes(' DEL ') ? withoutItalianOwner(text) : text;
  return (currencyCode === 'DKK' || currencyCode === 'NOK') && text.includes('/') ? text.replace(OWNER_AFTER_V, '') : text;
}

/** An Italian sole trader's owner after the shop's name, surname first: "PIZZERIA DA GENNARO DI ESPOSITO G.", "OTTICA FONTANA DI FONTANA LUCA", "FARMACIA SANT'AMBROGIO DEL DR. COLOMBO". */
const ITALIAN_OWNER = / DI (\p{L}+) (\p{L}+\.?)$| DEL (?:DR|DOTT)\.? \p{L}+$/u;
/** A given name's initial with its full stop (ESPOSITO G.). */
const INITIAL = /^\p{L}\.$/u;

/** `text` without its owner (ITALIAN_OWNER) when a given name or an initial follows the surname: a name of two words after DI may be the shop's own (CASSA DI RISPARMIO). */
function withoutItalianOwner(text: string): string {
  const owner = ITALIAN_OWNER.exec(text);
  if (!owner || owner.index === 0) return text;
  const given = owner[2];
  return given === undefined || INITIAL.test(given) || isGivenName(normalize(given)) ? text.slice(0, owner.index) : text;
}

/** What follows a US biller's name on an ACH line (CULLMAN ELEC COO BANK DRAFT 0041182, RIVERSTREET NETW AUTO PAY 240603), and Wells Fargo's Zelle memo after its reference (ZELLE TO MARIA ALVAREZ ON 06/12 REF # PP0RT8KX2L BABYSITTING). */
const US_ENTRY_AFTER_NAME = /\s+(?:(?:BANK DRAFT|AUTO PAY)\b|REF ?#).*$/i;
const ZELLE_LINE = /^ZELLE\b/i;

/** The Baltic words for a street that follow its name (KALKU IELA, TARTU MNT, GEDIMINO PROSPEKTAS), as a card line's address after the shop. */
const STREET_AFTER_NAME = new Set(['IELA', 'GATVE', 'PROSPEKTAS', 'PROSPEKTS', 'BULVARIS', 'MNT', 'MAANTEE', 'TANAV', 'PUIESTEE']);

/** A Nordic street, its kind ending its name, and its number after a shop's name, as DNB's card lines give them before the town: "TORGGATA FRUKT TORGGT. 21 OSLO". */
const NORDIC_STREET_AND_NUMBER = /(?<=\S)\s+\p{L}+(?:GT|VN|VEI|VEIEN|GATA|GATE|GATAN|VEJ|VEJEN|GADE|GADEN|VÄGEN|VAGEN|PLASS)\.?\s+\d{1,4}[A-Z]?$/iu;

/** `text` without a street (its name and the word for a street, or a Nordic street and its number) at its end, when a word of the name stands before it: KAFIJAS BODE KALKU IELA. */
function withoutStreetAtEnd(text: string): string {
  const last = text.lastIndexOf(' ');
  if (last > 0 && /\d$/.test(text)) return text.replace(NORDIC_STREET_AND_NUMBER, '');
  if (last < 0 || !STREET_AFTER_NAME.has(normalize(text.slice(last + 1)))) return text;
  const street = text.lastIndexOf(' ', last - 1);
  return street > 0 ? text.slice(0, street) : text;
}

/** Crédit Mutuel's and CIC's card lines name the town before the shop: "PAIEMENT CB 1409 PARIS ORANGE VAD 73 CARTE 2080". */
const TOWN_BEFORE_SHOP = /^PAIEMENT CB \d{4} /i;

/** `text` without the town a Crédit Mutuel or CIC card line (`whole`) puts before the shop, a town of `towns` with a word after it. */
function withoutLeadingTown(text: string, whole: string, towns: ReadonlySet<string>): string {
  if (!TOWN_BEFORE_SHOP.test(whole)) return text;
  const words = text.split(' ');
  for (let length = Math.min(LONGEST_CITY, words.length - 1); length >= 1; length--) {
    if (isPlace(normalize(words.slice(0, length).join(' ')), towns)) return words.slice(length).join(' ');
  }
  return text;
}

/** French card lines' department and town after the shop, glued to it or not: "AU FOURNIL D'OR33ARCACHON", "LA MIE CALINE    33PESSAC". */
const DEPARTMENT_TOWN = /(?<=\p{L}|\s)\d{2}(\p{L}{3,}(?:[ -]\p{L}+)?)$/u;

/** `text` without a department's number and the town after it at its end, when that is a town of the line's currency. */
function withoutDepartmentTown(text: string, towns: ReadonlySet<string>): string {
  const department = DIGIT.test(text) ? DEPARTMENT_TOWN.exec(text) : null;
  return department && department.index > 0 && isPlace(normalize(department[1]!), towns) ? text.slice(0, department.index).trimEnd() : text;
}

/** A web address after other words. */
const WEB_AFTER_NAME = /(?<=\S)\s+www\.\S+/gi;

/** A web address left alone (a BLIK or card payment to www.vinted.pl): the site's name, as its owner writes it. */
const WEB_ADDRESS = /^(?:https?:\/\/)?www\.([\p{L}\d-]{2,})\.[a-z]{2,4}(?:\.[a-z]{2})?\/?$/iu;

function siteName(text: string): string {
  const site = text.includes('.') ? WEB_ADDRESS.exec(text)?.[1] : undefined;
  return site ? site.charAt(0).toUpperCase() + site.slice(1).toLowerCase() : text;
}

/** The first field of a line in NatWest's spaced-comma form that is not the card's or a call's reference. */
function firstField(text: string): string | undefined {
  if (!text.includes(FIELD_SEPARATOR)) return undefined;
  return text.split(FIELD_SEPARATOR).find((field) => field.trim() !== '' && !FIELD_BEFORE_NAME.test(field.trim()));
}

/** Belgian card lines name the card, its holder and the day before the shop: "AANKOOP BANCONTACT CONTACTLESS MET KAART NR 6703 0512 3318 4412 - JAN PEETERS OP 13/03 11:02 DIERENARTS DE VOS BVBA TONGEREN", "… AVEC LA CARTE 6703 … - JEAN DUPONT LE 13/03 11:02 …", "ACHAT BANCONTACT AVEC CARTE N° 6703 10XX XXXX 2214 8 - DUBOIS MARIE LE 14/02 19:22 …". */
const CARDHOLDER_THEN_SHOP = /\b(?:MET KAART|AVEC (?:LA )?CARTE(?: DE D[ÉE]BIT)?)(?: NR| N°)? [\dX ]+ (?:- .+? )?(?:OP|LE) \d{2}\/\d{2}(?:\/\d{2,4})?(?: \d{1,2}[:.]\d{2})? (.+)$/i;
/** KBC's and CBC's card lines give the day and the time (19U47, 12H25) after the card, then the shop and its town: "AANKOOP BANCONTACT CONTACTLESS MET KBC-DEBETKAART 22-03 19U47 FRITUUR DE GOUDEN FRIET - DENDERMONDE KAART 6703 …". */
const SHOP_AFTER_CARD_TIME = /\b(?:MET (?:KBC|CBC)-DEBETKAART|AVEC CARTE DE D[ÉE]BIT (?:KBC|CBC)) \d{2}-\d{2} \d{1,2}[UH]\d{2} (.+)$/i;
/** BNP Paribas Fortis's: the shop after the card and a dash, then its postcode, town and country and the day: "… MET KAART NR 6703 04XX XXXX 4415 0 - KAPSALON NELE 8700 TIELT BE 09/04/2024 12:18 REF. : …". */
const SHOP_BEFORE_POSTCODE = /\b(?:MET KAART|AVEC (?:LA )?CARTE)(?: NR| N°?)? [\dX ]+ - (.+?) \d{4} [\p{L}' -]+ BE \d{2}\/\d{2}\/\d{4}\b/iu;
/** Fields between dashes, the day and the time before the shop and its town after: "Betaling met debetkaart 6703 XX 4490 1 - 20/04 09:14 - DRANKENCENTRALE GOOSSENS - HEIST-OP-DEN-BERG". */
const SHOP_BETWEEN_DASHES = /\bMET DEBETKAART [\dX ]+ - \d{2}\/\d{2} \d{1,2}[:.]\d{2} - (.+?)(?: - .+)?$/i;

/** The shop of a Belgian card line, in any of its banks' shapes. */
function belgianCardShop(descriptor: string): string | undefined {
  return (CARDHOLDER_THEN_SHOP.exec(descriptor) ?? SHOP_AFTER_CARD_TIME.exec(descriptor) ?? SHOP_BEFORE_POSTCODE.exec(descriptor) ?? SHOP_BETWEEN_DASHES.exec(descriptor))?.[1];
}
/** A till's prefix after a bank's own fields (AT 4,20 DEBIT POS … SUMUP *KAFFEE ALT WIEN, BEA, Apple Pay SumUp *Vishandel Bakker): the shop, from the prefix on. */
const TILL_AFTER_FIELDS = /\s(?:TST|SQ|SUMUP|ZETTLE_?|IZ)\s?\*\s*(?=\p{L})/iu;

function tillShop(descriptor: string): string | undefined {
  const till = descriptor.includes('*') ? TILL_AFTER_FIELDS.exec(descriptor) : null;
  return till ? descriptor.slice(till.index + till[0].length) : undefined;
}

/** The payer of a Tikkie, in either of its wordings. */
function tikkiePayer(text: string): string | undefined {
  const payer = text.includes('Tikkie') || text.includes('TIKKIE') ? TIKKIE_PAYER.exec(text) : null;
  return payer ? (payer[1] ?? payer[2] ?? payer[3]) : undefined;
}

/** A person the line writes surname first (after a semicolon, or Swish's word), given name first. */
function givenThenSurname(text: string): string | undefined {
  if (!text.includes(',')) return undefined;
  const person = SURNAME_COMMA_GIVEN.exec(text);
  return person ? `${person[2]!.trim()} ${person[1]!.trim()}` : undefined;
}

/** The last field of a line in BAWAG's barred form, without the other bank's BIC and IBAN before the name. */
function lastBarField(text: string): string | undefined {
  if (!text.includes(FIELD_BAR)) return undefined;
  const last = text.slice(text.lastIndexOf(FIELD_BAR) + 1).trim();
  return last === '' ? undefined : last.replace(BIC_AND_IBAN, '');
}

/**
 * A till's descriptor without the place after the shop's name (TST* JOES PIZZA - CARMINE, TST* DIG -
 * UNION SQ); a single letter before the dash is the name's own (SQ *A - Z MARKET).
 */
function withoutTillBranch(text: string, whole: string): string {
  const dash = text.indexOf(' - ');
  return dash > 1 && TILL.test(whole) ? text.slice(0, dash) : text;
}

function collapseSpaces(text: string): string {
  return text.includes('  ') || OTHER_WHITESPACE.test(text) ? text.replace(SPACES, ' ') : text;
}

/**
 * The party a line's name field gives, unless it is a payment provider's alone (Stichting Mollie Payments, Buckaroo): then the
 * description, which names the shop. A shop "via" its provider is the shop's (Thuisbezorgd.nl via Stichting Mollie Payments);
 * Tikkie's lines name their person in their own way (TIKKIE_PAYER).
 */
function partyOrPurpose(party: string | undefined, purpose: string | undefined): string | undefined {
  if (party === undefined || purpose === undefined || VIA.test(party)) return party;
  const normalized = normalize(party);
  return isFacilitator(normalized) && !normalized.includes('TIKKIE') ? purpose : party;
}
/** A shop named with its payment provider (… via Stichting Mollie Payments). */
const VIA = /\bvia\b/i;

/** What `pattern`, whose label ends in a colon (Naam:, Adres:), captures; most lines have no colon to look for it after. */
function labelled(pattern: RegExp, text: string): string | undefined {
  return text.includes(':') ? pattern.exec(text)?.[1] : undefined;
}

/**
 * NACHA entries as US banks print them: the originator's name (both forms have labels with a colon).
 * The entry description after it (PAYROLL, AUTO DEBIT, TAX REFUND) says what for, not who: the rules
 * read it in the whole line.
 */
function achOriginator(text: string): string | undefined {
  if (!text.includes(':')) return undefined;
  return ACH_DES.exec(text)?.[1] ?? ORIGINATOR.exec(text)?.[1] ?? ACH_COMPANY.exec(text)?.[1] ?? ACH_NAME_BEFORE_TYPE.exec(text)?.[1];
}

/**
 * A US card descriptor is the shop's name, a store number, the town and the state, and a bank adds a
 * date or an authorization code after (`SLIM CHICKENS 16344 DES MOINES IA 10/05`): the name ends at
 * the store number. Without one, the town is found as the words before the state that the name repeats
 * (`CULVERS OF JOHNSTON JOHNSTON IA`, `ZIGGIS COFFEE - URBANDALE URBANDALE IA`) or, after a name in
 * capitals, as words in title case (`SQ *RIVERSIDE ICE CREAM Pleasant Hill IA`): neither list of towns is complete.
 */
function withoutUsTown(descriptor: string): string {
  const apart = withStateApart(descriptor);
  if (!mayEndInUsState(apart)) return descriptor;
  const text = apart.replace(GLUED_TITLE_CASE, '$1 ');
  const tokens = text.split(' ');
  let state = tokens.length - 1;
  while (state > 0 && US_TAIL.test(tokens[state]!)) state--;
  const code = STATE_GLUED.exec(tokens[state]!)?.[1] ?? tokens[state]!;
  if (state < 2 || !/^[A-Z]{2}$/.test(code) || !US_STATES.has(code)) return text;
  // The town's field may hold the shop's web address instead, cut at its length (TUCKER KNITS TUCKERKNITS.C CA).
  if (WEB_FIELD.test(tokens[state - 1]!)) return tokens.slice(0, state - 1).join(' ');
  const store = tokens.findIndex((token, index) => index > 0 && index < state && US_STORE_NUMBER.test(token) && !NUMBERED_NAME.test(tokens[index - 1]!));
  // A store number before the name, after a time or a code only (09:14a #8812 SMILE DENTAL …), ends nothing.
  if (store > 0 && tokens.slice(0, store).some((token) => TWO_LETTERS.test(token))) return tokens.slice(0, STORE_WORD.test(tokens[store - 1]!) && store > 1 ? store - 1 : store).join(' ');
  // A store's number glued to the name's last word (MARATHON PETRO1243 DETROIT MI): the word stays, the town after it goes.
  const numbered = tokens.findIndex((token, index) => index > 0 && index < state - 1 && GLUED_STORE_NUMBER.test(token));
  if (numbered > 0) return [...tokens.slice(0, numbered), tokens[numbered]!.replace(/\d+$/, '')].join(' ');
  const glued = gluedTown(tokens[state - 1]!, code);
  if (glued > 0) return [...tokens.slice(0, state - 1), tokens[state - 1]!.slice(0, -glued)].join(' ');
  // A dash between the name and up to three words before the state: those are the town (BLACKBIRD COFFEE - NORTH BILLINGS MT).
  const dash = tokens.lastIndexOf('-', state - 1);
  if (dash > 0 && state - dash <= TOWN_AFTER_DASH) return tokens.slice(0, dash).join(' ');
  // The town's field may hold the shop's telephone number (PEARL STREET PEDIATRICS 303-555-0110 CO): the state is Colorado, no company's CO.
  if (PHONE_FIELD.test(tokens[state - 1]!)) return tokens.slice(0, state - 1).join(' ');
  const words = normalizeEach(tokens);
  // A town of the state's list, whole, is the town; else one the card network's field cut (BIG SPRING HARDWARE BIG SPRING TX is not BIG SPRING HARDWARE BIG + SPRING…).
  const listed = stateTownLength(words, state, code);
  const cut = listed > 0 ? 0 : cutTownLength(words.slice(0, state), code);
  if (cut > 0) return tokens.slice(0, state - cut).join(' ');
  for (let length = Math.min(LONGEST_CITY, state - 1); length > listed; length--) {
    const town = words.slice(state - length, state).join(' ');
    const before = words.slice(0, state - length);
    if (!` ${before.join(' ')} `.includes(` ${town} `) && !tokens[state - length - 1]!.toUpperCase().endsWith(`-${town}`)) continue;
    const name = tokens.slice(0, state - length);
    if (before.slice(-length).join(' ') === town && name.length > length) name.splice(-length);
    const last = name.length - 1;
    name[last] = name[last]!.replace(new RegExp(String.raw`-${town}$`, 'i'), '');
    return name.join(' ');
  }
  let town = state;
  while (town > 1 && TITLE_CASE.test(tokens[town - 1]!)) town--;
  if (town < state && tokens.slice(0, town).every((token) => !LOWER_CASE.test(token))) return tokens.slice(0, town).join(' ');
  if (listed > 0) return tokens.slice(0, state - listed).join(' ');
  // What follows the state (a date, a year, a reference) is never the name; without it stripPlace can find the town.
  return withoutTownAfterTrade(tokens, words, state) ?? [...tokens.slice(0, state), code].join(' ');
}

/**
 * False when no US state can end `text` before what a bank prints after one (US_TAIL): the last token
 * that is not such a tail is no state, or fewer than two words stand before it. Read from the end
 * without splitting the text, which most lines (no US card descriptor) would need for nothing.
 */
function mayEndInUsState(text: string): boolean {
  let end = text.length;
  for (;;) {
    const space = text.lastIndexOf(' ', end - 1);
    if (space < 0 || end === 0) return false;
    const token = text.slice(space + 1, end);
    if (!US_TAIL.test(token)) return US_STATES.has(STATE_GLUED.exec(token)?.[1] ?? token) && space > 0 && text.lastIndexOf(' ', space - 1) >= 0;
    end = space;
  }
}

/** The most words a US town has in its state's list (LAKE HAVASU CITY, SAINT CLAIR SHORES). */
const LONGEST_STATE_TOWN = 4;

/**
 * How many of the words (normalized) before the state's code at `state` name a town of that state,
 * the longest such, leaving a word of the name that no word ties the town into (CITY OF AUSTIN TX); 0 when none.
 */
function stateTownLength(words: readonly string[], state: number, code: string): number {
  for (let length = Math.min(LONGEST_STATE_TOWN, state - 1); length >= 1; length--) {
    if (!CITY_LINKS.has(words[state - length - 1]!) && isStateTown(code, words.slice(state - length, state).join(' '))) return length;
  }
  return 0;
}

/** The most words a town after a dash in a US card descriptor has, the state's token counted. */
const TOWN_AFTER_DASH = 4;

/** A one-word town glued to a name its field filled (PINE STATE BISCPORTLAND OR, BREW HA HA COFFEWILMINGTON DE): its length, 0 when none. */
function gluedTown(token: string, state: string): number {
  // A town whole is no name glued to another town (MILWAUKEE WI is not MIL + Iowa's WAUKEE).
  if (!/^[A-Z]+$/.test(token) || CITIES.has(token) || isStateTown(state, token)) return 0;
  for (let start = 1; start <= token.length - SHORTEST_CUT_TOWN; start++) if (CITIES.has(token.slice(start)) || isStateTown(state, token.slice(start))) return token.length - start;
  return 0;
}

/** The fewest letters of a town a bank glues its state to (AMESIA). */
const SHORTEST_GLUED_TOWN = 3;

/**
 * A US descriptor whose last word is a town with its state glued on (SPYHOUSE COFFEE MINNEAPOLISMN,
 * LOVE'S #0456 OKLAHOMA CITYOK): the state apart from it, when the words before the state are a town
 * of that state (data/towns.json's) or the word ends in a town (NOODLEMINNEAPOLISMN); the descriptor as it is otherwise.
 */
function withStateApart(descriptor: string): string {
  const space = descriptor.lastIndexOf(' ');
  const last = descriptor.slice(space + 1);
  if (space < 0 || last.length < SHORTEST_GLUED_TOWN + 2 || !/^[A-Z]+$/.test(last)) return descriptor;
  const state = last.slice(-2);
  if (!US_STATES.has(state)) return descriptor;
  const town = last.slice(0, -2);
  const before = descriptor.slice(0, space).split(' ');
  for (let words = 0; words < LONGEST_STATE_TOWN && words < before.length; words++) {
    if (isStateTown(state, [...before.slice(before.length - words), town].join(' '))) return `${descriptor.slice(0, -2)} ${state}`;
  }
  // The town glued to the name's last word as well (SQ *NORTHEAST NOODLEMINNEAPOLISMN): withoutUsTown takes it off that word.
  return gluedTown(town, state) > 0 ? `${descriptor.slice(0, -2)} ${state}` : descriptor;
}

/** A card network's town field holds 13 characters: a town cut there (WEST DES MOIN, PRAIRIE VILLAG) is the start of a known one this long at least. */
const SHORTEST_CUT_TOWN = 6;

/** How many words before a US state are the start of a known town, the written list's or the state's, cut short (not the whole town: stripPlace drops that): SAN LUIS OBIS CA. */
function cutTownLength(words: string[], state: string): number {
  for (let length = Math.min(3, words.length - 1); length >= 1; length--) {
    const town = words.slice(-length).join(' ');
    if (town.length >= SHORTEST_CUT_TOWN && !CITIES.has(town) && (CITY_PREFIXES.has(town) || isStateTownStart(state, town))) return length;
  }
  return 0;
}

const SHORT_STORE_NUMBER = /^#?\d{1,2}$/;
/** Fewer letters than this after a trade's word are its abbreviation (MEXICAN REST), not a town. */
const SHORTEST_TOWN = 5;

/**
 * A shop's name that ends in its trade's word (EL MARIACHI TAQUERIA, GREEN GABLES FLORIST) ends there:
 * the one or two words between it and the state are the town (EMPORIA KS, CEDAR FALLS IA).
 */
function withoutTownAfterTrade(tokens: string[], words: string[], state: number): string | undefined {
  for (let length = 1; length <= 2; length++) {
    // A store's one- or two-digit number may stand between the trade's word and the town (LOS COMPADRES TAQUERIA 2 VISALIA CA).
    const numbered = SHORT_STORE_NUMBER.test(words[state - length - 1] ?? '') ? 1 : 0;
    const trade = state - length - 1 - numbered;
    const town = words.slice(trade + 1 + numbered, state);
    if (trade >= 1 && isTradesWord(words[trade]!) && town.every((word) => /^[A-Z]+$/.test(word) && !isTradesWord(word)) && town.join('').length >= SHORTEST_TOWN) return tokens.slice(0, trade + 1).join(' ');
  }
  return undefined;
}

/** A processor's prefix ends in a star; SumUp's may end in a full stop, and only starts the text so (SUMUP_DOT). */
function mayHoldProcessor(text: string): boolean {
  return text.includes('*') || STARTS_SUMUP.test(text);
}
const STARTS_SUMUP = /^SUMUP/i;

/** A UK or Irish standing order's code that is a name's first word on a dollar line: South (SO CAL GAS), or the word (SQ *SO FRESH JUICE BAR). */
const STANDING_ORDER_CODE = /^SO\s/i;

/** Payment-method words, processor prefixes, and dates or card numbers between them, from the start. */
function stripLeading(text: string, currencyCode: string | undefined): string {
  let previous;
  do {
    previous = text;
    const method = LEADING_METHOD.get(text.charAt(0).toUpperCase());
    text = method && !(currencyCode === 'USD' && STANDING_ORDER_CODE.test(text)) ? text.replace(method, '') : text;
    text = (mayHoldProcessor(text) ? text.replace(LEADING_PROCESSOR, '') : text).replace(LEADING_DATE_OR_CARD, '').trimStart();
  } while (text !== previous && text !== '');
  return text;
}

/** mBank's card lines end in the shop's town after a slash (APTEKA POD ORLEM/TARNOW): any word of letters, known town or not. */
const SLASHED_TOWN = /^\p{L}[\p{L}.'-]*\/\p{L}{3,}$/u;

/** Articles that start a name in the providers' languages. */
export const ARTICLES: ReadonlySet<string> = new Set(['THE', 'EL', 'LA', 'LE', 'LES', 'IL', 'LO', 'DE', 'HET', 'DER', 'DIE', 'DAS', 'O', 'A', 'OS', 'AS']);

/** A city's district or postal district after it: Paris's arrondissement (PARIS 06), Dublin's district (DUBLIN 8). */
const DISTRICT = / \d{1,2}$/;
/** A Danish city's postal district, a letter or two after it (Aarhus C, København V, København NV). */
const DANISH_DISTRICT = / (?:C|K|V|N|S|Ø|SV|NV|SØ|NØ)$/i;

/**
 * Country, US state and city at the end, in any order, keeping at least one word and a city a word
 * ties into the name (CITY OF AUSTIN); a city glued on with a hyphen or a slash (ESQUINA-MADRID, ALLEGRO.PL/POZNAN); in a name
 * OFX cut short (`truncated`), the start of a city at the very end (NEW YOR); a district's number
 * after a city, with the city (a number after anything else stays: PIZZA 4), and a Danish one's letter (AARHUS C).
 */
function stripPlace(text: string, truncated: boolean, towns: ReadonlySet<string>, currencyCode?: string): string {
  const district = DISTRICT.exec(text) ?? (currencyCode === 'DKK' ? DANISH_DISTRICT.exec(text) : null);
  if (district) {
    const before = text.slice(0, district.index);
    const stripped = stripPlace(before, false, towns);
    return stripped === before ? text : stripped;
  }
  const lastWord = text.slice(text.lastIndexOf(' ') + 1);
  // Most names end with a word that is no place's and has none glued on: nothing to strip, nothing to split.
  if (!truncated && !lastWord.includes('-') && !lastWord.includes('/') && !mayEndPlace(normalize(lastWord))) return text;
  let words = text.split(' ');
  const last = words.at(-1) ?? '';
  const glued = Math.max(last.lastIndexOf('-'), last.lastIndexOf('/'));
  if (words.length > 1 && glued > 0 && (isPlace(normalize(last.slice(glued + 1)), towns) || SLASHED_TOWN.test(last))) words = [...words.slice(0, -1), last.slice(0, glued)];
  const normalized = isNormalized(text) ? words : normalizeEach(words);
  let end = placeStart(normalized, towns);
  // A town after an ampersand is a name's part (ESTILO & CORTE), as after a word that ties it in.
  if (end < normalized.length && (CITY_LINKS.has(normalized[end - 1] ?? '') || words[end - 1] === '&')) end = normalized.length;
  // A trade's word alone before a city is a shop named for it: PIZZERIA NAPOLI, PASTELARIA VERSAILLES, CAFE PARIS; a town after that one is the shop's (PIZZERIA NAPOLI GAVLE).
  if (end === 1 && normalized.length > 1 && !normalized[0]!.includes(' ') && normalized.slice(1).every((word) => !COUNTRIES.has(word) && !US_STATES.has(word)) && isTradesWord(normalized[0]!) && !isDefiniteNordic(normalized[0]!, currencyCode)) end = 1 + firstCityLength(normalized, towns);
  if (truncated && end === normalized.length) end -= cutCityLength(normalized, currencyCode);
  // An article alone is no name: the city is the name's own word (EL FARO, LA ROCHELLE, THE YORK).
  if (end === 1 && ARTICLES.has(normalized[0]!)) return text;
  return words.slice(0, end).join(' ');
}

/** A Nordic trade's word with its definite article is a shop's whole name (SVANEAPOTEKET, SYKKELHUSET, VINKAELDEREN): a town after it is where the shop is, not its name's. */
function isDefiniteNordic(word: string, currencyCode: string | undefined): boolean {
  return (currencyCode === 'NOK' || currencyCode === 'DKK' || currencyCode === 'SEK') && (word.endsWith('ET') || word.endsWith('EN'));
}

/** How many words after the first (a trade's word) name a city, the longest such; all of them when none does. */
function firstCityLength(words: string[], towns: ReadonlySet<string>): number {
  for (let length = Math.min(LONGEST_CITY, words.length - 1); length >= 1; length--) if (isPlace(words.slice(1, 1 + length).join(' '), towns)) return length;
  return words.length - 1;
}

/** How many words at the end of `words` (normalized) are a city's first words, the last cut short (NEW YOR, PORTLA), a trade's word aside; 0 when none. */
function cutCityLength(words: string[], currencyCode: string | undefined): number {
  for (let length = Math.min(2, words.length - 1); length >= 1; length--) {
    const tail = words.slice(-length).join(' ');
    // A trade's word is the name's, not a city cut short (KIMS PHO is no PHOENIX), as are a name's abbreviated word (SPOKANE PUBLIC SCH is no SCHENECTADY) and a word names end with (LEARNING CENTER is no CENTERVILLE).
    if (length === 1 && (isTradesWord(tail) || isNameEnding(tail) || isNamesAbbreviation(words, words.length - 1))) continue;
    if (tail.length >= 3 && CITY_PREFIXES.has(tail)) return length;
    if (currencyCode === 'USD' && tail.length >= US_CUT_SHORTEST && (usTownPrefixes ??= properStarts(townsOf('USD'), 3)).has(tail)) return length;
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

/**
 * Where the place at the end of `words` (each normalized) starts; their length when there is none. A
 * country's three-letter code comes after its town, never before it: before a town it is the name's
 * (FRITUUR DE POL BRUGGE); a two-letter one may (Banque Populaire's CAVE SAINT JEAN FR BORDEAUX).
 */
function placeStart(words: string[], towns: ReadonlySet<string>): number {
  let end = words.length;
  // The town taken, if any: another before it is the name's (HOTEL BAHIA REAL VIGO), the same one again is not (DE BROODHUYS LEUVEN LEUVEN).
  let town: string | undefined;
  for (;;) {
    const last = words[end - 1] ?? '';
    if (end > 1 && (town === undefined || last.length === 2) && ((COUNTRIES.has(last) && !isNamesAbbreviation(words, end - 1)) || (US_STATES.has(last) && !isCompanysCo(words, end, town !== undefined, towns)) || isStateAndCountry(last))) {
      end -= 1;
      // Before a town, the country's code ends the place: what precedes it is the name's (CAVE SAINT JEAN FR BORDEAUX).
      if (town !== undefined) break;
      continue;
    }
    const city = cityLength(words, end, towns);
    // A city a word ties into the name stays with it (CITY OF AUSTIN TX, CERVECERIA LA ROSA), as does one after an article (MARISCOS EL FARO).
    if (city === 0 || CITY_LINKS.has(words[end - city - 1] ?? '') || ARTICLES.has(words[end - city - 1] ?? '')) break;
    const named = words.slice(end - city, end).join(' ');
    if (town !== undefined && named !== town) break;
    end -= city;
    town = named;
  }
  return end;
}

/**
 * A name's last word CO with no town before it is the company's (SQ *FIDDLEHEAD FLOWER CO, TST* MAPLE STREET BISCUIT CO),
 * not Colorado: a card descriptor names the town before the state (KING SOOPERS DENVER CO).
 */
function isCompanysCo(words: readonly string[], end: number, townTaken: boolean, towns: ReadonlySet<string>): boolean {
  return words[end - 1] === 'CO' && !townTaken && cityLength(words as string[], end - 1, towns) === 0;
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
function cityLength(words: string[], end: number, towns: ReadonlySet<string> = NO_TOWNS): number {
  if (end < 2) return 0;
  const last = words[end - 1]!;
  if (!CITY_LAST_WORDS.mayHold(hashOf(last, last.lastIndexOf(' ') + 1))) return 0;
  for (let length = Math.min(LONGEST_CITY, end - 1); length >= 1; length--) {
    if (PLACES.mayHold(joinedHash(words, end - length, end)) && isPlace(words.slice(end - length, end).join(' '), towns)) return length;
  }
  return 0;
}

/** The hash (hashOf) of `words` from `from` to `to` joined by spaces, made without joining them. */
function joinedHash(words: readonly string[], from: number, to: number): number {
  let hash = hashOf(words[from]!);
  for (let at = from + 1; at < to; at++) hash = hashOf(words[at]!, 0, words[at]!.length, hashOf(' ', 0, 1, hash));
  return hash;
}

/** True when normalized words are a town of the currency's countries or a city of the written list (BURLINGTON on a dollar line). */
export function isTownOf(normalized: string, currencyCode: string): boolean {
  return isPlace(normalized, townsOf(currencyCode));
}

/** A city of the list written for the pipeline, or a town of the line's currency's countries (towns.ts). */
function isPlace(normalized: string, towns: ReadonlySet<string>): boolean {
  return CITIES.has(normalized) || towns.has(normalized);
}
