import { DAY } from './activity.ts';
import type { BridgeError, ConnectionAccount, Entry, FakeConnection, SimplefinTransaction } from './connection.ts';
import { centsToDecimal } from '../../../src/providers/sandbox/money.ts';

/** A request spans at most this many days; a wider one is answered for its most recent 90 days, with a warning. */
export const MAX_WINDOW_DAYS = 90;
/** A request reaching this many calendar days back is answered whole, with advice not to. */
export const RECOMMENDED_WINDOW_DAYS = 45;

export const WINDOW_CAPPED = 'Requested date range exceeds limit of 90 days and was capped.';
export const WINDOW_ADVICE = 'Requested date range exceeds recommended range of 45 days. In the future, this may be capped.';

/** `GET /accounts` parameters; any other parameter is ignored, as the Bridge does. */
export interface AccountsQuery {
  startDate: number | null;
  endDate: number | null;
  pending: boolean;
  accounts: string[];
  balancesOnly: boolean;
  /** The Bridge answers in the version 1 shape unless `version=2` is asked for. */
  version: 1 | 2;
}

export function parseAccountsQuery(params: URLSearchParams): AccountsQuery | { invalid: string } {
  const dates: { startDate: number | null; endDate: number | null } = { startDate: null, endDate: null };
  for (const [name, key] of [['start-date', 'startDate'], ['end-date', 'endDate']] as const) {
    const value = params.get(name);
    if (value === null) continue;
    if (!/^\d{1,12}$/.test(value)) return { invalid: `${name} must be a Unix timestamp in seconds` };
    dates[key] = Number(value);
  }
  return { ...dates, pending: params.get('pending') === '1', accounts: params.getAll('account'), balancesOnly: params.get('balances-only') === '1', version: params.get('version') === '2' ? 2 : 1 };
}

/** The span of posting times answered (`end` exclusive, as the protocol says) and the warning it earns. */
export function windowOf(query: AccountsQuery, now: number): { start: number; end: number; warning: string | null } {
  // Without end-date everything up to now is answered, including what happened at this very second.
  const end = query.endDate ?? now + 1;
  const capped = end - MAX_WINDOW_DAYS * DAY;
  if (query.startDate === null) return { start: capped, end, warning: null };
  if (query.startDate <= capped) return { start: capped, end, warning: WINDOW_CAPPED };
  // The advice counts calendar days, whatever the time of day.
  const days = Math.floor(end / DAY) - Math.floor(query.startDate / DAY);
  return { start: query.startDate, end, warning: days >= RECOMMENDED_WINDOW_DAYS ? WINDOW_ADVICE : null };
}

/** The Account Set for `connection` at `now`, in the version the query asks for. */
export function accountSet(connection: FakeConnection, query: AccountsQuery, now: number, sfinUrl: string, warnings: string[]): object {
  const window = windowOf(query, now);
  const errors = [...connection.errors, ...[window.warning, ...warnings].filter((msg) => msg !== null).map((msg) => ({ code: 'gen.api', msg }))];
  const entries = query.balancesOnly ? [] : connection.entries(now).filter((entry) => inWindow(entry, window, query.pending));
  const accounts = connection.accounts.filter((account) => query.accounts.length === 0 || query.accounts.includes(account.id));
  // A dated request is answered with the balance as of its end-date, dated so.
  const asOf = query.endDate === null ? null : Math.min(query.endDate, now);
  const described = accounts.map((account) => {
    const balance = connection.balanceCents(account, now, asOf);
    const available = asOf === null ? connection.availableCents(account, now) : (account.template.limit ?? 0) + balance;
    const transactions = entries.filter((entry) => entry.account === account).map((entry) => (query.version === 2 ? entry.transaction : versionOne(entry.transaction)));
    const common = { id: account.id, name: account.template.name, currency: 'USD', balance: centsToDecimal(balance), 'available-balance': centsToDecimal(available), 'balance-date': asOf ?? now, transactions, holdings: connection.holdings(account, asOf ?? now) };
    return query.version === 2 ? { ...common, conn_id: account.login.connId } : { org: orgOf(account, sfinUrl), ...common };
  });
  if (query.version === 1) return { errors: errors.map((error) => error.msg), accounts: described };
  const logins = [...new Set(accounts.map((account) => account.login))];
  return {
    errlist: errors,
    connections: logins.map((login) => ({ conn_id: login.connId, name: login.name, org_id: login.orgId, org_name: login.org.name, org_url: `https://${login.org.domain}`, sfin_url: sfinUrl })),
    accounts: described,
  };
}

/** The body of a refusal (403, 402), in the version asked for. */
export function errorSet(version: 1 | 2, error: BridgeError): object {
  return version === 2 ? { errlist: [error], connections: [], accounts: [] } : { errors: [error.msg], accounts: [] };
}

function inWindow(entry: Entry, window: { start: number; end: number }, includePending: boolean): boolean {
  const { transaction } = entry;
  if (transaction.pending) return includePending && transaction.transacted_at! >= window.start && transaction.transacted_at! < window.end;
  return transaction.posted >= window.start && transaction.posted < window.end;
}

function versionOne(transaction: SimplefinTransaction) {
  const { payee: _payee, memo: _memo, mcc: _mcc, ...rest } = transaction;
  return rest;
}

function orgOf(account: ConnectionAccount, sfinUrl: string) {
  const { org, orgId } = account.login;
  return { domain: org.domain, name: org.name, 'sfin-url': sfinUrl, url: `https://${org.domain}`, id: orgId };
}
