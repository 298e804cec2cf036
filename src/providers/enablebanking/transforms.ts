import type { AccountKind, ProviderAccount, ProviderBalance, ProviderTransaction, UnreadableItem } from '../provider-records.ts';
import type { AccountResource, AmountType, BalanceResource, BalanceStatus, EbTransaction } from './api.ts';
import { counterpartName, entryIds, type StatusedEntry } from './transaction-ids.ts';

/** EB's amounts (`AmountType.amount` in its reference): a sign, then any number of digits and decimals. */
const AMOUNT = /^-?\d+(\.\d+)?$/;
/** What Tributary stores (numeric(19,4)): up to 15 integer and 4 fraction digits. */
const INTEGER_DIGITS = 15;
const FRACTION_DIGITS = 4;
const CURRENCY = /^[A-Z]{3}$/;

/**
 * Which reported balance is Tributary's `current` and which its `available`, first present wins
 * (docs/decisions/providers-enablebanking-balances.md): booked balances are the current one (the
 * intraday one before the last closing), available ones the available; an expected balance (booked
 * plus pending) stands in for current only when the bank reports no booked one.
 */
export const CURRENT_BALANCE_TYPES: readonly BalanceStatus[] = ['ITBD', 'CLBD', 'OPBD', 'XPCD', 'VALU'];
export const AVAILABLE_BALANCE_TYPES: readonly BalanceStatus[] = ['ITAV', 'CLAV', 'OPAV'];

const KINDS: Record<string, { kind: AccountKind; subtype: string | null }> = {
  CACC: { kind: 'DEPOSITORY', subtype: 'checking' },
  SVGS: { kind: 'DEPOSITORY', subtype: 'savings' },
  CASH: { kind: 'DEPOSITORY', subtype: 'cash management' },
  CARD: { kind: 'CREDIT', subtype: 'credit card' },
  LOAN: { kind: 'LOAN', subtype: null },
};

/**
 * An account from its details and balances. Its name is what the holder calls it (`details`) or the
 * bank's product name, never `name` (the holder's own name). Balances are signed as the bank reports
 * them (negative: owed); `credit_limit`, "the maximum credit or overdraft allowed" (a card's credit
 * limit, a current account's overdraft), is the negative limit Tributary's signs want, whatever the
 * kind. A figure Tributary cannot store exactly is unknown (null) and added to `leftOut`.
 */
export function toAccount(uid: string, details: AccountResource, balances: BalanceResource[], at: Date, leftOut: UnreadableItem[] = []): ProviderAccount {
  const currencyCode = CURRENCY.test(details.currency) ? details.currency : 'XXX';
  const { kind, subtype } = KINDS[details.cash_account_type ?? ''] ?? { kind: 'DEPOSITORY' as const, subtype: null };
  const identifier = identifierOf(details);
  const figure = (amount: unknown, read: (amount: unknown) => Stored) => storedOrNull(read(amount), { accountRemoteId: uid, what: 'BALANCE' }, leftOut);
  const limit = details.credit_limit ? figure(details.credit_limit.amount, magnitudeOf) : null;
  return {
    remoteId: uid,
    name: plainText(details.details || details.product || '') || (subtype ? `${subtype[0]!.toUpperCase()}${subtype.slice(1)} account` : 'Account'),
    kind,
    subtype,
    state: 'OPEN',
    mask: identifier ? identifier.slice(-4) : null,
    currencyCode,
    balance: toBalance(balances, currencyCode, limit === null ? null : negated(limit), at, (amount) => figure(amount, exactOf)),
    identifier,
  };
}

/** The balance of an account from the list EB reports, in the account's currency; `read` turns an amount into what is stored. */
function toBalance(balances: BalanceResource[], currencyCode: string, limit: string | null, at: Date, read: (amount: unknown) => string | null): ProviderBalance {
  const inCurrency = balances.filter((balance) => balance.balance_amount?.currency === currencyCode);
  const pick = (types: readonly BalanceStatus[]) => types.map((type) => inCurrency.find((balance) => balance.balance_type === type)).find(Boolean);
  const current = pick(CURRENT_BALANCE_TYPES);
  const available = pick(AVAILABLE_BALANCE_TYPES);
  const changed = [current, available].map((balance) => balance?.last_change_date_time).find((value) => value && !Number.isNaN(Date.parse(value)));
  return {
    at: changed ? new Date(changed) : at,
    current: current ? read(current.balance_amount.amount) : null,
    available: available ? read(available.balance_amount.amount) : null,
    limit,
  };
}

/** The IBAN, else the bank's other account number, without spaces: matches the account across sessions. */
export function identifierOf(details: AccountResource): string | null {
  const raw = details.account_id?.iban ?? details.account_id?.other?.identification ?? null;
  const clean = raw?.replace(/\s+/g, '').toUpperCase();
  return clean ? clean.slice(0, 64) : null;
}

/**
 * Tributary's status of an entry (docs/decisions/providers-enablebanking-transactions.md): booked is
 * posted; pending and held (a card authorisation) are pending; cancelled, rejected and scheduled
 * (a future standing order) entries are no movement of money and are left out, as is OTHR.
 */
export function statusOf(entry: EbTransaction): 'PENDING' | 'POSTED' | null {
  switch (entry.status) {
    case 'BOOK':
      return 'POSTED';
    case 'PDNG':
    case 'HOLD':
      return 'PENDING';
    default:
      return null;
  }
}

/**
 * One account's entries as transactions, with stable ids; `today` dates a pending entry that has no
 * day. An entry whose money or direction cannot be read, or not stored exactly, is left out (added
 * to `leftOut`): a guess, or a rounded amount, would be stored as truth.
 */
export function toTransactions(accountUid: string, accountKey: string, accountCurrency: string, entries: EbTransaction[], today: string, at: Date, leftOut: UnreadableItem[] = []): ProviderTransaction[] {
  const kept: (StatusedEntry & { magnitude: string })[] = [];
  const leave = (reason: string) => leftOut.push({ accountRemoteId: accountUid, what: 'TRANSACTION', reason });
  for (const entry of entries) {
    if (typeof entry !== 'object' || entry === null) {
      leave('the entry is not an object');
      continue;
    }
    const status = statusOf(entry);
    if (!status) continue;
    const read = readEntry(entry);
    if ('problem' in read) leave(read.problem);
    else kept.push({ entry, status, magnitude: read.value });
  }
  const ids = entryIds(accountKey, kept);
  const timestamp = at.toISOString();
  return kept.map(({ entry, status, magnitude }, index) => {
    const amount = entry.credit_debit_indicator === 'CRDT' ? magnitude : negated(magnitude);
    const original = originalOf(entry, accountCurrency, magnitude, (reason) => leftOut.push({ accountRemoteId: accountUid, what: 'ORIGINAL_AMOUNT', reason }));
    const counterparty = counterpartName(entry);
    return {
      ...ids[index]!,
      accountRemoteId: accountUid,
      date: (status === 'POSTED' ? (entry.booking_date ?? entry.value_date ?? entry.transaction_date) : (entry.transaction_date ?? entry.value_date ?? entry.booking_date)) ?? today,
      description: descriptionOf(entry),
      amount,
      status,
      originalAmount: original ? (entry.credit_debit_indicator === 'CRDT' ? original.amount : negated(original.amount)) : null,
      originalCurrencyCode: original?.currency ?? null,
      raw: { ...entry, timestamp },
      enrichment: {
        categories: [],
        // The bank's payer or payee, not a merchant's name: enrichment reads a name from it (provider-hints.ts).
        merchantName: null,
        counterpartyName: counterparty ? plainText(counterparty) : null,
        // The card payment's merchant category (ISO 18245, as the reference describes it): a hint for enrichment.
        mcc: mccOf(entry),
        logo: null,
        website: null,
        timestamp,
      },
    };
  });
}

/** The entry's merchant category code when it is one (four digits, ISO 18245); a bank's other text is no code. */
function mccOf(entry: EbTransaction): string | null {
  const code = entry.merchant_category_code?.trim();
  return code && /^\d{4}$/.test(code) ? code : null;
}

/**
 * What the entry was for: the remittance information (the payment's message, or for a card payment
 * the merchant the bank names), else the counterpart's name, else the bank's transaction code text.
 */
export function descriptionOf(entry: EbTransaction): string {
  const remittance = plainText((entry.remittance_information ?? []).filter((line) => typeof line === 'string').join(' '));
  return remittance || plainText(counterpartName(entry) ?? '') || plainText(entry.bank_transaction_code?.description ?? '') || '(no description)';
}

/**
 * The amount in the currency the payment was made in, when it differs from the account's (`magnitude`:
 * the entry's own). An instructed amount that cannot be stored exactly is left out (`leftOut`), the entry kept.
 */
function originalOf(entry: EbTransaction, accountCurrency: string, magnitude: string, leftOut: (reason: string) => void): AmountType | null {
  const instructed = entry.exchange_rate?.instructed_amount;
  if (instructed && typeof instructed.currency === 'string' && CURRENCY.test(instructed.currency) && instructed.currency !== entry.transaction_amount.currency) {
    const read = magnitudeOf(instructed.amount);
    if ('value' in read) return { currency: instructed.currency, amount: read.value };
    leftOut(read.problem);
    return null;
  }
  // The entry itself in another currency than the account's: that is what was paid.
  if (entry.transaction_amount.currency !== accountCurrency) return { currency: entry.transaction_amount.currency, amount: magnitude };
  return null;
}

/** The entry's unsigned amount as stored, or why it cannot be read or stored. */
function readEntry(entry: EbTransaction): Stored {
  const amount = entry.transaction_amount;
  if (typeof amount !== 'object' || amount === null) return { problem: 'the entry has no transaction_amount' };
  if (typeof amount.currency !== 'string' || !CURRENCY.test(amount.currency)) return { problem: 'the currency is not an ISO 4217 code' };
  if (entry.credit_debit_indicator !== 'CRDT' && entry.credit_debit_indicator !== 'DBIT') return { problem: 'the entry is neither a credit nor a debit' };
  return magnitudeOf(amount.amount);
}

type Stored = { value: string } | { problem: string };

/**
 * An amount as EB writes it, exactly as Tributary stores it: leading zeros and fraction zeros past
 * the fourth digit dropped (the same number), anything else kept. More digits than numeric(19,4)
 * holds cannot be stored without rounding, which Tributary never does
 * (docs/decisions/providers-enablebanking-amounts.md).
 */
function exactOf(amount: unknown): Stored {
  if (typeof amount !== 'string' || !AMOUNT.test(amount)) return { problem: 'the amount is not a decimal number' };
  const [whole = '', fraction = ''] = amount.replace(/^-/, '').split('.');
  const integer = whole.replace(/^0+(?=\d)/, '');
  const digits = fraction.length > FRACTION_DIGITS ? fraction.replace(/0+$/, '') : fraction;
  if (digits.length > FRACTION_DIGITS) return { problem: `the amount has more than ${FRACTION_DIGITS} fraction digits` };
  if (integer.length > INTEGER_DIGITS) return { problem: `the amount has more than ${INTEGER_DIGITS} integer digits` };
  return { value: `${amount.startsWith('-') ? '-' : ''}${integer}${digits ? `.${digits}` : ''}` };
}

/**
 * The unsigned amount: EB gives an entry's direction in `credit_debit_indicator` (and a limit's by
 * its meaning); a minus sign some banks put in front as well says nothing more.
 */
function magnitudeOf(amount: unknown): Stored {
  return exactOf(typeof amount === 'string' ? amount.replace(/^-/, '') : amount);
}

function storedOrNull(read: Stored, item: Omit<UnreadableItem, 'reason'>, leftOut: UnreadableItem[]): string | null {
  if ('value' in read) return read.value;
  leftOut.push({ ...item, reason: read.problem });
  return null;
}

function negated(amount: string): string {
  if (amount.startsWith('-')) return amount.slice(1);
  return /^0(\.0+)?$/.test(amount) ? amount : `-${amount}`;
}

/** Text from the bank is shown to end-users: one plain line, bounded. */
export function plainText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f<>]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
}
