/*
 * Statements, a product beyond cash: the periodic statements an institution issues for an account,
 * as PDF documents. An adapter lists what its upstream offers and fetches one document at a time.
 */

/** A statement the upstream lists for one of the login's accounts. */
export interface ProviderStatement {
  /** The upstream's id of the statement, stable across listings. */
  remoteId: string;
  accountRemoteId: string;
  /** First and last day of the period it covers (`YYYY-MM-DD`). */
  startOn: string;
  endOn: string;
  /** The day it was issued, when the upstream says. */
  issuedOn: string | null;
}

/** One statement's document as the upstream sent it. */
export interface StatementDocument {
  bytes: Buffer;
  /** The SHA-256 (hex) the upstream says the document has (Plaid's `Plaid-Content-Hash`); null when it gives none. */
  sha256: string | null;
}

/** A period asked for with a statements refresh, both days inclusive. */
export interface StatementPeriod {
  startOn: string;
  endOn: string;
}

/**
 * What a statements refresh leaves to do: `LIST_NOW` when the upstream already offers the period's
 * statements (list them at once), `AWAIT_WEBHOOK` when it gathers them in the background and says
 * so with a webhook (Plaid's STATEMENTS_REFRESH_COMPLETE, a `STATEMENTS` webhook action).
 */
export type StatementsRefreshed = 'LIST_NOW' | 'AWAIT_WEBHOOK';
