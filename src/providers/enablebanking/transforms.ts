import { ProviderError, type AccountKind, type ProviderAccount, type ProviderBalance, type ProviderTransaction } from '../provider.ts';
import type { AccountResource, AmountType, BalanceResource, BalanceStatus, EbTransaction } from './api.ts';
import { counterpartName, entryIds, type StatusedEntry } from './transaction-ids.ts';

/** What Tributary stores: up to 15 integer and 4 fraction digits (numeric(19,4)). */
const MAGNITUDE = /^\d{1,15}(\.\d{1,4})?$/;
const SIGNED = /^-?\d{1,15}(\.\d{1,4})?$/;
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
 * them (negative: owed); a card's credit limit is negative, as Tributary's signs want.
 */
export function toAccount(uid: string, details: AccountResource, balances: BalanceResource[], at: Date): ProviderAccount {
  const currencyCode = CURRENCY.test(details.currency) ? details.currency : 'XXX';
  const { kind, subtype } = KINDS[details.cash_account_type ?? ''] ?? { kind: 'DEPOSITORY' as const, subtype: null };
  const identifier = identifierOf(details);
  return {
    remoteId: uid,
    name: plainText(details.details || details.product || '') || (subtype ? `${subtype[0]!.toUpperCase()}${subtype.slice(1)} account` : 'Account'),
    kind,
    subtype,
    state: 'OPEN',
    mask: identifier ? identifier.slice(-4) : null,
    currencyCode,
    balance: toBalance(balances, currencyCode, kind === 'CREDIT' && details.credit_limit ? negated(signed(details.credit_limit.amount)) : null, at),
    identifier,
  };
}

/** The balance of an account from the list EB reports, in the account's currency. */
export function toBalance(balances: BalanceResource[], currencyCode: string, limit: string | null, at: Date): ProviderBalance {
  const inCurrency = balances.filter((balance) => balance.balance_amount?.currency === currencyCode);
  const pick = (types: readonly BalanceStatus[]) => types.map((type) => inCurrency.find((balance) => balance.balance_type === type)).find(Boolean);
  const current = pick(CURRENT_BALANCE_TYPES);
  const available = pick(AVAILABLE_BALANCE_TYPES);
  const changed = [current, available].map((balance) => balance?.last_change_date_time).find((value) => value && !Number.isNaN(Date.parse(value)));
  return {
    at: changed ? new Date(changed) : at,
    current: current ? signed(current.balance_amount.amount) : null,
    available: available ? signed(available.balance_amount.amount) : null,
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

/** One account's entries as transactions, with stable ids; `today` dates a pending entry that has no day. */
export function toTransactions(accountUid: string, accountKey: string, accountCurrency: string, entries: EbTransaction[], today: string, at: Date): ProviderTransaction[] {
  const kept: StatusedEntry[] = [];
  for (const entry of entries) {
    const status = statusOf(entry);
    if (status) kept.push({ entry: checked(entry), status });
  }
  const ids = entryIds(accountKey, kept);
  const timestamp = at.toISOString();
  return kept.map(({ entry, status }, index) => {
    const amount = entry.credit_debit_indicator === 'CRDT' ? magnitude(entry.transaction_amount.amount) : negated(magnitude(entry.transaction_amount.amount));
    const original = originalOf(entry, accountCurrency);
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
        counterpartyName: counterparty ? plainText(counterparty) : null,
        logo: null,
        website: null,
        timestamp,
      },
    };
  });
}

/**
 * What the entry was for: the remittance information (the payment's message, or for a card payment
 * the merchant the bank names), else the counterpart's name, else the bank's transaction code text.
 */
export function descriptionOf(entry: EbTransaction): string {
  const remittance = plainText((entry.remittance_information ?? []).filter((line) => typeof line === 'string').join(' '));
  return remittance || plainText(counterpartName(entry) ?? '') || plainText(entry.bank_transaction_code?.description ?? '') || '(no description)';
}

/** The amount in the currency the payment was made in, when it differs from the account's. */
function originalOf(entry: EbTransaction, accountCurrency: string): AmountType | null {
  const instructed = entry.exchange_rate?.instructed_amount;
  if (instructed && CURRENCY.test(instructed.currency) && instructed.currency !== entry.transaction_amount.currency) {
    return { currency: instructed.currency, amount: magnitude(instructed.amount) };
  }
  // The entry itself in another currency than the account's: that is what was paid.
  if (entry.transaction_amount.currency !== accountCurrency) return { currency: entry.transaction_amount.currency, amount: magnitude(entry.transaction_amount.amount) };
  return null;
}

/** An entry whose money or direction cannot be read is refused whole: a guess would be stored as truth. */
function checked(entry: EbTransaction): EbTransaction {
  const amount = entry.transaction_amount;
  if (!amount || typeof amount.amount !== 'string' || !MAGNITUDE.test(amount.amount) || typeof amount.currency !== 'string' || !CURRENCY.test(amount.currency)) {
    throw new ProviderError('ERROR_PROVIDER', 'Enable Banking sent a transaction amount that is not an unsigned decimal string with a currency', { retryAfterSeconds: 3600 });
  }
  if (entry.credit_debit_indicator !== 'CRDT' && entry.credit_debit_indicator !== 'DBIT') {
    throw new ProviderError('ERROR_PROVIDER', 'Enable Banking sent a transaction that is neither a credit nor a debit', { retryAfterSeconds: 3600 });
  }
  return entry;
}

function magnitude(amount: string): string {
  if (!MAGNITUDE.test(amount)) throw new ProviderError('ERROR_PROVIDER', 'Enable Banking sent an amount that is not an unsigned decimal string', { retryAfterSeconds: 3600 });
  return amount;
}

function signed(amount: string): string {
  if (typeof amount !== 'string' || !SIGNED.test(amount)) throw new ProviderError('ERROR_PROVIDER', 'Enable Banking sent a balance that is not a decimal string', { retryAfterSeconds: 3600 });
  return amount;
}

function negated(amount: string): string {
  if (amount.startsWith('-')) return amount.slice(1);
  return /^0(\.0+)?$/.test(amount) ? amount : `-${amount}`;
}

/** Text from the bank is shown to end-users: one plain line, bounded. */
export function plainText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f<>]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
}
