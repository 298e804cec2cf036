import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import type { FieldCipher } from '../lib/field-cipher.ts';
import type { AccountEntity, AccountView } from '../modules/account/account.entity.ts';
import { accountsOfConnections } from '../modules/account/account.store.ts';
import { accountViews } from '../modules/account/account.store.ts';
import type { BalanceEntity } from '../modules/balance/balance.entity.ts';
import { profileBalances } from '../modules/balance/balance.store.ts';
import type { ConnectionEntity } from '../modules/connection/connection.entity.ts';
import { profileConnections } from '../modules/connection/connection.store.ts';
import { holdingsOfAccounts, type HoldingRecord } from '../modules/investment/investment.store.ts';
import { liabilitiesOfAccounts, type LiabilityRecord } from '../modules/liability/liability.store.ts';
import { ownersOfAccounts } from '../modules/owner/account-owners.store.ts';
import type { ProfileIdentity } from '../modules/owner/match/owner-match.ts';
import { profileIdentity } from '../modules/owner/profile-identity.ts';
import type { ProviderOwner } from '../providers/provider-owners.ts';
import { securitiesByIds, type SecurityRecord } from '../modules/security/security.store.ts';
import { statementsOfAccounts, type StatementRecord } from '../modules/statement/statement.store.ts';
import { remoteDataByIds } from '../modules/transaction/transaction.store.ts';

/**
 * Where loaders read, looked up when a batch runs (a request forks its EntityManager only when a
 * loader or resolver first needs one): `em` for loads that hydrate entities, `sql` for the stores'
 * plain statements (an unforked EntityManager will do).
 */
export interface LoaderDatabases {
  readonly em: EntityManager;
  readonly sql: EntityManager;
}

/** The per-request loaders of a profile (see Loaders). */
export function createLoaders(databases: LoaderDatabases, credential: { profileId: string; environmentId: string }, cipher: FieldCipher): Loaders {
  return new Loaders(databases, credential, cipher);
}

/** The rows of `ids`, in their order (null where none was found). */
function byId<T extends { id: string }>(ids: readonly string[], rows: T[]): Array<T | null> {
  const found = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => found.get(id) ?? null);
}

/**
 * Per-request batch loaders, each scoped to the acting profile: however many transactions a page
 * holds, their accounts (and those accounts' balances and connections, holdings, liabilities,
 * owners, and the securities they name) cost one query each. Owners and the profile's own identity
 * are decrypted with `cipher` only when a field asks for them. Each loader is made when first used:
 * a page of transactions with their accounts uses one of the eleven, and a DataLoader with its cache
 * costs ~0.5 KB.
 */
export class Loaders {
  readonly #databases: LoaderDatabases;
  readonly #profileId: string;
  readonly #environmentId: string;
  readonly #cipher: FieldCipher;
  #account?: DataLoader<string, AccountView | null>;
  #connection?: DataLoader<string, ConnectionEntity | null>;
  #balance?: DataLoader<string, BalanceEntity | null>;
  #remoteData?: DataLoader<string, Record<string, unknown>>;
  #accountsOfConnection?: DataLoader<string, AccountEntity[]>;
  #security?: DataLoader<string, SecurityRecord | null>;
  #holdingsOfAccount?: DataLoader<string, HoldingRecord[]>;
  #statementsOfAccount?: DataLoader<string, StatementRecord[]>;
  #liabilityOfAccount?: DataLoader<string, LiabilityRecord | null>;
  #ownersOfAccount?: DataLoader<string, ProviderOwner[]>;
  #profileIdentity?: DataLoader<string, ProfileIdentity>;

  constructor(databases: LoaderDatabases, credential: { profileId: string; environmentId: string }, cipher: FieldCipher) {
    this.#databases = databases;
    this.#profileId = credential.profileId;
    this.#environmentId = credential.environmentId;
    this.#cipher = cipher;
  }

  /** The hot path (every transaction's account): plain rows, no entity hydration. */
  get account() {
    return (this.#account ??= new DataLoader(async (ids) => byId(ids, await accountViews(this.#databases.sql, this.#profileId, ids))));
  }

  get connection() {
    return (this.#connection ??= new DataLoader(async (ids) => byId(ids, await profileConnections(this.#databases.em, this.#profileId, ids))));
  }

  get balance() {
    return (this.#balance ??= new DataLoader(async (ids) => byId(ids, await profileBalances(this.#databases.em, this.#profileId, ids))));
  }

  get remoteData() {
    return (this.#remoteData ??= new DataLoader((ids) => remoteDataByIds(this.#databases.sql, this.#profileId, ids)));
  }

  get accountsOfConnection() {
    return (this.#accountsOfConnection ??= new DataLoader(async (connectionIds) => {
      const accounts = await accountsOfConnections(this.#databases.em, this.#profileId, connectionIds);
      return connectionIds.map((id) => accounts.filter((account) => account.connection.id === id));
    }));
  }

  /** Reference data, shared by every profile: what a profile can reach of it is what its holdings and activity name. */
  get security() {
    return (this.#security ??= new DataLoader(async (ids) => byId(ids, await securitiesByIds(this.#databases.sql, ids))));
  }

  get holdingsOfAccount() {
    return (this.#holdingsOfAccount ??= new DataLoader(async (accountIds) => {
      const holdings = await holdingsOfAccounts(this.#databases.sql, this.#profileId, accountIds);
      return accountIds.map((id) => holdings.filter((holding) => holding.accountId === id));
    }));
  }

  get statementsOfAccount() {
    return (this.#statementsOfAccount ??= new DataLoader(async (accountIds) => {
      const statements = await statementsOfAccounts(this.#databases.sql, this.#profileId, accountIds);
      return accountIds.map((id) => statements.filter((statement) => statement.accountId === id));
    }));
  }

  get liabilityOfAccount() {
    return (this.#liabilityOfAccount ??= new DataLoader(async (accountIds) => {
      const liabilities = await liabilitiesOfAccounts(this.#databases.sql, this.#profileId, accountIds);
      return accountIds.map((id) => liabilities.find((liability) => liability.accountId === id) ?? null);
    }));
  }

  get ownersOfAccount() {
    return (this.#ownersOfAccount ??= new DataLoader(async (accountIds) => {
      const owners = await ownersOfAccounts(this.#databases.sql, this.#cipher, this.#profileId, accountIds);
      return accountIds.map((id) => owners.get(id) ?? []);
    }));
  }

  /** One key, the acting profile: every account's owner match of a request reads it once. */
  get profileIdentity() {
    return (this.#profileIdentity ??= new DataLoader((ids) => Promise.all(ids.map((id) => profileIdentity(this.#databases.em, this.#cipher, id, this.#environmentId)))));
  }
}
