import type { components } from '../../../generated/rest.ts';
import { encodeId } from '../../lib/ids.ts';
import type { BalanceEntity } from '../balance/balance.entity.ts';
import type { AccountEntity } from './account.entity.ts';

type RestAccount = components['schemas']['Account'];
type RestBalance = components['schemas']['Balance'];

/** An account as the REST contract (and `account.verified` events) show it, with its latest balance. */
export function presentAccount(account: AccountEntity, balance: BalanceEntity | null): RestAccount {
  return {
    id: encodeId('account', account.id),
    connectionId: encodeId('connection', account.connection.id),
    name: account.nameOverride ?? account.name,
    kind: account.kind,
    subtype: account.subtype ?? null,
    state: account.state,
    verified: account.verified,
    mask: account.mask ?? null,
    currencyCode: account.currencyCode,
    balance: balance && presentBalance(balance),
    metadata: account.metadata ?? null,
    at: account.createdAt.toISOString(),
  };
}

/** A balance with exact amounts: numeric strings become JSON numbers only at the edge. */
export function presentBalance(balance: BalanceEntity): RestBalance {
  return {
    id: encodeId('balance', balance.id),
    accountId: encodeId('account', balance.account.id),
    at: balance.at.toISOString(),
    source: balance.source,
    available: decimalOrNull(balance.available),
    current: decimalOrNull(balance.current),
    limit: decimalOrNull(balance.limit),
    currencyCode: balance.currencyCode,
  };
}

/**
 * A stored decimal as a JSON number. Exact for every amount the contract allows (at most 15
 * significant digits): the shortest representation JSON.stringify prints is the decimal itself.
 */
export function decimalOrNull(value: string | null | undefined): number | null {
  return value == null ? null : Number(value);
}
