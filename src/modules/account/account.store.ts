import type { EntityManager } from '@mikro-orm/postgresql';
import { updateLocked } from '../../db/locked-update.ts';
import { run } from '../../db/statement.ts';
import { col, table, type ReadRow } from '../../db/table.ts';
import type { Metadata } from '../metadata/metadata.ts';
import { Account, ACCOUNT_KINDS, ACCOUNT_STATES, type AccountEntity, type AccountView } from './account.entity.ts';

/** The account table as its SQL reads and writes it (checked against the entity by test/stores.test.ts). */
export const ACCOUNT = table('account', {
  id: col.uuid(),
  connectionId: col.uuid(),
  profileId: col.uuid(),
  remoteId: col.text(),
  name: col.text(),
  nameOverride: col.text().orNull(),
  kind: col.oneOf(ACCOUNT_KINDS),
  subtype: col.text().orNull(),
  state: col.oneOf(ACCOUNT_STATES),
  verified: col.boolean(),
  mask: col.text().orNull(),
  currencyCode: col.text(),
  latestBalanceId: col.uuid().orNull(),
  metadata: col.json<Metadata>().orNull(),
  createdAt: col.timestamp(),
});

const VIEW = ['id', 'connectionId', 'name', 'nameOverride', 'kind', 'subtype', 'state', 'verified', 'mask', 'currencyCode', 'latestBalanceId', 'metadata', 'createdAt'] as const;

/** The statements of the account table; test/stores.test.ts prepares each. */
export const accountStatements = {
  viewsByIds: `select ${ACCOUNT.select(VIEW, 'a')} from account a where a.id = any($1::uuid[]) and a.profile_id = $2`,
};

/** An account as GraphQL reads it, as a statement returns it. */
export type AccountViewRow = ReadRow<typeof ACCOUNT, (typeof VIEW)[number]>;

/**
 * A subquery: every account of the profile (`profile`, a parameter of the statement it is part of)
 * as GraphQL reads them, one json array of AccountViewRow objects (null when there is none). A page of
 * transactions reads them in its own statement (transaction.store.ts).
 */
export function accountViewsOfProfile(profile: string): string {
  return `(select json_agg(json_build_object(${VIEW.map((field) => `'${field}', a.${ACCOUNT.column(field)}`).join(', ')})) from account a where a.profile_id = ${profile})`;
}

/** Account views of their rows (accountViews', accountViewsOfProfile's). */
export function accountViewsOf(rows: readonly AccountViewRow[]): AccountView[] {
  return rows.map(({ connectionId, createdAt, ...row }) => ({ ...row, connection: { id: connectionId }, createdAt: new Date(createdAt) }));
}

/** The profile's accounts with these ids as GraphQL reads them (plain rows, no entity hydration: every transaction's account is one). */
export async function accountViews(em: EntityManager, profileId: string, ids: readonly string[]): Promise<AccountView[]> {
  const { rows } = await run<AccountViewRow>(em, accountStatements.viewsByIds, [ids, profileId]);
  return accountViewsOf(rows);
}

/** A profile's accounts, oldest first. */
export function accountsOfProfile(em: EntityManager, profileId: string): Promise<AccountEntity[]> {
  return em.find(Account, { profile: profileId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** Changes a profile's account under its row lock, in a transaction of its own; `missing` when there is none. */
export function updateProfileAccount<R>(em: EntityManager, id: string, profileId: string, missing: () => Error, change: (account: AccountEntity) => R): Promise<R> {
  return updateLocked(em, Account, { id, profile: profileId }, { missing }, change);
}

/** The account with this id in the environment, with its connection; a profile being deleted reads as absent. */
export function accountInEnvironment(em: EntityManager, id: string, environmentId: string): Promise<AccountEntity | null> {
  return em.findOne(Account, { id, connection: { environment: environmentId }, profile: { deletingAt: null } }, { populate: ['connection'] });
}

/** Every account of the profile's connection, open or closed. */
export function accountsOfConnection(em: EntityManager, connectionId: string, profileId: string): Promise<AccountEntity[]> {
  return em.find(Account, { connection: connectionId, profile: profileId });
}

/** The profile's account with this id; throws when it is gone. */
export function accountOrFail(em: EntityManager, id: string, profileId: string): Promise<AccountEntity> {
  return em.findOneOrFail(Account, { id, profile: profileId });
}

/** The profile's connection's open depository accounts still waiting to be verified for money movement. */
export function unverifiedAccounts(em: EntityManager, connectionId: string, profileId: string): Promise<AccountEntity[]> {
  return em.find(Account, { connection: connectionId, profile: profileId, kind: 'DEPOSITORY', state: 'OPEN', verified: false });
}

/**
 * An account with its connection and the connection's profile, for a balance refresh job; null when
 * gone. A job queued before jobs named the profile (`profileId` absent) finds it by id alone.
 */
export function accountToRefresh(em: EntityManager, accountId: string, profileId: string | undefined): Promise<AccountEntity | null> {
  return em.findOne(Account, { id: accountId, ...(profileId ? { profile: profileId } : {}) }, { populate: ['connection.profile'] });
}

/** The profile's accounts of these connections, oldest first. */
export function accountsOfConnections(em: EntityManager, profileId: string, connectionIds: readonly string[]): Promise<AccountEntity[]> {
  return em.find(Account, { connection: [...connectionIds], profile: profileId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}
