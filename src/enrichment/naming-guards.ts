/**
 * When a name read from the line (merchant-name.ts) may be shown: never for what names no one but the
 * bank or the holder (fees, interest, cash, moves between the holder's own accounts, a card's bill),
 * and for a transfer only when the line says who to or from (Zelle, MobilePay, "TO", "DE", "PARA").
 * A payment facilitator's own name in the bank's counterparty field (PayPal, Klarna, SumUp) is not
 * the shop's.
 */
import { kindRule } from './rules.ts';
import { phrasesRegex } from './text.ts';

/** Categories that name no one but the bank or the holder. */
const NAMELESS = new Set([
  'BANK_FEES_ATM_FEES', 'BANK_FEES_FOREIGN_TRANSACTION_FEES', 'BANK_FEES_INSUFFICIENT_FUNDS', 'BANK_FEES_INTEREST_CHARGE', 'BANK_FEES_OVERDRAFT_FEES', 'BANK_FEES_OTHER_BANK_FEES',
  'INCOME_INTEREST_EARNED', 'INCOME_DIVIDENDS', 'TRANSFER_OUT_WITHDRAWAL', 'TRANSFER_IN_DEPOSIT', 'TRANSFER_OUT_SAVINGS', 'TRANSFER_IN_SAVINGS', 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT',
  'TRANSFER_IN_CASH_ADVANCES_AND_LOANS',
]);
const TRANSFERS = new Set(['TRANSFER_IN_ACCOUNT_TRANSFER', 'TRANSFER_OUT_ACCOUNT_TRANSFER', 'TRANSFER_IN_OTHER_TRANSFER_IN', 'TRANSFER_OUT_OTHER_TRANSFER_OUT']);

/** A payment between people, or a line that says whom the money went to or came from. */
const TO_SOMEONE = phrasesRegex([
  'ZELLE', 'ZEL', 'VENMO', 'CASH APP', 'MOBILEPAY', 'MOBILE PAY', 'VIPPS', 'SWISH', 'MB WAY', 'MBWAY', 'BIZUM', 'ATH MOVIL', 'BLIK', 'TIKKIE', 'REVOLUT', 'PMNT SENT', 'PMNT RCVD', 'TO', 'FROM', 'PARA', 'DE', 'FRA', 'TIL',
  'VAN', 'NAAR', 'AAN', 'AN', 'VON', 'OD', 'DO', 'A FAVORE DI', 'DA', 'NAAM', 'NAME', 'EVI', 'RECU', 'EMIS VERS', 'NA RACHUNEK', '365 ONLINE', 'MOBI', 'BGC', 'BANK GIRO CREDIT', 'FPI', 'FPO', 'FP', 'FPS', 'FASTER PAYMENT', 'FASTER PAYMENTS', 'CREDIT TRANSFER', 'AUTOMATED CREDIT', 'NETTGIRO', 'STO', 'SO', 'ORIG', 'BNF', 'STANDING ORDER', 'PARSKAITIJUMS', 'PERVEDIMAS', 'ULEKANNE', 'VIR', 'VIREMENT', 'NAZWA NADAWCY', 'NAZWA ODBIORCY', 'NADAWCA', 'ODBIORCA', 'TRF P', 'TRF DE', 'TRF IMED DE', 'BANK CREDIT',
]);
/** Words that say only a move between the holder's own accounts, in any line (a short word alone, such as Finnish OMA, is a grandmother on a German line). */
const BETWEEN_OWN_ACCOUNTS = ['OWN ACCOUNT', 'BUDGETKONTO', 'TARP SAVO SASKAITU', 'STARP SAVIEM KONTIEM', 'IEKSEJAIS PARSKAITIJUMS', 'UMBUCHUNG', 'EIGENUEBERTRAG', 'ENTRE CONTAS', 'SAVU KONTU', 'SAVO SASKAITA', 'OMA KONTO', 'OMALE KONTOLE', 'SAME NAME'];
const SURELY_OWN = phrasesRegex(BETWEEN_OWN_ACCOUNTS);
/** Moves between the holder's own accounts, read on a transfer's line. */
const OWN_ACCOUNTS = phrasesRegex([...BETWEEN_OWN_ACCOUNTS, 'OWN', 'COMPTE JOINT', 'GIROCONTO', 'INTERNE', 'TOP UP', 'EXCHANGED', 'ROUND UP', 'MY', 'WLASNY', 'WLASNE', 'EIGENE', 'EIGEN', 'EGEN', 'EGNE', 'OMA', 'OMALLE', 'PROPRIO', 'PROPRIA', 'PROPIA', 'SAV', 'SAVINGS', 'CHK', 'CHECKING', 'MMA', 'MONEY MARKET']);

/** A credit union's move to or from the holder's own loan or share (TRANSFER TO LOAN 40 AUTO LOAN PA): whatever the category, no one else's. */
const OWN_LOAN_OR_SHARE = phrasesRegex(['TRANSFER TO LOAN', 'TRANSFER FROM LOAN', 'TRANSFER TO SHARE', 'TRANSFER FROM SHARE', 'XFER TO LOAN', 'XFER FROM SHARE', 'TFR TO LOAN']);

const FACILITATORS = phrasesRegex([
  'PAYPAL', 'AMAZON PAYMENTS', 'KLARNA', 'STRIPE', 'ADYEN', 'LASTSCHRIFT AUS KARTENZAHLUNG', 'DZ BANK', 'NORISBANK DEBITKARTE', 'SUMUP', 'ZETTLE', 'IZETTLE', 'SQUARE', 'MOLLIE', 'WORLDLINE', 'NETS', 'GOCARDLESS', 'SATISPAY', 'PAYU', 'PRZELEWY24', 'BUCKAROO', 'CCV',
  'PAYONEER', 'TRUSTLY', 'PAYTRAIL', 'PAYCONIQ', 'MONTONIO', 'VISMA PAY', 'VISMA PAYMENT SOLUTIONS', 'MULTISAFEPAY', 'INFOMEDICS', 'NEXI', 'TIKKIE', 'MOBILEPAY', 'VIPPS', 'SWISH', 'PAYSERA', 'MAKSEKESKUS', 'CHECKOUT COM', 'SIX PAYMENT', 'PAYPLUG', 'LYRA', 'WISE', 'REVOLUT', 'MB WAY', 'BIZUM', 'LYDIA', 'LYDIA SOLUTIONS', 'PAYPRO',
]);
/** The same names where a name starts: a name read from a line's text is a facilitator's only so (SATISPAY EUROPE, not UNION SQUARE GREENMARKET). */
const FACILITATOR_FIRST = new RegExp(`^${FACILITATORS.source}`);

/** True when a name read from the line may be shown for a transaction of `detailed` category (null: none) with normalized `text`. */
export function mayNameParty(detailed: string | null, text: string): boolean {
  if ((detailed !== null && NAMELESS.has(detailed)) || OWN_LOAN_OR_SHARE.test(text)) return false;
  if (detailed !== null && TRANSFERS.has(detailed)) return TO_SOMEONE.test(text) && !OWN_ACCOUNTS.test(text);
  return true;
}

/** True when the normalized text says only a move between the holder's own accounts (STARP SAVIEM KONTIEM, BUDGETKONTO): no one else is named, whatever the bank's counterparty field holds. */
export function movesOwnMoney(text: string): boolean {
  return SURELY_OWN.test(text);
}

/** True when a counterparty's normalized name is a payment facilitator's (the shop is in the text): the bank's field may name it anywhere (AAB INZ TIKKIE). */
export function isFacilitator(normalized: string): boolean {
  return FACILITATORS.test(normalized);
}

/** True when a name read from the line (normalized) is a payment facilitator's own: it starts with one's name, and no trade's word follows (SQUARE ONE BAKERY, WISE OWL TUTORING are shops). */
export function namesFacilitator(normalized: string): boolean {
  const facilitator = FACILITATOR_FIRST.exec(normalized);
  return facilitator !== null && kindRule({ normalized: normalized.slice(facilitator[0].length).trim(), direction: 'out', accountKind: 'DEPOSITORY', nameWords: 2 }) === undefined;
}
