import type { EntityManager } from '@mikro-orm/postgresql';
import { uuidv7 } from '../../lib/ids.ts';
import { presentBalance } from '../account/account.presenter.ts';
import { recordEvent, type EventProfile } from '../event/event.service.ts';
import { Balance, type BalanceEntity, type BalanceSource } from './balance.entity.ts';

/** A balance as a provider reports it. */
export interface BalanceReading {
  at: Date;
  available: string | null;
  current: string | null;
  limit: string | null;
}

/** The account a new balance is for, and who its `balance.created` event goes to. */
export interface BalanceOwner {
  accountId: string;
  currencyCode: string;
  environmentId: string;
  profile: EventProfile;
}

/** Adds a balance row with its `balance.created` event, in the caller's unit of work (rows are only ever added). */
export function addBalance(em: EntityManager, owner: BalanceOwner, reading: BalanceReading, source: BalanceSource): BalanceEntity {
  const balance = em.create(Balance, {
    id: uuidv7(),
    account: owner.accountId,
    profile: owner.profile.id,
    at: reading.at,
    source,
    available: reading.available,
    current: reading.current,
    limit: reading.limit,
    currencyCode: owner.currencyCode,
  });
  recordEvent(em, owner.environmentId, 'balance.created', owner.profile, presentBalance(balance));
  return balance;
}

/** Whether a reading says the same as the stored balance (the same amounts, however many trailing zeros). */
export function sameReading(stored: BalanceEntity | undefined, reading: BalanceReading): boolean {
  return !!stored && sameAmount(stored.available, reading.available) && sameAmount(stored.current, reading.current) && sameAmount(stored.limit, reading.limit);
}

function sameAmount(stored: string | null | undefined, reported: string | null): boolean {
  if (stored == null || reported === null) return stored == null && reported === null;
  return Number(stored) === Number(reported) && stored.replace(/\.?0+$/, '') === reported.replace(/\.?0+$/, '');
}
