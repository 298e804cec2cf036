import { defineEntity, p } from '@mikro-orm/core';
import { PROFILE_PARTITIONS } from '../../db/profile-partitions.ts';
import { Account } from '../account/account.entity.ts';
import { Connection } from '../connection/connection.entity.ts';
import { Profile } from '../profile/profile.entity.ts';

export const STATEMENT_STATUSES = ['PENDING', 'READY', 'FAILED'] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];

/**
 * A statement an upstream listed for an account, one row per (account, upstream id). It is PENDING
 * until its PDF is fetched (once) and stored in the blob store under
 * `profiles/<profile id>/statements/<id>.pdf`, READY with its size and digest after, or FAILED with
 * why. Keyed by profile like the other tables of a profile's records; only `account` carries a
 * foreign key (with a cascade): `profile` and `connection` are the account's own.
 */
export const Statement = defineEntity({
  name: 'Statement',
  properties: {
    profile: () => p.manyToOne(Profile).primary().createForeignKeyConstraint(false),
    id: p.uuid().primary(),
    connection: () => p.manyToOne(Connection).createForeignKeyConstraint(false),
    account: () => p.manyToOne(Account).deleteRule('cascade'),
    remoteId: p.text(),
    startOn: p.date(),
    endOn: p.date(),
    issuedOn: p.date().nullable(),
    status: p.enum(STATEMENT_STATUSES),
    failureReason: p.text().nullable(),
    /** Fetches that ended in a document Tributary refused (too large, not a PDF, a digest that did not match). */
    refusedFetches: p.integer().default(0),
    size: p.integer().nullable(),
    sha256: p.text().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  uniques: [{ properties: ['profile', 'account', 'remoteId'] }],
  indexes: [{ properties: ['profile', 'endOn', 'id'] }],
  partitionBy: PROFILE_PARTITIONS,
});

export type StatementEntity = InstanceType<typeof Statement.class>;
