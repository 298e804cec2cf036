import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors.ts';
import type { EndUserPresence, ProviderBase } from '../../providers/provider.ts';
import { ProviderBusy } from '../../providers/provider-errors.ts';
import type { ConnectionEntity } from '../connection/connection.entity.ts';
import { claimUpstreamRequest, type ConnectionKey } from '../connection/connection.store.ts';
import { DAY_MS } from '../../lib/dates.ts';

/** Unattended reads wait up to this share of their spacing more, drawn per read, so logins linked together drift apart. */
const JITTER = 0.1;

/**
 * A provider's daily request budget as Tributary spends it (docs/decisions/providers-request-budgets.md):
 * a sixth of the day's requests is kept for transactions refreshes (SimpleFIN's 24: 4), and the
 * rest is spread over the day, one unattended read every `spacingMs` at most (SimpleFIN: 72
 * minutes; Enable Banking's 4: 6 hours), so the scheduler never spends a login's day in one burst.
 */
export interface RequestBudget {
  perDay: number;
  /** Kept for refreshes: scheduled syncs and retries stop short of them. */
  reserve: number;
  spacingMs: number;
  /** Reads with the end-user present are not counted (PSD2). */
  unattendedOnly: boolean;
}

/** The provider's budget; undefined when its upstream sets none. */
export function budgetOf(provider: Pick<ProviderBase, 'requestBudgetPerDay' | 'budgetsUnattendedOnly'>): RequestBudget | undefined {
  const perDay = provider.requestBudgetPerDay;
  if (!perDay) return undefined;
  const reserve = Math.floor(perDay / 6);
  return { perDay, reserve, spacingMs: DAY_MS / (perDay - reserve), unattendedOnly: provider.budgetsUnattendedOnly ?? false };
}

/**
 * Whether a read counts against the budget: every read, except one with the end-user present where
 * only unattended reads count. Present means their address and user agent both: PSD2 banks take
 * every PSU header or none, so a read without the user agent is an unattended one there.
 */
function counted(budget: RequestBudget, presence: EndUserPresence | undefined): boolean {
  return !(budget.unattendedOnly && presence?.userAgent);
}

/**
 * Counts one read against the login's budget for the UTC day of `now`: a refresh may use the whole
 * day's budget, any other read stops at the reserve and sets when the scheduler may read the login
 * again. Over it, `BudgetUsedUp` (the sync waits; the connection's state does not change).
 */
export async function claimRead(em: EntityManager, key: ConnectionKey, budget: RequestBudget, read: { refresh: boolean; presence?: EndUserPresence }, now: Date): Promise<void> {
  if (!counted(budget, read.presence)) return;
  const limit = read.refresh ? budget.perDay : budget.perDay - budget.reserve;
  const nextRead = read.refresh ? null : new Date(now.getTime() + budget.spacingMs * (1 + Math.random() * JITTER));
  if (!(await claimUpstreamRequest(em, key, { day: now.toISOString().slice(0, 10), limit, nextRead }))) throw new BudgetUsedUp(secondsUntilTomorrow(now));
}

/** The login has no upstream request left today: the scheduled syncs of tomorrow pick it up (no retry is queued). */
export class BudgetUsedUp extends ProviderBusy {
  constructor(retryAfterSeconds: number) {
    super("the login's daily request budget is used up", retryAfterSeconds);
  }
}

/**
 * Seconds until the upstream reads the login again, when it refused a read as rate limited
 * (`upstreamRefusesUntil`) and this read would be one it counts; null when it may be read now.
 */
export function upstreamRefusal(connection: Pick<ConnectionEntity, 'upstreamRefusesUntil'>, budget: RequestBudget | undefined, presence: EndUserPresence | undefined, now: Date): number | null {
  const until = connection.upstreamRefusesUntil?.getTime();
  if (until === undefined || until <= now.getTime() || (budget && !counted(budget, presence))) return null;
  return Math.max(1, Math.ceil((until - now.getTime()) / 1000));
}

/**
 * Refuses a transactions refresh that would not be read: 429 until the time the upstream gave when
 * it last refused a read as rate limited, or until tomorrow when the login's budget is used; the
 * connection unchanged.
 */
export function assertBudgetLeft(connection: ConnectionEntity, budget: RequestBudget | undefined, presence: EndUserPresence | undefined, now = new Date()): void {
  const free = budget?.unattendedOnly ? ' Send endUser when the end-user asked for the refresh: such reads are not counted.' : '';
  const refused = upstreamRefusal(connection, budget, presence, now);
  if (refused !== null) {
    throw new AppError(429, 'PROVIDER_BUDGET_USED', "This connection's institution refused its last read as over its limit", {
      instruction: `Retry in ${refused} seconds, when the institution said it answers again.${free}`,
      headers: { 'Retry-After': String(refused) },
    });
  }
  const used = connection.upstreamRequests;
  if (!budget || !counted(budget, presence) || !used || used.day !== now.toISOString().slice(0, 10) || used.count < budget.perDay) return;
  const seconds = secondsUntilTomorrow(now);
  throw new AppError(429, 'PROVIDER_BUDGET_USED', `This connection's provider allows ${budget.perDay} upstream requests a day, and today's are used`, {
    instruction: `Retry in ${seconds} seconds, when the provider's day starts again.${free}`,
    headers: { 'Retry-After': String(seconds) },
  });
}

/** Seconds until the next UTC day, when a login's request budget starts again. */
export function secondsUntilTomorrow(now: Date): number {
  return Math.max(1, Math.ceil((Math.floor(now.getTime() / DAY_MS + 1) * DAY_MS - now.getTime()) / 1000));
}
