import { describe, expect, it } from 'vitest';
import type { AccountBase, Transaction } from 'plaid';
import { mapPlaidError } from '../../src/providers/plaid/errors.ts';
import { decimal, negate } from '../../src/providers/plaid/money.ts';
import { toAccount, toBalance, toTransaction } from '../../src/providers/plaid/transforms.ts';
import { actionsOf } from '../../src/providers/plaid/webhooks.ts';
import { ProviderBusy, ProviderError, SyncRestart } from '../../src/providers/provider-errors.ts';

const AT = new Date('2026-11-01T12:00:00Z');

function account(type: string, subtype: string, balances: Partial<AccountBase['balances']>): AccountBase {
  return {
    account_id: `acc_${type}`,
    balances: { available: null, current: null, limit: null, iso_currency_code: 'USD', unofficial_currency_code: null, ...balances },
    mask: '0000',
    name: `${type} account`,
    official_name: null,
    type,
    subtype,
  } as AccountBase;
}

function transaction(overrides: Partial<Transaction>): Transaction {
  return {
    transaction_id: 'txn_1',
    account_id: 'acc_depository',
    amount: '56.78' as unknown as number,
    iso_currency_code: 'USD',
    unofficial_currency_code: null,
    date: '2026-10-30',
    name: 'STARBUCKS 1234',
    merchant_name: 'Starbucks',
    pending: false,
    pending_transaction_id: null,
    personal_finance_category: { primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_COFFEE', confidence_level: 'VERY_HIGH' },
    logo_url: 'https://plaid-merchant-logos.plaid.com/starbucks.png',
    website: 'starbucks.com',
    ...overrides,
  } as Transaction;
}

describe('Plaid money', () => {
  it('keeps the exact decimal text and flips signs without floats', () => {
    expect(decimal('0.1')).toBe('0.1');
    expect(decimal('-16023.47')).toBe('-16023.47');
    expect(decimal('12345678901234567.89')).toBe('12345678901234567.89');
    expect(decimal(null)).toBeNull();
    expect(negate('56.78')).toBe('-56.78');
    expect(negate('-1500.00')).toBe('1500.00');
    expect(negate('0.00')).toBe('0.00');
    expect(negate('-0')).toBe('0');
    expect(() => decimal('1e400')).toThrow(ProviderError);
  });
});

describe('Plaid accounts and balances in Tributary\'s sign conventions (money in positive, owed negative)', () => {
  it('maps types to kinds', () => {
    expect(toAccount(account('depository', 'checking', {}), AT).kind).toBe('DEPOSITORY');
    expect(toAccount(account('credit', 'credit card', {}), AT).kind).toBe('CREDIT');
    expect(toAccount(account('loan', 'mortgage', {}), AT).kind).toBe('LOAN');
    expect(toAccount(account('investment', '401k', {}), AT).kind).toBe('INVESTMENT');
    expect(toAccount(account('brokerage', 'brokerage', {}), AT).kind).toBe('INVESTMENT');
    expect(toAccount(account('other', 'other', {}), AT).kind).toBe('DEPOSITORY');
  });

  it('makes what a card or loan owes, and a card limit, negative; keeps assets and available credit as they are', () => {
    const card = toBalance(account('credit', 'credit card', { current: '2134.34' as never, available: '7865.66' as never, limit: '10000' as never }), AT);
    expect(card).toMatchObject({ current: '-2134.34', available: '7865.66', limit: '-10000' });
    const loan = toBalance(account('loan', 'student', { current: '15000.10' as never }), AT);
    expect(loan).toMatchObject({ current: '-15000.10', available: null, limit: null });
    const checking = toBalance(account('depository', 'checking', { current: '110.5' as never, available: '100' as never }), AT);
    expect(checking).toMatchObject({ current: '110.5', available: '100', limit: null });
  });

  it('makes a depository overdraft limit negative, like a card limit: it is what the holder may owe', () => {
    const overdraft = toBalance(account('depository', 'checking', { current: '-20.5' as never, available: '0' as never, limit: '500.25' as never }), AT);
    expect(overdraft).toMatchObject({ current: '-20.5', available: '0', limit: '-500.25' });
  });

  it('takes the currency from iso_currency_code, else unofficial_currency_code', () => {
    expect(toAccount(account('depository', 'checking', { iso_currency_code: 'EUR' }), AT).currencyCode).toBe('EUR');
    expect(toAccount(account('depository', 'checking', { iso_currency_code: null, unofficial_currency_code: 'CAD' }), AT).currencyCode).toBe('CAD');
  });
});

describe('Plaid transactions', () => {
  it('turns money out (Plaid positive) into a negative amount, and keeps Plaid’s object and enrichment', () => {
    const mapped = toTransaction(transaction({}), AT);
    expect(mapped.amount).toBe('-56.78');
    expect(mapped.status).toBe('POSTED');
    expect(mapped.raw).toMatchObject({ transaction_id: 'txn_1', timestamp: AT.toISOString() });
    expect(mapped.enrichment).toMatchObject({ categories: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_COFFEE'], counterpartyName: 'Starbucks', website: 'starbucks.com' });
  });

  it('hands Plaid’s payment channel to the enrichment as its hint, and no merchant category code (Plaid’s transactions carry none)', () => {
    const channelOf = (channel: string) => toTransaction(transaction({ payment_channel: channel as never }), AT).enrichment!.paymentChannel;
    expect(['online', 'in store', 'other'].map(channelOf)).toEqual(['ONLINE', 'IN_STORE', 'OTHER']);
    expect(channelOf('a channel Plaid adds later')).toBeNull();
    expect(toTransaction(transaction({}), AT).enrichment).not.toHaveProperty('mcc');
  });

  it('turns money in (Plaid negative) into a positive amount', () => {
    expect(toTransaction(transaction({ amount: '-1500.00' as never }), AT).amount).toBe('1500.00');
  });

  it('links a posted transaction to the pending one it replaces, and never a pending one', () => {
    expect(toTransaction(transaction({ pending_transaction_id: 'txn_p' }), AT).pendingRemoteId).toBe('txn_p');
    const pending = toTransaction(transaction({ pending: true, pending_transaction_id: 'x' }), AT);
    expect(pending).toMatchObject({ status: 'PENDING', pendingRemoteId: null });
  });
});

describe('Plaid errors', () => {
  const failure = (status: number, data: object, headers: Record<string, string> = {}) => ({ response: { status, data, headers } });

  it('maps each failure to a connection state, a retry, or a restart of the walk', () => {
    expect(mapPlaidError(failure(400, { error_type: 'ITEM_ERROR', error_code: 'ITEM_LOGIN_REQUIRED' }))).toMatchObject({ status: 'ERROR_REPAIRABLE' });
    expect(mapPlaidError(failure(400, { error_type: 'INSTITUTION_ERROR', error_code: 'INSTITUTION_DOWN' }))).toMatchObject({ status: 'ERROR_INSTITUTION' });
    expect(mapPlaidError(failure(500, { error_type: 'API_ERROR', error_code: 'INTERNAL_SERVER_ERROR' }))).toMatchObject({ status: 'ERROR_PROVIDER' });
    expect(mapPlaidError(failure(400, { error_type: 'INVALID_INPUT', error_code: 'INVALID_API_KEYS' }))).toMatchObject({ status: 'ERROR_SERVICE' });
    expect(mapPlaidError(failure(400, { error_type: 'TRANSACTIONS_ERROR', error_code: 'TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION' }))).toBeInstanceOf(SyncRestart);
    const limited = mapPlaidError(failure(429, { error_type: 'RATE_LIMIT_EXCEEDED', error_code: 'TRANSACTIONS_LIMIT' }, { 'retry-after': '17' }));
    expect(limited).toBeInstanceOf(ProviderBusy);
    expect((limited as ProviderBusy).retryAfterSeconds).toBe(17);
    expect(mapPlaidError({ code: 'ECONNRESET' })).toMatchObject({ status: 'ERROR_PROVIDER', retryAfterSeconds: 300 });
  });

  it('takes a request Plaid refuses as invalid for Tributary\'s own fault: no retry, with Plaid\'s request_id', () => {
    for (const [type, code] of [['INVALID_REQUEST', 'INVALID_FIELD'], ['INVALID_INPUT', 'INVALID_ACCOUNT_ID']]) {
      const refused = mapPlaidError(failure(400, { error_type: type, error_code: code, request_id: 'm8MDnv9okwxFNBV' }));
      expect(refused, code).toMatchObject({ status: 'ERROR_SERVICE', retryAfterSeconds: undefined, upstreamRequestId: 'm8MDnv9okwxFNBV' });
    }
  });
});

describe('Plaid webhooks', () => {
  it('maps the codes Tributary acts on, and ignores the rest', () => {
    const item = { item_id: 'item_1' };
    expect(actionsOf({ ...item, webhook_type: 'TRANSACTIONS', webhook_code: 'SYNC_UPDATES_AVAILABLE' })).toEqual([{ kind: 'SYNC', remoteId: 'item_1' }]);
    expect(actionsOf({ ...item, webhook_type: 'ITEM', webhook_code: 'ERROR', error: { error_code: 'ITEM_LOGIN_REQUIRED' } })).toMatchObject([{ kind: 'ERROR', state: 'ERROR_REPAIRABLE' }]);
    expect(actionsOf({ ...item, webhook_type: 'ITEM', webhook_code: 'PENDING_EXPIRATION', consent_expiration_time: '2026-12-01T00:00:00Z' })).toMatchObject([
      { kind: 'CONSENT_EXPIRING', expiresAt: '2026-12-01T00:00:00Z' },
    ]);
    expect(actionsOf({ ...item, webhook_type: 'ITEM', webhook_code: 'USER_PERMISSION_REVOKED' })).toEqual([{ kind: 'REVOKED', remoteId: 'item_1' }]);
    expect(actionsOf({ ...item, webhook_type: 'ITEM', webhook_code: 'NEW_ACCOUNTS_AVAILABLE' })).toEqual([{ kind: 'NEW_ACCOUNTS', remoteId: 'item_1' }]);
    expect(actionsOf({ ...item, webhook_type: 'TRANSACTIONS', webhook_code: 'DEFAULT_UPDATE' })).toEqual([]);
    expect(actionsOf({ webhook_type: 'TRANSACTIONS', webhook_code: 'SYNC_UPDATES_AVAILABLE' })).toEqual([]);
  });
});
