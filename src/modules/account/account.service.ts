import type { EntityManager } from '@mikro-orm/postgresql';
import { RecordNotFound } from '../../api-kit/mutation-payload.ts';
import { AppError, notFound, ValidationError, type FieldIssue } from '../../errors.ts';
import { decodeId, uuidv7 } from '../../lib/ids.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import type { ProviderAccount } from '../../providers/provider-records.ts';
import { identifierHash, identifierHashes } from './account-identity.ts';
import { matchAccounts } from './account-matching.ts';
import { addBalance, type BalanceReading } from '../balance/balance.service.ts';
import { balancesById } from '../balance/balance.store.ts';
import type { BalanceSource } from '../balance/balance.entity.ts';
import type { Product } from '../connection/connection.entity.ts';
import { recordEvent, type EventProfile } from '../event/event.service.ts';
import { mergeMetadata } from '../metadata/metadata.ts';
import { Account, type AccountEntity } from './account.entity.ts';
import { presentAccount } from './account.presenter.ts';
import { accountInEnvironment, accountOrFail, accountsOfConnection, updateProfileAccount } from './account.store.ts';

/** Accounts of one environment; a profile being deleted reads as absent. */
export class AccountService {
  readonly #em: EntityManager;
  readonly #environmentId: string;

  constructor(em: EntityManager, environmentId: string) {
    this.#em = em;
    this.#environmentId = environmentId;
  }

  /** The account with this public id, with its connection; 404 when not in this environment. */
  async get(publicId: string): Promise<AccountEntity> {
    const id = decodeId('account', publicId);
    const account =
      id &&
      (await accountInEnvironment(this.#em, id, this.#environmentId));
    if (!account) throw notFound('Account');
    return account;
  }

  /** A balance refresh needs a working connection with the BALANCES product. */
  assertRefreshable(account: AccountEntity): void {
    const { status } = account.connection;
    if (status.startsWith('ERROR_') || status === 'DISCONNECTING' || status === 'DISCONNECTED') {
      throw new AppError(403, status === 'ERROR_REPAIRABLE' ? 'REPAIR_REQUIRED' : 'CONNECTION_NOT_USABLE', `The account's connection is ${status}; its balance cannot be refreshed`, {
        instruction: status === 'ERROR_REPAIRABLE' ? 'Have the end-user reconnect the institution, then retry.' : 'Retry once the connection is SYNCED again.',
      });
    }
    requireProduct(account, 'BALANCES');
  }
}

export function requireProduct(account: AccountEntity, product: Product): void {
  if (!account.connection.products.includes(product)) {
    throw new AppError(403, 'PRODUCT_NOT_ENABLED', `The account's connection is not enabled with the ${product} product`, {
      instruction: `Connect the institution again with the ${product} product enabled.`,
    });
  }
}

/** Who a connection's accounts belong to. */
export interface AccountOwner {
  connectionId: string;
  profileId: string;
}

/** Where an account's events go: its connection's environment and profile. */
export interface AccountEventTarget {
  environmentId: string;
  profile: EventProfile;
}

/**
 * Brings a connection's accounts in line with what its provider reports, in the caller's unit of
 * work: a reported account is matched to a stored one (account-matching.ts: its remote id, else its
 * identifier, else an unambiguous description), which takes what may have changed and, when the
 * upstream reissued ids, its new remote id (ids, metadata and transactions stay); one matching none
 * is created unverified, and a stored one no longer reported is closed (its history stays readable).
 * Returns the reported accounts, in their order.
 */
export async function applyReportedAccounts(em: EntityManager, owner: AccountOwner, reported: ProviderAccount[], cipher: FieldCipher): Promise<AccountEntity[]> {
  const existing = await accountsOfConnection(em, owner.connectionId, owner.profileId);
  const byId = new Map(existing.map((account) => [account.id, account]));
  const keys = reported.map((remote) => ({ ...remote, identifierHashes: remote.identifier ? identifierHashes(cipher, remote.identifier) : null }));
  const matches = matchAccounts(existing, keys);
  const accounts = reported.map((remote) => {
    const hash = remote.identifier ? identifierHash(cipher, remote.identifier) : undefined;
    const known = byId.get(matches.get(remote.remoteId) ?? '');
    if (known) return Object.assign(known, changeableFields(remote), { remoteId: remote.remoteId }, hash ? { identifierHash: hash } : {});
    return em.create(Account, {
      id: uuidv7(),
      connection: owner.connectionId,
      profile: owner.profileId,
      ...newAccountFields(remote),
      identifierHash: hash ?? null,
      nameOverride: null,
      verified: false,
      latestBalanceId: null,
      metadata: null,
    });
  });
  const kept = new Set(matches.values());
  for (const account of existing) if (!kept.has(account.id)) account.state = 'CLOSED';
  return accounts;
}

/** A new account's fields from what its provider reports (the seed stores the same). */
export function newAccountFields(remote: ProviderAccount) {
  return { remoteId: remote.remoteId, currencyCode: remote.currencyCode, ...changeableFields(remote) };
}

/** What a provider says of an account that may change from one sync to the next. */
function changeableFields(remote: ProviderAccount) {
  return { name: remote.name, kind: remote.kind, subtype: remote.subtype, state: remote.state, mask: remote.mask };
}

/** Adds a balance to an account and makes it the latest, with its `balance.created` event, in the caller's unit of work. */
export function recordBalance(em: EntityManager, account: AccountEntity, reading: BalanceReading, source: BalanceSource, target: AccountEventTarget): void {
  const balance = addBalance(em, { accountId: account.id, currencyCode: account.currencyCode, ...target }, reading, source);
  account.latestBalanceId = balance.id;
}

/** The latest balance of each of the profile's accounts that has one, by balance id. */
export function latestBalances(em: EntityManager, profileId: string, accounts: AccountEntity[]) {
  return balancesById(
    em,
    profileId,
    accounts.flatMap((account) => (account.latestBalanceId ? [account.latestBalanceId] : [])),
  );
}

/** Marks an account verified, with its `account.verified` event, in one transaction. */
export async function markVerified(em: EntityManager, accountId: string, target: AccountEventTarget): Promise<void> {
  await em.transactional(async (tx) => {
    const account = await accountOrFail(tx, accountId, target.profile.id);
    account.verified = true;
    const balance = account.latestBalanceId ? (await balancesById(tx, account.profile.id, [account.latestBalanceId])).get(account.latestBalanceId) : undefined;
    recordEvent(tx, target.environmentId, 'account.verified', target.profile, presentAccount(account, balance ?? null));
  });
}

/** Every account of a reconnected connection is unverified until verification runs again (a tokenized ACH number can change). */
export async function resetVerification(em: EntityManager, owner: AccountOwner): Promise<void> {
  await em.nativeUpdate(Account, { profile: owner.profileId, connection: owner.connectionId }, { verified: false });
}

/**
 * Sets a profile's account's display-name override (1 to 100 characters after trimming; null clears
 * it) and merges metadata, under the row's lock; every rule is checked before anything changes.
 */
export function updateAccount(em: EntityManager, profileId: string, id: string, input: { name?: string | null; metadata?: unknown }): Promise<AccountEntity> {
  return updateProfileAccount(em, id, profileId, () => new RecordNotFound('Account'), (account) => {
    const issues: FieldIssue[] = [];
    const name = input.name === undefined || input.name === null ? input.name : input.name.trim();
    if (typeof name === 'string' && (name.length < 1 || name.length > 100)) issues.push({ path: ['name'], message: 'name must be 1 to 100 characters after trimming' });
    let metadata = account.metadata;
    try {
      metadata = mergeMetadata(account.metadata, input.metadata);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      issues.push(...error.issues);
    }
    if (issues.length > 0) throw new ValidationError(issues);
    if (name !== undefined) account.nameOverride = name;
    account.metadata = metadata;
    return account;
  });
}
