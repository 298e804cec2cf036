import { createHash } from 'node:crypto';
import type { HoldingsOfAccount } from './holdings.ts';

/** How long an Account Set's holdings serve the investment read that follows it. */
const FRESH_MS = 15 * 60_000;
/** Logins remembered at once; the oldest is forgotten first. */
const MAX_LOGINS = 5_000;

/**
 * The holdings of each login's last Account Set, so the investment read of a sync reuses the request
 * its transactions read already made (the Bridge allows about 24 a day). Kept in this process for a
 * few minutes, by a hash of the credential, holdings only (no transactions); a miss costs one request.
 */
export class RecentHoldings {
  readonly #entries = new Map<string, { at: number; accounts: HoldingsOfAccount[] }>();

  remember(credential: string, accounts: HoldingsOfAccount[], now = Date.now()): void {
    const key = keyOf(credential);
    this.#entries.delete(key);
    this.#entries.set(key, { at: now, accounts: accounts.map(({ id, currency, 'balance-date': balanceDate, holdings }) => ({ id, currency, 'balance-date': balanceDate, holdings: holdings ?? [] })) });
    if (this.#entries.size > MAX_LOGINS) this.#entries.delete(this.#entries.keys().next().value!);
  }

  /** The login's holdings read in the last few minutes, or undefined. */
  recall(credential: string, now = Date.now()): HoldingsOfAccount[] | undefined {
    const entry = this.#entries.get(keyOf(credential));
    return entry && now - entry.at < FRESH_MS ? entry.accounts : undefined;
  }
}

function keyOf(credential: string): string {
  return createHash('sha256').update(credential).digest('base64url');
}
