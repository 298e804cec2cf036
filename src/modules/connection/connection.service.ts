import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, conflict, notFound } from '../../errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { decodeId, uuidv7 } from '../../lib/ids.ts';
import type { EndUserPresence } from '../../providers/provider.ts';
import type { LinkedLogin } from '../../providers/link-flow.ts';
import { resetVerification } from '../account/account.service.ts';
import { recordEvent } from '../event/event.service.ts';
import type { ProfileEntity } from '../profile/profile.entity.ts';
import { ProfileService } from '../profile/profile.service.ts';
import { Connection, type ConnectionEntity } from './connection.entity.ts';
import { presentConnection } from './connection.presenter.ts';
import { applyConsentRules, type ConsentRules } from './consent.ts';
import { claimRefresh, INACTIVE, keyOf, moveStatus, refreshTimes, scopedConnection, storeConsentEnd, storeLogin } from './connection.store.ts';

/** Transactions refresh: at most once per this period per connection. */
export const REFRESH_INTERVAL_MS = 4 * 60 * 60 * 1000;
/** A refresh claimed longer ago than this is taken as crashed, so it no longer blocks the next one. */
const REFRESH_STALE_MS = 15 * 60 * 1000;


/** The end of a linked login's consent, as stored. */
function consentEnd(linked: LinkedLogin): Date | null {
  return linked.consentExpiresAt ? new Date(linked.consentExpiresAt) : null;
}

/** Connections of one environment (optionally of one profile). Every lookup is scoped by both. */
export class ConnectionService {
  readonly #em: EntityManager;
  readonly #cipher: FieldCipher;
  readonly #environmentId: string;
  readonly #profileId: string | undefined;

  constructor(em: EntityManager, cipher: FieldCipher, scope: { environmentId: string; profileId?: string }) {
    this.#em = em;
    this.#cipher = cipher;
    this.#environmentId = scope.environmentId;
    this.#profileId = scope.profileId;
  }

  /** The connection with this public id in scope; 404 otherwise (also for a profile being deleted). */
  async get(publicId: string): Promise<ConnectionEntity> {
    const id = decodeId('connection', publicId);
    const connection = id && (await scopedConnection(this.#em, id, { environmentId: this.#environmentId, profileId: this.#profileId }));
    if (!connection) throw notFound('Connection');
    return connection;
  }

  /** The profile a new connection is for: in scope (the session's own) and not being deleted. */
  async profileFor(profilePublicId: string): Promise<ProfileEntity> {
    const profile = await new ProfileService(this.#em, this.#cipher, this.#environmentId).get(profilePublicId);
    if (this.#profileId && this.#profileId !== profile.id) throw notFound('Profile');
    return profile;
  }

  /** The upstream credential of a connection, decrypted. */
  credentialOf(connection: ConnectionEntity): string {
    return this.#cipher.decrypt('credential', connection, connection.credentialEncrypted);
  }

  /**
   * Stores a completed link as a new INITIALIZING connection, with `connection.created`; `then` runs
   * in the same transaction (queueing its first sync with jobsIn). `presence`: the end-user who just
   * linked, kept encrypted for the first sync's read.
   */
  async create(
    profile: ProfileEntity,
    provider: string,
    linked: LinkedLogin,
    then: (connection: ConnectionEntity, tx: EntityManager) => Promise<void> = async () => {},
    presence?: EndUserPresence,
  ): Promise<ConnectionEntity> {
    return this.#em.transactional(async (tx) => {
      const connection = this.#newConnection(tx, profile, provider, linked, presence);
      recordEvent(tx, this.#environmentId, 'connection.created', profile, presentConnection(connection));
      await tx.flush();
      await then(connection, tx);
      return connection;
    });
  }

  #newConnection(tx: EntityManager, profile: ProfileEntity, provider: string, linked: LinkedLogin, presence: EndUserPresence | undefined): ConnectionEntity {
    const id = uuidv7();
    return tx.create(Connection, {
      id,
      environment: this.#environmentId,
      profile,
      provider,
      remoteId: linked.remoteId,
      institutionId: linked.institution.id,
      institutionName: linked.institution.name,
      status: 'INITIALIZING',
      products: linked.products,
      credentialEncrypted: this.#cipher.encrypt('credential', { id }, linked.credential),
      generation: 1,
      syncCursor: null,
      syncPageCursor: null,
      syncRun: null,
      syncChanges: null,
      syncRemovals: null,
      upstreamRequests: null,
      nextReadAt: null,
      refreshPresenceEncrypted: this.#presenceEncrypted({ id }, presence),
      upstreamRefusesUntil: null,
      consentExpiresAt: consentEnd(linked),
      consentWarnedFor: null,
      errorCode: null,
      lastSyncedAt: null,
      refreshStartedAt: null,
      lastRefreshAt: null,
      metadata: null,
    });
  }

  /** The end-user's presence as stored for the next read (an IP address is personal data); null without one. */
  #presenceEncrypted(connection: { id: string }, presence: EndUserPresence | undefined): string | null {
    return presence ? this.#cipher.encrypt('refreshPresence', connection, JSON.stringify(presence)) : null;
  }

  /** Refuses to repair a connection that is gone. */
  assertRepairable(connection: ConnectionEntity): void {
    if (INACTIVE.includes(connection.status)) {
      throw new AppError(403, 'CONNECTION_NOT_USABLE', `The connection is ${connection.status}`, { instruction: 'Connect the institution again as a new connection.' });
    }
  }

  /**
   * Stores a repaired login (ERROR_REPAIRABLE → INITIALIZING): the new credential and the new
   * consent's end (a renewed consent), and every account unverified until verification runs again,
   * because a tokenized ACH number can change. Accounts keep their ids: the sync that follows
   * matches what the upstream reports to them (account-identity.ts), even under new remote ids.
   * `presence`: the end-user who just renewed, kept encrypted for that sync's read.
   */
  async relink(connection: ConnectionEntity, linked: LinkedLogin, then: (tx: EntityManager) => Promise<void>, presence?: EndUserPresence): Promise<ConnectionEntity> {
    this.assertRepairable(connection);
    const changes = {
      refreshPresenceEncrypted: this.#presenceEncrypted(connection, presence),
      credentialEncrypted: this.#cipher.encrypt('credential', connection, linked.credential),
      generation: connection.generation + 1,
      status: 'INITIALIZING' as const,
      errorCode: null,
      consentExpiresAt: consentEnd(linked),
    };
    await this.#em.transactional(async (tx) => {
      await storeLogin(tx, keyOf(connection), changes);
      await resetVerification(tx, { connectionId: connection.id, profileId: connection.profile.id });
      await then(tx);
    });
    return Object.assign(connection, changes);
  }

  /** Moves the end of the connection's consent (the sandbox's stand-in for an institution's word) and applies the consent rules now. */
  async moveConsentEnd(connection: ConnectionEntity, end: Date, rules: ConsentRules): Promise<ConnectionEntity> {
    this.assertRepairable(connection);
    await storeConsentEnd(this.#em, keyOf(connection), end);
    const updated = await applyConsentRules(this.#em, keyOf(connection), rules, new Date());
    return updated ?? connection;
  }

  /** Starts disconnecting (idempotent); `then` runs in the same transaction when it starts now (queueing the job). */
  async disconnect(connection: ConnectionEntity, then: (tx: EntityManager) => Promise<void>): Promise<void> {
    if (INACTIVE.includes(connection.status)) return;
    await this.#em.transactional(async (tx) => {
      if (await moveStatus(tx, keyOf(connection), { notIn: INACTIVE }, 'DISCONNECTING')) await then(tx);
    });
    connection.status = 'DISCONNECTING';
  }

  /**
   * Claims the connection's transactions refresh in one conditional UPDATE, so two requests (on any
   * instances) cannot both start one: 409 while one runs, 429 within 4 hours of the last. The
   * end-user behind it (`presence`) is kept with the claim, encrypted, for the sync that serves it.
   */
  async claimTransactionsRefresh(connection: ConnectionEntity, presence: EndUserPresence | undefined, then: (tx: EntityManager) => Promise<void>, now = new Date()): Promise<void> {
    if (connection.status.startsWith('ERROR_') || INACTIVE.includes(connection.status)) {
      throw new AppError(403, connection.status === 'ERROR_REPAIRABLE' ? 'REPAIR_REQUIRED' : 'CONNECTION_NOT_USABLE', `The connection is ${connection.status}; transactions cannot be refreshed`, {
        instruction: connection.status === 'ERROR_REPAIRABLE' ? 'Have the end-user reconnect the institution, then retry.' : 'Wait until the connection is SYNCED again, then retry.',
      });
    }
    // The claim and the sync that honours it commit together: never a refresh claimed with no sync behind it.
    const claimed = await this.#em.transactional(async (tx) => {
      const presenceEncrypted = this.#presenceEncrypted(connection, presence);
      const won = await claimRefresh(tx, keyOf(connection), { now, staleBefore: new Date(now.getTime() - REFRESH_STALE_MS), spacedAfter: new Date(now.getTime() - REFRESH_INTERVAL_MS), presenceEncrypted });
      if (won) await then(tx);
      return won;
    });
    if (claimed) return;
    const state = await refreshTimes(this.#em, keyOf(connection));
    if (state?.started != null && state.started >= now.getTime() - REFRESH_STALE_MS) {
      throw conflict('A transactions refresh is already running for this connection', { instruction: 'Wait for connection.synced.successful (or no event when nothing changed).' });
    }
    const next = (state?.last ?? now.getTime()) + REFRESH_INTERVAL_MS;
    const seconds = Math.max(1, Math.ceil((next - now.getTime()) / 1000));
    throw new AppError(429, 'REFRESH_TOO_SOON', 'This connection was refreshed within the last 4 hours', {
      instruction: `Transactions refresh is allowed once every 4 hours per connection; retry in ${seconds} seconds.`,
      headers: { 'Retry-After': String(seconds) },
    });
  }
}
