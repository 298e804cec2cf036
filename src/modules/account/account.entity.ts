import { defineEntity, p } from '@mikro-orm/core';
import type { Metadata } from '../metadata/metadata.ts';
import { Connection } from '../connection/connection.entity.ts';
import { Profile } from '../profile/profile.entity.ts';

export const ACCOUNT_KINDS = ['DEPOSITORY', 'CREDIT', 'LOAN', 'INVESTMENT'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

export const ACCOUNT_STATES = ['OPEN', 'CLOSED'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

/**
 * An account reached through a connection. `remoteId` is the provider's id for it, unique per
 * connection. `name` is the institution's; `nameOverride` the profile's own (accountUpdate), which
 * wins when set. `latestBalanceId` points at the newest Balance row (no foreign key, so balances and
 * accounts can be written in any order within a sync).
 */
export const Account = defineEntity({
  name: 'Account',
  properties: {
    id: p.uuid().primary(),
    connection: () => p.manyToOne(Connection).deleteRule('cascade'),
    profile: () => p.manyToOne(Profile).deleteRule('cascade'),
    remoteId: p.text(),
    name: p.text(),
    nameOverride: p.text().nullable(),
    kind: p.enum(ACCOUNT_KINDS),
    subtype: p.text().nullable(),
    state: p.enum(ACCOUNT_STATES),
    verified: p.boolean().default(false),
    mask: p.text().nullable(),
    currencyCode: p.text(),
    /** A keyed hash of what identifies the account at its institution (IBAN, account number): see account-identity.ts. */
    identifierHash: p.text().nullable(),
    latestBalanceId: p.uuid().nullable(),
    metadata: p.json<Metadata>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['connection', 'remoteId'] }],
  indexes: [{ properties: ['profile', 'createdAt'] }],
});

export type AccountEntity = InstanceType<typeof Account.class>;

/** What GraphQL reads of an account: the entity, or the same columns read with plain SQL. */
export type AccountView = Pick<
  AccountEntity,
  'id' | 'name' | 'nameOverride' | 'kind' | 'subtype' | 'state' | 'verified' | 'mask' | 'currencyCode' | 'latestBalanceId' | 'metadata' | 'createdAt'
> & { connection: { id: string } };
