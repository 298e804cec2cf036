/**
 * The local enrichment pipeline: one transaction's description, amount and provider hints in, its
 * clean description, merchant, category and payment channel out. Pure and deterministic (no I/O,
 * no clock, no randomness): the same input always gives the same output, so a stored enrichment
 * is redone only when ENRICHMENT_VERSION changes.
 *
 * The category comes from the first step that decides, each with its confidence
 * (docs/decisions/enrichment-pipeline.md says why these numbers):
 * 1. the provider's own category (PROVIDER, 0.9), when it is one of the taxonomy's;
 * 2. the surer of a movement rule (wages, cash, fees, interest, rent, loan, card and savings
 *    payments; 0.75 to 0.9) and the directory's merchant (0.9 matched word for word, 0.8 written
 *    together, 0.7 for money in: a shop's refund, an agency's or an insurer's payment, a lender's
 *    loan), the rule on a tie;
 * 3. the provider's merchant category code (0.75);
 * 4. a kind-of-trade word (read on money in too when it came through a shop's till or says a purchase
 *    was returned: a refund), then money in from a company that says no refund or invoice (pay, 0.5),
 *    then a plain transfer (0.5 to 0.7); to or from a person (given-names.ts), no kind-of-trade word,
 *    and a transfer when no word says one (0.5).
 * Nothing decides: no category. The merchant is the provider's name when it gives one (with its
 * website and logo), else the directory's, else a name read from the line (merchant-name.ts): the
 * bank's counterparty name, else the clean description's (never a website or logo of ours).
 * Legal forms (legal-forms.ts), people's names after a title and payment schemes' names
 * (guards.ts) are dropped before the rules and the directory read the text.
 */
import { channelFromText } from './channel.ts';
import { achNameCut, ARTICLES, behindProcessor, counterpartyName, counterpartyText, isCutByOfx, isTownOf, MAX_DESCRIPTION_LENGTH, TILL, wholeDescription, withEntitiesDecoded, withGluedFieldsApart, withoutAsides, withoutDegrees, withoutDepartment } from './clean.ts';
import { findMerchant, merchantCutShort, merchantSpelled, type DirectoryMatch } from './directory.ts';
import type { Enrichment, EnrichmentInput, ProviderHints } from './enrichment.ts';
import { isGivenName, isInitialsName, isPersonName, isPersonOfField, mayHoldInitials, namesGivenName } from './given-names.ts';
import { followsTitle, withoutPaymentSchemes } from './guards.ts';
import { legalFormLength, withoutLegalForms } from './legal-forms.ts';
import { categoryOfMcc } from './mcc.ts';
import { nameFromText } from './merchant-name.ts';
import { isFacilitator, mayNameParty, movesOwnMoney } from './naming-guards.ts';
import { isRefundOrInvoice, kindRule, movementRule, transferRule, type RuleInput, type RuleMatch } from './rules.ts';
import { withAbbreviationsWritten, withEndingApart, withLastWordWhole } from './shortened-words.ts';
import { categoryOf, isCategory, type Category } from './taxonomy.ts';
import { withUsAgencyWritten } from './us-agencies.ts';
import { normalize, wordCount } from './text.ts';

/**
 * Bumped whenever a change to this folder (code or data) may change any output for some input: a
 * new merchant, spelling, rule, MCC, cleanup pattern or confidence. Stored enrichments of an older
 * version are redone over history. test/unit/enrichment-version.test.ts fails when the folder's
 * contents change without a bump.
 */
export const ENRICHMENT_VERSION = 25;

const PROVIDER_CONFIDENCE = 0.9;
/** Money in from a shop is a refund at best, and more often a name inside an employer's or a payer's. */
const DIRECTORY_CONFIDENCE = { exact: 0.9, together: 0.8, moneyIn: 0.7 };
/** A government agency's category; money in from one is a benefit it pays (CPAM's refund, a family allowance): other income. */
const AGENCY = 'GOVERNMENT_AND_NON_PROFIT_GOVERNMENT_DEPARTMENTS_AND_AGENCIES';
/** An insurer's category (a health fund's too); money in from one is a claim it pays or care it refunds (AG's damages, a mutuality's refund): other income. */
const INSURER = 'GENERAL_SERVICES_INSURANCE';
/** A tax office's category; money in from one is a refund of tax (Revenue Commissioners' PAYE refund). */
const TAX_OFFICE = 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT';
const MCC_CONFIDENCE = 0.75;
/** A loan paid out to the holder: the lender that starts the line is named, as a payer of income is. */
const LOAN_PAID_OUT = 'TRANSFER_IN_CASH_ADVANCES_AND_LOANS';
/** A card's bill paid, which money in from its issuer is too (a payment received on the card's account). */
const CARD_PAYMENT = 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT';
/** A company's transfer in, no word saying what for: pay, as sure as a plain transfer word. */
const COMPANY_PAY: RuleMatch = { category: categoryOf('INCOME_WAGES'), confidence: 0.5 };
/** A payment between people read from a person's name alone: as sure as a plain transfer word. */
const PERSON_CONFIDENCE = 0.5;
/** What a bill is for, a word a line may give without naming who billed it. */
const BILLED_FOR: ReadonlySet<string> = new Set(['ELECTRIC', 'ELECTRICITY', 'WATER', 'GAS', 'SEWER', 'TRASH', 'INTERNET', 'CABLE', 'PHONE', 'WIRELESS', 'RENT', 'INSURANCE', 'MORTGAGE']);
/** A name read from the line: the bank's counterparty field is surer than words cut out of its text. */
const READ_CONFIDENCE = { counterparty: 0.7, description: 0.6 };
/** A directory spelling with a legal form has at most this many words before the form (WIENER STADTISCHE AG). */
const NAME_BEFORE_FORM = 3;

/** Enrichment of one transaction. */
export function enrich(input: EnrichmentInput): Enrichment {
  const description = withEntitiesDecoded(input.description.slice(0, MAX_DESCRIPTION_LENGTH));
  const { hints, currencyCode } = input;
  // What names the counterparty; a line that names no one (VIR SEPA 000123) shows itself, and no name is read from it.
  const kept = counterpartyText(description, false, currencyCode);
  const clean = kept || wholeDescription(description);
  // A name cut at its field's length ends in part of a word: the rules read it whole too (PP*GRIND HOUSE ESPRESS is a café).
  const keptWhole = withLastWordWhole(kept);
  const completed = keptWhole === kept ? '' : ` ${normalize(keptWhole.slice(keptWhole.lastIndexOf(' ') + 1))}`;
  const whole = normalize(withGluedFieldsApart(withoutAsides(description)));
  const text = withoutLegalForms(whole, currencyCode);
  // The whole line as the directory reads it: a wallet's name (Google Pay, Apple Pay) says how the card paid, never whom (Google).
  const lineText = withoutPaymentSchemes(text);
  const named = normalize(clean);
  const name = withoutLegalForms(named, currencyCode);
  // The name with its cut last word whole, where a trade's word after a chain's tells a local business (BACK IN ACTION CHIROPR).
  const localName = completed === '' ? name : `${name.slice(0, name.lastIndexOf(' '))}${completed}`;
  // The bank's counterparty, unless it is a payment facilitator's own name; the processor that carried the payment goes (SumUp  *Koffiebar Lot, S de Boer via Tikkie).
  const paymentChannel = hints.paymentChannel ?? channelFromText(description, whole);
  const field = hints.counterpartyName && counterpartyName(hints.counterpartyName.slice(0, MAX_DESCRIPTION_LENGTH), currencyCode, paymentChannel !== 'OTHER' || hints.mcc !== null);
  const body = field && withoutDepartment(field);
  const counterparty = body && givenNameFirst(body);
  const party = counterparty && !isFacilitator(normalize(counterparty)) ? counterparty : null;
  const partyNamed = party === null ? '' : normalize(party);
  const partyName = withoutLegalForms(partyNamed, currencyCode);
  // The directory reads the field whole: a department can be the payer's own name (BUNDESAGENTUR FUER ARBEIT - FAMILIENKASSE).
  const partyListed = party === null || body === field ? partyName : withoutLegalForms(normalize(field!), currencyCode);
  // The bank's counterparty is a person: a given name and a surname, initials, or (no legal form) a surname first or after a title.
  const partyPerson = party !== null && (isPersonName(partyNamed) || initialsOfPerson(party, partyNamed) || (partyName === partyNamed && isPersonOfField(partyNamed)));
  const found =
    (hints.merchantName ? findMerchant(normalize(hints.merchantName.slice(0, MAX_DESCRIPTION_LENGTH)), true) : undefined) ??
    notAPaidPerson(
      whole,
      withForm(named, name, currencyCode) ??
        notATradesName(name, notAPerson(name, firstNamed(name, findMerchant(localName, true, currencyCode), currencyCode)), localName) ??
        notCarrier(description, named, notATradesName(lineText, notAPerson(lineText, notTheTown(lineText, named, findMerchant(lineText, false, currencyCode), currencyCode)), localName)) ??
        (party ? notASurname(withForm(partyNamed, partyName, currencyCode) ?? notATradesName(partyListed, notAPerson(partyListed, findMerchant(partyListed, true, currencyCode)), partyListed), partyPerson && partyName === partyNamed) : undefined) ??
        // A name OFX cut at its field's end, the start of one merchant's spelling (Withdrawal Debit Card ALABAMA PO), or ACH's at its company name's (AMERICAN RED CRO DES:DONATION).
        (isCutByOfx(description) ? merchantCutShort(name, currencyCode) : undefined) ?? (currencyCode === 'USD' ? cutAchName(description, kept) : undefined),
      partyPerson,
    );
  // The bank's counterparty field says what the other party is as much as the text does (Tandartspraktijk De Molen beside "factuur 12345").
  const rules: RuleInput = { normalized: (partyNamed === '' ? text : `${text} ${partyName}`) + completed, direction: input.amount.trimStart().startsWith('-') ? 'out' : 'in', accountKind: input.accountKind, nameWords: wordCount(name), currencyCode };
  const listed = found && listedMatch(found, rules.direction, input.accountKind);
  // A person on the other side (the bank's counterparty field, else what the line names), no directory match and no card's purchase (TOM THUMB #2510 DALLAS TX): a payment between people.
  const person = !found && paymentChannel === 'OTHER' && (partyNamed === '' ? readsAsPerson(name, kept, currencyCode) : partyPerson);
  // Money in from a company (its legal form on the line or in the bank's field) that no word calls anything else: its pay.
  const company = !found && !person && rules.direction === 'in' && (text !== whole || partyName !== partyNamed);
  // Money in through a shop's till (SQ *, TST*) or that says it is a purchase returned is a refund: the shop's trade says its category, as a purchase's would.
  const refund = rules.direction === 'in' && (TILL.test(description) || RETURNED.test(whole));
  const category = categorize(hints, rules, listed, person, company, refund);
  return {
    cleanDescription: clean,
    merchant: hints.merchantName
      ? { name: hints.merchantName, website: hints.website, logoUrl: hints.logoUrl, source: 'PROVIDER', confidence: PROVIDER_CONFIDENCE }
      : found && agrees(category, listed, found.at === 0)
        ? (isPeerApp(found) ? personPaid(found, readName(category, text, party, counterpartyText(description, true, currencyCode), currencyCode)) : undefined) ??
          { name: found.merchant.name, website: hints.website, logoUrl: hints.logoUrl, source: 'DIRECTORY', confidence: found.exact ? DIRECTORY_CONFIDENCE.exact : DIRECTORY_CONFIDENCE.together }
        : readName(category, text, party, peopleOnly(category) ? counterpartyText(description, true, currencyCode) : kept, currencyCode, person),
    category,
    paymentChannel,
  };
}

/** The one merchant whose spelling an ACH line's company name starts, where the name fills its field and may be cut. */
function cutAchName(description: string, kept: string): DirectoryMatch | undefined {
  const field = achNameCut(description, kept);
  return field === undefined ? undefined : merchantCutShort(normalize(field), 'USD');
}

/** The name read from the line (`kept`, its normalized `name`) is a person's: a given name first, or initials; read only when a word could start one. */
function readsAsPerson(name: string, kept: string, currencyCode: string): boolean {
  // Two names joined by an ampersand are a firm's (JOHAN & NYSTROM), as initials so joined are.
  if (kept.includes('&')) return false;
  const given = namesGivenName(name);
  if (!given && !mayHoldInitials(name)) return false;
  const read = normalize(nameFromText(kept, currencyCode) ?? '');
  return (given && isPersonName(read)) || initialsOfPerson(kept, read);
}

/** Initials and a surname (`normalized`) are a person's unless an ampersand joins the initials, as a firm's name does (B & K MASONRY). */
function initialsOfPerson(text: string, normalized: string): boolean {
  return !text.includes('&') && isInitialsName(normalized);
}

/**
 * The provider's category, else the surer of a movement rule and the directory's merchant (the rule
 * on a tie: "ATM 7-ELEVEN" is cash, "NAVIENT ED LOAN" a student loan rather than any loan), else the
 * merchant category code (a kind-of-trade word of its primary refining it), else a kind-of-trade
 * word, else a `company`'s pay, else a transfer word. To or from a `person`, no kind-of-trade word, and a
 * transfer when no word says one.
 */
function categorize(hints: ProviderHints, rules: RuleInput, listed: RuleMatch | undefined, person: boolean, company: boolean, refund: boolean): Enrichment['category'] {
  if (hints.category && isCategory(hints.category.primary, hints.category.detailed)) {
    return { primary: hints.category.primary, detailed: hints.category.detailed, source: 'PROVIDER', confidence: PROVIDER_CONFIDENCE };
  }
  // A card network's code for a purchase says no cash came out, whatever a word says (Milan's transit company ATM at a turnstile, MCC 4111).
  const movement = notCashAtShop(movementRule(rules), hints.mcc);
  // Read once: a merchant category code's kind and the trade's own rule both ask it.
  let kindRead: { match: RuleMatch | undefined } | undefined;
  const kind = (): RuleMatch | undefined => (kindRead ??= { match: kindRule(refund ? { ...rules, direction: 'out' } : rules) }).match;
  // To or from a person, a trade's word is what the money was for (FPS, Priya Raman, Pizza night), not who was paid.
  const decided = (movement && listed ? (movement.confidence >= listed.confidence ? movement : listed) : (movement ?? (listed && refined(listed, rules)))) ?? mccMatch(hints.mcc, kind) ?? (person ? undefined : kind()) ?? (company && !isRefundOrInvoice(rules.normalized) ? COMPANY_PAY : undefined) ?? transferRule(rules) ?? (person ? personTransfer(rules.direction) : undefined);
  return decided ? { ...decided.category, source: 'RULES', confidence: decided.confidence } : null;
}

/** The generic words for a utility, which name none of its products. */
const GENERIC_UTILITY = /\b(?:UTILITY|UTILITIES|UTIL|STADTWERKE)\b/g;

/**
 * A utility's bill says which of its products it is for: Telia's with BREDBAND is internet, a
 * Stadtwerke's with WASSER water. Another utility's word on the line refines the directory's category.
 */
function refined(listed: RuleMatch, rules: RuleInput): RuleMatch {
  if (listed.category.primary !== 'RENT_AND_UTILITIES') return listed;
  // A utility's generic word in its name is no product of its (SEATTLE PUBLIC UTILITIES, STADTWERKE BAD HOMBURG … WASSER); its ENERGIA is (ACEA ENERGIA).
  const product = kindRule({ ...rules, normalized: rules.normalized.replace(GENERIC_UTILITY, ' ') });
  return product?.category.primary === 'RENT_AND_UTILITIES' ? { category: product.category, confidence: listed.confidence } : listed;
}

/**
 * A directory merchant is named only when the category does not contradict it: in "ATM 7-ELEVEN"
 * (cash) the name is the ATM's place, not a merchant paid. Income is the exception when the name
 * starts the text it was found in: the payer is named (an agency, Uber paying its drivers, a lender paying out a loan), while
 * an airline inside an employer's name (NOMINA ACME IBERIA) is not. A provider's category is trusted either way.
 */
function agrees(category: Enrichment['category'], listed: RuleMatch | undefined, startsText: boolean): boolean {
  return category === null || category.source === 'PROVIDER' || ((category.primary === 'INCOME' || category.detailed === LOAN_PAID_OUT) && startsText) || category.primary === listed?.category.primary;
}

/** A transfer to or from a person's account: a word after the name that is also a town's is the surname (Swish Oskar Lund). */
function peopleOnly(category: Enrichment['category']): boolean {
  return category?.detailed === 'TRANSFER_OUT_ACCOUNT_TRANSFER' || category?.detailed === 'TRANSFER_IN_ACCOUNT_TRANSFER';
}

/** A payment app between people (Zelle, Venmo): the person the line names, when it names one, is the counterparty. */
function isPeerApp({ merchant }: DirectoryMatch): boolean {
  return merchant.category.detailed === 'TRANSFER_OUT_ACCOUNT_TRANSFER';
}

/** The person a payment app's line names ("ZELLE PAYMENT TO MARIA GARCIA"), not the app's own words ("VENMO CASHOUT", "CASH APP" read as Cash). */
function personPaid(app: DirectoryMatch, read: Enrichment['merchant']): Enrichment['merchant'] | undefined {
  const [person, appName] = [normalize(read?.name ?? ''), normalize(app.merchant.name)];
  return read && !person.includes(appName) && !appName.includes(person) ? read : undefined;
}

/**
 * A name read from the line when the directory knows none: the bank's counterparty, else the clean
 * description's words. Never for what names no one else: fees, interest, cash, moves between the
 * holder's own accounts, a card bill (naming-guards.ts); a transfer when the line says who to or from,
 * or when the other side is a `person` or the bank's counterparty field names it (`party`).
 */
function readName(category: Enrichment['category'], text: string, party: string | null, clean: string, currencyCode: string, person = false): Enrichment['merchant'] {
  if (!mayNameParty(category?.detailed ?? null, text) && !((person || party !== null) && peopleOnly(category) && !movesOwnMoney(text))) return null;
  const fromParty = party && nameFromText(withoutDegrees(party), currencyCode, isPurchase(category));
  if (fromParty) return { name: fromParty, website: null, logoUrl: null, source: 'DESCRIPTION', confidence: READ_CONFIDENCE.counterparty };
  // What a bill is for, alone, names no one (AUTOMATIC WITHDRAWAL, ELECTRIC BILL); a word a card network's or OFX's field cut, or a US
  // biller abbreviated, is read whole (shortened-words.ts), as is a US state's department or agency (us-agencies.ts).
  const fromText = nameFromText(clean, currencyCode, isPurchase(category));
  return fromText && !BILLED_FOR.has(normalize(fromText)) ? { name: withLastWordWhole(currencyCode === 'USD' ? withUsAgencyWritten(withAbbreviationsWritten(withEndingApart(fromText)), text) : currencyCode === 'GBP' ? withAbbreviationsWritten(fromText) : fromText), website: null, logoUrl: null, source: 'DESCRIPTION', confidence: READ_CONFIDENCE.description } : null;
}

/** The primary categories of what a shop sells or a business serves: a name read on such a line is a shop's. */
const PURCHASES: ReadonlySet<string> = new Set(['FOOD_AND_DRINK', 'GENERAL_MERCHANDISE', 'PERSONAL_CARE', 'TRAVEL', 'ENTERTAINMENT', 'HOME_IMPROVEMENT', 'MEDICAL', 'GENERAL_SERVICES', 'TRANSPORTATION']);

function isPurchase(category: Enrichment['category']): boolean {
  return category !== null && PURCHASES.has(category.primary);
}

/**
 * A directory spelling that carries its legal form (HELEN OY, NEXT PLC, ORANGE SA: the form tells the
 * company from a first name, a word or a colour) matched where the line has that form too; `named` is
 * the normalized text before its legal forms were dropped (`without`). Looked up only when a form was dropped.
 */
function withForm(named: string, without: string, currencyCode: string): DirectoryMatch | undefined {
  if (named === without) return undefined;
  const words = named.split(' ');
  for (let at = 1; at < words.length; at++) {
    const form = legalFormLength(words, at, currencyCode);
    if (form === 0) continue;
    for (let start = Math.max(0, at - NAME_BEFORE_FORM); start < at; start++) {
      const merchant = merchantSpelled(words.slice(start, at + form).join(' '));
      if (merchant) return { merchant, exact: true, words: at + form - start, at: start };
    }
  }
  return undefined;
}

/**
 * A one-word directory match right after a trade's word is the shop's own name, not the chain's: `FRISØR
 * SAKS` is a hairdresser called Saks, `CAFE AMAZONAS` a café. The match stands when the trade agrees
 * with the chain's (`RESTAURANT MCDONALDS`). Nor is one inside the name the line gives, before a trade's word (inLocalName).
 */
function notATradesName(normalized: string, match: DirectoryMatch | undefined, name: string): DirectoryMatch | undefined {
  if (!match || match.words > 1) return match;
  const spelling = normalized.split(' ', match.at + 1);
  // The trade's word before the chain's, or before its article (RISTORANTE LA CANVA is no Canva).
  const before = match.at > 1 && ARTICLES.has(spelling[match.at - 1]!) ? match.at - 2 : match.at - 1;
  return (before >= 0 && otherTrade(spelling[before]!, match)) || inLocalName(name, spelling[match.at]!, match) ? undefined : match;
}

/**
 * A one-word match inside the name the line gives (`name`, normalized), with a trade's word after it that is not the
 * chain's: a local business named with the chain's word (LITTLE SPROUTS ACADEMY, SHELL BEACH DENTAL).
 */
function inLocalName(name: string, spelling: string, match: DirectoryMatch): boolean {
  const words = name.split(' ');
  const at = words.indexOf(spelling);
  if (at < 0 || at === words.length - 1) return false;
  const trade = otherTrade(words.slice(at + 1).join(' '), match);
  // First in the name, the chain's word names the chain selling a product of its own (SNCF INTERNET, SAFEWAY FUEL, UBER POOL) unless the trade is a practice's or a school's.
  return trade !== undefined && (at > 0 || (PRACTICES.has(trade.category.primary) && trade.category.detailed !== PHARMACY));
}

/**
 * Trades no chain sells under its own name: a local practice, school, nursery, salon, gym, office or church that shares a
 * chain's word (SHELL BEACH DENTAL, WENDY'S HAIR STUDIO, NORDSTROM LAW OFFICE); a pharmacy, a product or a fuel is a chain's own.
 */
const PRACTICES: ReadonlySet<string> = new Set(['MEDICAL', 'GENERAL_SERVICES', 'PERSONAL_CARE', 'GOVERNMENT_AND_NON_PROFIT']);
const PHARMACY = 'MEDICAL_PHARMACIES_AND_SUPPLEMENTS';

/** The trade `words` (normalized) name, when it is other than the matched chain's. */
function otherTrade(words: string, match: DirectoryMatch): RuleMatch | undefined {
  const trade = kindRule({ normalized: words, direction: 'out', accountKind: 'DEPOSITORY', nameWords: 2 });
  return trade !== undefined && trade.category.primary !== match.merchant.category.primary ? trade : undefined;
}

/**
 * The merchant that starts the name when another is named after it: a delivery platform before the
 * restaurant (DOORDASH MCDONALDS is DoorDash's order, as Plaid names it), a fuel brand before the shop
 * in its station (SHELL 7-ELEVEN, UNO-X 7-ELEVEN). Looked up only when the longest match is not first.
 */
function firstNamed(normalized: string, match: DirectoryMatch | undefined, currencyCode: string): DirectoryMatch | undefined {
  if (!match || match.at === 0) return match;
  const first = findMerchant(normalized.split(' ', match.at).join(' '), true, currencyCode);
  if (first?.at !== 0) return match;
  // A platform's order is the kind of food the restaurant after it sells (DoorDash, then McDonald's: fast food).
  return first.merchant.category.primary === match.merchant.category.primary ? { ...first, merchant: { name: first.merchant.name, category: match.merchant.category } } : first;
}

/**
 * A directory match in the whole line, unless it is the processor or wallet that carried the payment
 * to a shop named after its star (PAYPAL *VINTED, Google Pay CCV*Eetcafe De Waag) or a payment app's name before the
 * shop (PAGAMENTO SATISPAY 16/03 GELATERIA FIORDILATTE): no word of its name
 * is in what the clean description kept (SQC*CASH APP keeps Cash, so Cash App stands; GOOGLE *CLOUD_4F81 keeps Cloud, so Google Cloud does).
 */
function notCarrier(description: string, named: string, match: DirectoryMatch | undefined): DirectoryMatch | undefined {
  if (!match) return match;
  const name = normalize(match.merchant.name);
  return (behindProcessor(description) || isFacilitator(name)) && !name.split(' ').some((word) => ` ${named} `.includes(` ${word} `)) ? undefined : match;
}

/** A directory match in the whole line, unless it is the town the cleaning cut after the name (`named`): THE GREEN ROOM CAFE 0042 BURLINGTON VT is no Burlington store. */
function notTheTown(normalized: string, named: string, match: DirectoryMatch | undefined, currencyCode: string): DirectoryMatch | undefined {
  if (!match) return match;
  const spelling = normalized.split(' ').slice(match.at, match.at + match.words).join(' ');
  return isTownOf(spelling, currencyCode) && !` ${named} `.includes(` ${spelling} `) ? undefined : match;
}

/** A purchase given back, as card lines say it (PURCHASE RETURN AUTHORIZED ON, POS RETURN, MERCHANT REFUND, Retur varekjøp, Återbetalning, KORTTIOSTON PALAUTUS, TERUGBETALING VIA BANCONTACT, DEVOLUCION, STORNO). */
const RETURNED = /\b(?:RETURN|REFUND|RETUR|RETOUR|ATERBETALNING|ATERKOP|PALAUTUS|TERUGBETALING|DEVOLUCION|STORNO)\b/;

/** A line that starts with a US payment app between people: what follows names a person (MobilePay, BLIK and the like pay shops as often). */
const PEER_PAYMENT = /^(?:ZELLE|ZEL|VENMO|CASH APP)\b/;

/** A Nordic payment app's line, which pays shops as often as people: with a person in the bank's counterparty field, what follows is the message to them (MobilePay: Sofie Nielsen, Min del af Tivoli). */
const NORDIC_PEER_PAYMENT = /^(?:MOBILEPAY|VIPPS|SWISH)\b/;

/**
 * A directory match, unless the line is a payment app's to or from a person and the match is not the app: ZELLE TO MIKE ROSS paid Mike Ross, not Ross Stores;
 * a Nordic app's with a person (`toPerson`) in the bank's counterparty field paid that person, whatever its message names.
 */
function notAPaidPerson(whole: string, match: DirectoryMatch | undefined, toPerson: boolean): DirectoryMatch | undefined {
  return match && !isPeerApp(match) && (PEER_PAYMENT.test(whole) || (toPerson && NORDIC_PEER_PAYMENT.test(whole))) ? undefined : match;
}

/** A directory match, unless it is a person's surname after a title (SR MANUEL COSTA) or beside a given name (ELIN NORDSTROM, NORDSTROM ELIN). */
function notAPerson(normalized: string, match: DirectoryMatch | undefined): DirectoryMatch | undefined {
  return match && !followsTitle(normalized, match.at) && !besideGivenName(normalized, match) ? match : undefined;
}

/** A match in the bank's counterparty field, unless it is one word of a person's name (`person`, no legal form): A SAINSBURY, P BLOKKER, Penny Schmidt. */
function notASurname(match: DirectoryMatch | undefined, person: boolean): DirectoryMatch | undefined {
  return match && person && match.words === 1 ? undefined : match;
}

/** A one-word match right after a given name, or before one that ends the text (a surname written first). */
function besideGivenName(normalized: string, { at, words }: DirectoryMatch): boolean {
  if (words > 1) return false;
  const all = normalized.split(' ');
  return (at > 0 && isGivenName(all[at - 1]!)) || (at === all.length - 2 && isGivenName(all[at + 1]!) && !MONTHS.has(all[at + 1]!));
}

/** A person in a bank's counterparty field written surname, comma, given name (Müller, Hans; Karlsson, Erik). */
const SURNAME_COMMA_GIVEN = /^([\p{L}' -]+),\s*([\p{L}' -]+)$/u;

/** A counterparty written surname, comma, given name, given name first (Hans Müller); any other as it is. */
function givenNameFirst(party: string): string {
  const person = party.includes(',') ? SURNAME_COMMA_GIVEN.exec(party) : null;
  return person && isGivenName(normalize(person[2]!.trim().split(' ')[0]!)) ? `${person[2]!.trim()} ${person[1]!.trim()}` : party;
}

/** Given names that are also months' abbreviations (NETFLIX JAN). */
const MONTHS: ReadonlySet<string> = new Set(['JAN']);

/** A payment to or from a person that no word of the line names as a transfer (Geburtstagsgeschenk Oma, with Sabine Hoffmann as the counterparty). */
function personTransfer(direction: RuleInput['direction']): RuleMatch {
  return { category: categoryOf(direction === 'in' ? 'TRANSFER_IN_ACCOUNT_TRANSFER' : 'TRANSFER_OUT_ACCOUNT_TRANSFER'), confidence: PERSON_CONFIDENCE };
}

/**
 * What money in from a directory merchant of `category` is: an agency's benefit or an insurer's claim (other income), a tax
 * office's refund, a lender's loan paid out to a current account (a loan account's money in is its repayment), else the merchant's own category (a refund).
 */
function paidIn(category: Category, accountKind: RuleInput['accountKind']): string {
  if (category.detailed === AGENCY || category.detailed === INSURER) return 'INCOME_OTHER_INCOME';
  if (category.detailed === TAX_OFFICE) return 'INCOME_TAX_REFUND';
  if (category.primary === 'LOAN_PAYMENTS' && category.detailed !== CARD_PAYMENT && accountKind === 'DEPOSITORY') return LOAN_PAID_OUT;
  return category.detailed;
}

function listedMatch({ merchant, exact }: DirectoryMatch, direction: RuleInput['direction'], accountKind: RuleInput['accountKind']): RuleMatch {
  if (merchant.category.primary === 'TRANSFER_OUT') return { category: directed(merchant.category, direction), confidence: exact ? DIRECTORY_CONFIDENCE.exact : DIRECTORY_CONFIDENCE.together };
  if (direction === 'in') return { category: categoryOf(paidIn(merchant.category, accountKind)), confidence: DIRECTORY_CONFIDENCE.moneyIn };
  return { category: merchant.category, confidence: exact ? DIRECTORY_CONFIDENCE.exact : DIRECTORY_CONFIDENCE.together };
}

function mccMatch(mcc: string | null, kindOfTrade: () => RuleMatch | undefined): RuleMatch | undefined {
  const category = mcc === null ? undefined : categoryOfMcc(mcc);
  if (!category) return undefined;
  // The code says the trade, the shop's own word which of its kinds: a café filed as fast food (5814) is a café. A liquor
  // shop's code (5921) is not refined into a place to drink by its name's word (ENOTECA, BODEGA).
  const kind = kindOfTrade();
  if (kind === undefined && mcc === FAST_FOOD_CODE) return { category: categoryOf('FOOD_AND_DRINK_COFFEE'), confidence: MCC_CONFIDENCE };
  return { category: kind?.category.primary === category.primary && category.detailed !== LIQUOR_SHOP && !(mcc === RESTAURANT_CODE && SEATED_NOT.has(kind.category.detailed)) ? kind.category : category, confidence: MCC_CONFIDENCE };
}

/**
 * The card networks' code for a restaurant (5812) says a place to sit and eat, which a café's or a fast food's word in its name does not
 * make less (EL CHARRO CAFE, HARBOUR FISH BAR, a Polish BAR MLECZNY): a bakery's or a bar's word still refines it (BLUE LINE BAGELS).
 */
const RESTAURANT_CODE = '5812';
const SEATED_NOT: ReadonlySet<string> = new Set(['FOOD_AND_DRINK_COFFEE', 'FOOD_AND_DRINK_FAST_FOOD']);

/**
 * The card networks' code for fast food (5814), which most cafés and coffee shops file under too: a shop of that code whose name says
 * no trade (THE COPPER KETTLE, JAVA JUNCTION) is read as a café; the chains the directory knows and a trade's word (BURGER, KEBAB) say otherwise.
 */
const FAST_FOOD_CODE = '5814';

/** A liquor shop's merchant category code (5921), which a word of a place to drink's does not refine. */
const LIQUOR_SHOP = 'FOOD_AND_DRINK_BEER_WINE_AND_LIQUOR';
/** The card networks' codes of cash paid out: at a machine (6011) or a counter (6010). */
const CASH_CODES: ReadonlySet<string> = new Set(['6010', '6011']);

/** A movement rule's cash withdrawal, unless the card network's code (`mcc`) says a purchase. */
function notCashAtShop(movement: RuleMatch | undefined, mcc: string | null): RuleMatch | undefined {
  return movement?.category.detailed === 'TRANSFER_OUT_WITHDRAWAL' && mcc !== null && !CASH_CODES.has(mcc) ? undefined : movement;
}

/** A transfer merchant's category (Venmo, Wise, a broker) turned the way the money went: TRANSFER_OUT_X in is TRANSFER_IN_X. */
function directed(category: Category, direction: RuleInput['direction']): Category {
  if (direction !== 'in') return category;
  const incoming = `TRANSFER_IN_${category.detailed.slice('TRANSFER_OUT_'.length)}`;
  return isCategory('TRANSFER_IN', incoming) ? categoryOf(incoming) : category;
}
