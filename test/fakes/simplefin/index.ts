import { DAY } from './activity.ts';
import { FakeBridge } from './bridge.ts';
import type { BudgetPolicy } from './budget.ts';
import type { BridgeHolding } from './brokerage.ts';
import type { AccountKey, AccountTemplate } from './catalog.ts';
import type { BridgeError, SimplefinTransaction, TransactionPatch } from './connection.ts';
import { centsToDecimal } from '../../../src/providers/sandbox/money.ts';
import { FakeSimplefinServer, ROOT, type RequestRecord } from './server.ts';

export type { AccountKey } from './catalog.ts';
export type { BridgeHolding } from './brokerage.ts';
export type { BridgeError, SimplefinTransaction, TransactionPatch } from './connection.ts';
export type { BudgetPolicy } from './budget.ts';
export type { RequestRecord } from './server.ts';
export { MAX_WINDOW_DAYS, RECOMMENDED_WINDOW_DAYS, WINDOW_ADVICE, WINDOW_CAPPED } from './account-set.ts';

export interface FakeSimplefinOptions {
  /** Every generated value (ids, credentials, amounts) derives from it. Default `tributary`. */
  seed?: string;
  /** The bridge's date when the fake starts; its clock starts at 12:00 UTC that day. Default: today. */
  today?: Date | string;
  /** Transactions in a new user's two years of history, across their accounts. Default 1,200. */
  transactionCount?: number;
  /** The request budget per access token; see `BudgetPolicy`. Default 24 a day, warn then disable at 96. */
  budget?: Partial<BudgetPolicy>;
  /** Certificate and key to serve with; default a fresh self-signed one for 127.0.0.1. */
  tls?: { cert: string; key: string };
}

/** An account of a fake user as the bridge reports it now. */
export interface FakeAccountSummary {
  id: string;
  key: AccountTemplate['key'];
  name: string;
  /** The v2 connection (the login at the institution) the account is reached through. */
  connId: string;
  orgName: string;
  orgDomain: string;
  balance: string;
  availableBalance: string;
}

/** A running fake SimpleFIN Bridge: its address, the certificate to trust, and the controls a test drives it with. */
export type FakeSimplefin = Awaited<ReturnType<typeof startFakeSimplefin>>;

/**
 * Starts a stateful fake of the SimpleFIN Bridge over HTTPS on 127.0.0.1, in this process. A test
 * makes a setup token, the client claims it (`POST`, once) and reads `{access URL}/accounts` with the
 * Access URL's credentials as HTTP Basic auth, trusting `ca`.
 */
export async function startFakeSimplefin(options: FakeSimplefinOptions = {}) {
  const perDay = options.budget?.perDay ?? 24;
  const bridge = new FakeBridge({
    seed: options.seed ?? 'tributary',
    now: noonOf(options.today ?? new Date()),
    transactionCount: options.transactionCount ?? 1_200,
    budget: { perDay, onExceeded: options.budget?.onExceeded ?? 'warn-then-disable', disableAfter: options.budget?.disableAfter ?? 4 * perDay },
  });
  const server = new FakeSimplefinServer(bridge, options.tls);
  const { url, ca } = await server.start();
  const connection = (connectionId: string) => bridge.connection(connectionId);
  const brokerageOf = (connectionId: string) => {
    const { brokerage } = connection(connectionId);
    if (!brokerage) throw new Error(`${connectionId} has no brokerage account: create it with createSetupToken({ brokerage: true })`);
    return brokerage;
  };
  const lapse = (connectionId: string | undefined, lapsed: boolean) => {
    for (const each of connectionId === undefined ? bridge.connections.values() : [connection(connectionId)]) each.lapsed = lapsed;
  };

  return {
    /** Origin of the fake (`https://127.0.0.1:<port>`); the protocol's root is `${url}/simplefin`. */
    url,
    sfinUrl: `${url}${ROOT}`,
    ca,
    /** Every request answered, in order, with claim codes and credentials left out. */
    requests: server.requests as readonly RequestRecord[],

    /** The bridge's clock, unix seconds. */
    now: () => bridge.now,
    /** The bridge's date, `YYYY-MM-DD`. */
    today: () => new Date(bridge.now * 1000).toISOString().slice(0, 10),

    /**
     * A setup token (base64 of its claim URL) for a new user with two years of history, or, with
     * `connectionId`, a new token for that user's data (a repair after revocation). `brokerage` gives
     * the new user a brokerage account with holdings too (at a third institution). `username` and
     * `password` choose the credentials the claim hands out (percent-encoded in the Access URL).
     */
    createSetupToken(tokenOptions: { connectionId?: string; orgs?: 1 | 2; brokerage?: boolean; username?: string; password?: string } = {}): { setupToken: string; connectionId: string } {
      const { code, connection: created } = bridge.createSetupToken(tokenOptions);
      return { setupToken: Buffer.from(server.claimUrl(code)).toString('base64'), connectionId: created.id };
    },

    /** Moves the bridge's clock (fractions allowed). New days bring payroll, bills and purchases; pending purchases post under new ids. */
    advanceClock(days: number): void {
      bridge.now += Math.round(days * DAY);
    },

    /** Posts a pending transaction (the oldest, or `transactionId`) now, under a new id; `amount` (e.g. `"-47.20"`) settles it differently, as a tip does. */
    postPending(connectionId: string, postOptions: { transactionId?: string; amount?: string } = {}): SimplefinTransaction {
      return connection(connectionId).postPending(bridge.now, postOptions.transactionId, postOptions.amount);
    },

    /** Every transaction dated from `from` to `to` (`YYYY-MM-DD`, inclusive; posting date, or transaction date while pending) gets a new id, same data. */
    reissueIds(connectionId: string, range: { from: string; to: string }): { oldId: string; newId: string }[] {
      return connection(connectionId).reissueIds(bridge.now, dayOf(range.from), dayOf(range.to));
    },

    /** `n` card purchases made now (on the card or checking as drawn, or on `account`), pending or posted as drawn unless `pending` says. */
    addTransactions(connectionId: string, n: number, addOptions: { pending?: boolean; account?: AccountKey } = {}): SimplefinTransaction[] {
      return connection(connectionId).addTransactions(bridge.now, n, addOptions);
    },

    modifyTransaction(connectionId: string, transactionId: string, patch: TransactionPatch): SimplefinTransaction {
      return connection(connectionId).modifyTransaction(bridge.now, transactionId, patch);
    },

    /** The institution drops a transaction: a pending one never posts, a posted one leaves the feed. */
    removeTransaction(connectionId: string, transactionId: string): void {
      connection(connectionId).removeTransaction(bridge.now, transactionId);
    },

    /** The errors every answer for this user carries (v2 `errlist`, v1 `errors` as their `msg`); a string is a general `gen.` error. */
    setErrors(connectionId: string, errors: (string | BridgeError)[]): void {
      connection(connectionId).errors = errors.map((error) => (typeof error === 'string' ? { code: 'gen.', msg: error } : { ...error }));
    },

    /**
     * The login at an institution (default the bank) needs the user's attention at the bridge: adds a
     * `con.auth` error for its `conn_id`, worded as the Bridge words it in version 1 (peers match that
     * text). The data keeps coming; `setErrors(connectionId, [])` clears it.
     */
    needsAttention(connectionId: string, org: 'bank' | 'card' = 'bank'): BridgeError {
      const login = connection(connectionId).logins.find((candidate) => candidate.org.key === org)!;
      const error = { code: 'con.auth', msg: `Connection to ${login.name} may need attention`, conn_id: login.connId };
      connection(connectionId).errors.push(error);
      return { ...error };
    },

    /** The brokerage account's holdings as the bridge reports them now. */
    holdings(connectionId: string): BridgeHolding[] {
      return brokerageOf(connectionId).holdings(bridge.now);
    },

    /** The user sells a whole position now; its value goes to the brokerage's cash. */
    sellPosition(connectionId: string, symbol: string): void {
      brokerageOf(connectionId).sell(symbol, bridge.now);
    },

    /** The user disables every access token of this connection at the bridge: 403 from then on. */
    revoke(connectionId: string): void {
      for (const token of bridge.accessTokens) if (token.connection === connection(connectionId)) token.revoked = true;
    },

    /** The subscription (of this user, or of every user) lapses: data requests answer 402 until renewed. */
    lapseSubscription(connectionId?: string): void {
      lapse(connectionId, true);
    },

    renewSubscription(connectionId?: string): void {
      lapse(connectionId, false);
    },

    /** Requests per access token in any rolling 24 hours of the bridge's clock, and what happens past them (see `BudgetPolicy`). */
    setBudget(newPerDay: number, budgetOptions: { onExceeded?: BudgetPolicy['onExceeded']; disableAfter?: number } = {}): void {
      bridge.budget = { perDay: newPerDay, onExceeded: budgetOptions.onExceeded ?? bridge.budget.onExceeded, disableAfter: budgetOptions.disableAfter ?? 4 * newPerDay };
    },

    /** Everything the bridge reports for this user now, across all dates (no window), in the bridge's order: the view a fully synced client should hold. */
    currentTransactions(connectionId: string, viewOptions: { includePending?: boolean } = {}): (SimplefinTransaction & { account_id: string })[] {
      return connection(connectionId)
        .entries(bridge.now)
        .filter((entry) => viewOptions.includePending !== false || !entry.transaction.pending)
        .map((entry) => ({ account_id: entry.account.id, ...structuredClone(entry.transaction) }));
    },

    /** The user's accounts with their current balances. */
    accounts(connectionId: string): FakeAccountSummary[] {
      const user = connection(connectionId);
      return user.accounts.map((account) => ({
          id: account.id,
          key: account.template.key,
          name: account.template.name,
          connId: account.login.connId,
          orgName: account.login.org.name,
          orgDomain: account.login.org.domain,
          balance: centsToDecimal(user.balanceCents(account, bridge.now, null)),
          availableBalance: centsToDecimal(user.availableCents(account, bridge.now)),
      }));
    },

    stop: () => server.stop(),
  };
}

function noonOf(date: Date | string): number {
  const day = typeof date === 'string' ? dayOf(date) : Math.floor(date.getTime() / 1000 / DAY);
  return day * DAY + DAY / 2;
}

function dayOf(isoDate: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate)) throw new Error(`not a YYYY-MM-DD date: ${isoDate}`);
  return Date.parse(`${isoDate}T00:00:00Z`) / 1000 / DAY;
}
