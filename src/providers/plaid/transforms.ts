import { CounterpartyType, type AccountBase, type Transaction } from 'plaid';
import type { AccountKind, ProviderAccount, ProviderBalance, ProviderTransaction } from '../provider.ts';
import { decimal, negate } from './money.ts';

const KINDS: Record<string, AccountKind> = { depository: 'DEPOSITORY', credit: 'CREDIT', loan: 'LOAN', investment: 'INVESTMENT', brokerage: 'INVESTMENT' };

/** Plaid's account type as Tributary's kind; `other` accounts are treated as deposits. */
export function kindOf(type: string): AccountKind {
  return KINDS[type] ?? 'DEPOSITORY';
}

/**
 * Balances in SPEC §2's convention. Plaid reports what a liability owes as a positive `current`, and
 * every limit (a card's credit limit, a depository account's overdraft limit: what the holder may
 * owe) as a positive number; Tributary's are negative. `available` (credit still available, or
 * money that can be spent) keeps its sign.
 */
export function toBalance(account: AccountBase, at: Date): ProviderBalance {
  const liability = isLiability(account.type);
  const current = decimal(account.balances.current);
  const limit = decimal(account.balances.limit);
  return {
    at,
    available: decimal(account.balances.available),
    current: current !== null && liability ? negate(current) : current,
    limit: limit === null ? null : negate(limit),
  };
}

export function toAccount(account: AccountBase, at: Date): ProviderAccount {
  return {
    remoteId: account.account_id,
    name: account.name,
    kind: kindOf(account.type),
    subtype: account.subtype ?? null,
    state: 'OPEN',
    mask: account.mask,
    currencyCode: currencyOf(account.balances),
    balance: toBalance(account, at),
  };
}

/**
 * Plaid's amounts are positive when money leaves the account, for every account type; Tributary's
 * are positive when money comes in. The whole Plaid object is kept under remoteData.plaid.
 */
export function toTransaction(transaction: Transaction, at: Date): ProviderTransaction {
  const timestamp = at.toISOString();
  const category = transaction.personal_finance_category;
  const counterparty = transaction.counterparties?.find((candidate) => candidate.type === CounterpartyType.Merchant) ?? transaction.counterparties?.[0];
  return {
    remoteId: transaction.transaction_id,
    accountRemoteId: transaction.account_id,
    pendingRemoteId: transaction.pending ? null : (transaction.pending_transaction_id ?? null),
    date: transaction.date,
    description: transaction.merchant_name ?? transaction.name,
    amount: negate(decimal(transaction.amount)!),
    status: transaction.pending ? 'PENDING' : 'POSTED',
    raw: { ...transaction, timestamp },
    enrichment: {
      categories: category ? [category.primary, category.detailed] : (transaction.category ?? []),
      counterpartyName: transaction.merchant_name ?? counterparty?.name ?? null,
      logo: transaction.logo_url ?? counterparty?.logo_url ?? null,
      website: transaction.website ?? counterparty?.website ?? null,
      timestamp,
    },
  };
}

function isLiability(type: string): boolean {
  return type === 'credit' || type === 'loan';
}

function currencyOf(balances: AccountBase['balances']): string {
  return balances.iso_currency_code ?? balances.unofficial_currency_code ?? 'USD';
}

