import type { AccountKind, ProviderAccount, ProviderTransaction } from '../provider-records.ts';
import { ProviderError } from '../provider-errors.ts';

/** The protocol's Account and Transaction (https://www.simplefin.org/protocol.html). */
export interface SimplefinAccount {
  /** Version 1 only; version 2 names the bank login by `conn_id`. */
  org?: { domain?: string; name?: string; 'sfin-url'?: string; id?: string };
  conn_id?: string;
  id: string;
  name: string;
  currency: string;
  balance: string;
  'available-balance'?: string;
  'balance-date': number;
  transactions?: SimplefinTransaction[];
  holdings?: unknown[];
  extra?: Record<string, unknown>;
}

export interface SimplefinTransaction {
  id: string;
  posted: number;
  amount: string;
  description: string;
  transacted_at?: number;
  pending?: boolean;
  payee?: string;
  memo?: string;
  extra?: Record<string, unknown>;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const KIND_WORDS: Array<[RegExp, AccountKind]> = [
  [/\b(credit|card|visa|mastercard|amex|discover)\b/i, 'CREDIT'],
  [/\b(loan|mortgage|heloc|auto|student)\b/i, 'LOAN'],
  [/\b(brokerage|invest\w*|401k|403b|ira|roth|retirement|hsa)\b/i, 'INVESTMENT'],
];

/**
 * SimpleFIN says nothing of account types: an account with holdings is an investment, else its name
 * decides, else it is a deposit account. Balances are already the holder's view (what a card owes
 * is negative), as Tributary's signs want; SimpleFIN reports no limits.
 */
export function toAccount(account: SimplefinAccount): ProviderAccount {
  const kind = account.holdings?.length ? 'INVESTMENT' : (KIND_WORDS.find(([pattern]) => pattern.test(account.name))?.[1] ?? 'DEPOSITORY');
  return {
    remoteId: account.id,
    name: account.name,
    kind,
    subtype: null,
    state: 'OPEN',
    mask: null,
    currencyCode: /^[A-Z]{3}$/.test(account.currency) ? account.currency : 'XXX',
    balance: {
      at: new Date(account['balance-date'] * 1000),
      current: decimal(account.balance),
      available: account['available-balance'] === undefined ? decimal(account.balance) : decimal(account['available-balance']),
      limit: null,
    },
  };
}

/**
 * Amounts are already signed as Tributary's (positive = money in). Ids are unique within an account
 * only, so the account is part of the stored id. The date is the posting day (UTC), or for a pending
 * entry the day it happened.
 */
export function toTransaction(account: SimplefinAccount, transaction: SimplefinTransaction, at: Date): ProviderTransaction {
  const pending = transaction.pending === true || !transaction.posted;
  const timestamp = at.toISOString();
  const when = pending ? (transaction.transacted_at ?? transaction.posted ?? account['balance-date']) : transaction.posted;
  const category = transaction.extra?.category;
  return {
    remoteId: `${account.id}:${transaction.id}`,
    accountRemoteId: account.id,
    pendingRemoteId: null,
    date: new Date(when * 1000).toISOString().slice(0, 10),
    description: transaction.description || transaction.payee || '(no description)',
    amount: decimal(transaction.amount)!,
    status: pending ? 'PENDING' : 'POSTED',
    raw: { ...transaction, timestamp },
    enrichment: {
      categories: typeof category === 'string' ? [category] : [],
      counterpartyName: transaction.payee ?? null,
      logo: null,
      website: null,
      timestamp,
    },
  };
}

function decimal(value: string | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !DECIMAL.test(value)) throw new ProviderError('ERROR_PROVIDER', 'SimpleFIN sent an amount that is not a decimal string');
  return value;
}

/** Error messages are meant for the end-user but come from elsewhere: plain text, one line, bounded. */
export function sanitize(message: string): string {
  return message.replace(/[\u0000-\u001f\u007f<>]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
}
