import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../event/event.service.ts';
import type { ConnectionEntity, ConnectionStatus } from './connection.entity.ts';
import { presentConnection } from './connection.presenter.ts';
import { connectionOrFail, INACTIVE, type ConnectionKey } from './connection.store.ts';
import { DAY_MS } from '../../lib/dates.ts';


/** When consent warnings go out: this many days before a consent ends (CONSENT_WARNING_DAYS). */
export interface ConsentRules {
  warningDays: number;
}

/** Whether the connection's consent has ended at `now`. */
export function consentEnded(connection: Pick<ConnectionEntity, 'consentExpiresAt'>, now: Date): boolean {
  return connection.consentExpiresAt != null && connection.consentExpiresAt.getTime() <= now.getTime();
}

/**
 * Marks a connection (locked by the caller, with its profile) ERROR_REPAIRABLE because its consent
 * ended, with the `connection.synced.errored.ERROR_REPAIRABLE` of any entry into that state: none
 * when it was in it already (`previousStatus`), as for a sync's error.
 */
export function markConsentExpired(tx: EntityManager, connection: ConnectionEntity, previousStatus: ConnectionStatus): void {
  // Expired is its own notice: no warning comes after it for this consent.
  connection.consentWarnedFor = connection.consentExpiresAt;
  // Marked already (a sync that started just before the sweep marked it then moved it to SYNCING): announced already.
  const announced = connection.errorCode === 'CONSENT_EXPIRED';
  connection.status = 'ERROR_REPAIRABLE';
  connection.errorCode = 'CONSENT_EXPIRED';
  if (!announced && previousStatus !== 'ERROR_REPAIRABLE') recordEvent(tx, connection.environment.id, 'connection.synced.errored.ERROR_REPAIRABLE', connection.profile, presentConnection(connection));
}

/**
 * Applies the consent rules to one connection at `now`, in one transaction under its row lock (so a
 * sync finishing meanwhile, or a second sweep, cannot interleave):
 * - a consent that has ended turns the connection ERROR_REPAIRABLE with CONSENT_EXPIRED, with the
 *   `connection.synced.errored.ERROR_REPAIRABLE` of any other entry into that state;
 * - a consent ending within the warning period sends `connection.consent_expiring` once: the end it
 *   was sent for is kept, so only a new consent end (a renewal, a provider's new date) warns again.
 * A connection disconnecting or gone, or whose profile is being deleted, is left alone.
 */
export async function applyConsentRules(em: EntityManager, key: ConnectionKey, rules: ConsentRules, now: Date): Promise<ConnectionEntity | undefined> {
  return em.transactional(async (tx) => {
    const connection = await connectionOrFail(tx, key, { lock: true, profile: true });
    const end = connection.consentExpiresAt;
    if (!end || INACTIVE.includes(connection.status) || connection.profile.deletingAt) return connection;
    const warned = connection.consentWarnedFor?.getTime() === end.getTime();
    if (consentEnded(connection, now)) {
      markConsentExpired(tx, connection, connection.status);
    } else if (!warned && end.getTime() - now.getTime() <= rules.warningDays * DAY_MS) {
      connection.consentWarnedFor = end;
      recordEvent(tx, connection.environment.id, 'connection.consent_expiring', connection.profile, presentConnection(connection));
    }
    return connection;
  });
}
