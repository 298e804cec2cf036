import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
import { changedFrom, col, table, takeExcluded, type ReadRow } from '../../db/table.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { LIABILITY_KINDS, type ProviderLiability } from '../../providers/provider-liabilities.ts';
import { INTEREST_RATE_TYPES, type StoredApr } from './liability.entity.ts';

/** The liability table as its SQL reads and writes it (checked against the entity by test/stores.test.ts). */
export const LIABILITY = table('liability', {
  id: col.uuid(),
  profileId: col.uuid(),
  connectionId: col.uuid(),
  accountId: col.uuid(),
  kind: col.oneOf(LIABILITY_KINDS),
  aprs: col.json<StoredApr[]>(),
  minimumPayment: col.money().orNull(),
  nextPaymentDueDate: col.date().orNull(),
  lastStatementBalance: col.money().orNull(),
  lastStatementDate: col.date().orNull(),
  lastPaymentAmount: col.money().orNull(),
  lastPaymentDate: col.date().orNull(),
  isOverdue: col.boolean().orNull(),
  interestRateType: col.oneOf(INTEREST_RATE_TYPES).orNull(),
  interestRatePercentage: col.money().orNull(),
  originationDate: col.date().orNull(),
  originationPrincipal: col.money().orNull(),
  maturityDate: col.date().orNull(),
  nextPaymentAmount: col.money().orNull(),
  nextPaymentDate: col.date().orNull(),
  escrowBalance: col.money().orNull(),
  ytdInterestPaid: col.money().orNull(),
  ytdPrincipalPaid: col.money().orNull(),
  remoteData: col.json<Record<string, unknown>>(),
  updatedAt: col.timestamp(),
});

/** The details a provider reports; a change of any of them (not of its remote data) is a change of the liability. */
const DETAILS = [
  'kind', 'aprs', 'minimumPayment', 'nextPaymentDueDate', 'lastStatementBalance', 'lastStatementDate', 'lastPaymentAmount', 'lastPaymentDate', 'isOverdue',
  'interestRateType', 'interestRatePercentage', 'originationDate', 'originationPrincipal', 'maturityDate', 'nextPaymentAmount', 'nextPaymentDate',
  'escrowBalance', 'ytdInterestPaid', 'ytdPrincipalPaid',
] as const;
const RECORD = ['accountId', ...DETAILS, 'updatedAt'] as const;

/** A liability as GraphQL reads it. */
export type LiabilityRecord = ReadRow<typeof LIABILITY, (typeof RECORD)[number]>;

/** The statements of the liability table; test/stores.test.ts prepares each. */
export const liabilityStatements = {
  upsert: `insert into liability (${LIABILITY.list(['id', 'profileId', 'connectionId', 'accountId', ...DETAILS, 'remoteData', 'updatedAt'])})
     select r.id, $1, $2, a.id, ${[...DETAILS, 'remoteData'].map((field) => `r."${field}"`).join(', ')}, now()
       from jsonb_to_recordset($3::jsonb) as r(${LIABILITY.recordset(['id', ...DETAILS, 'remoteData'])}, "accountRemoteId" text)
       join account a on a.profile_id = $1 and a.connection_id = $2 and a.remote_id = r."accountRemoteId"
     on conflict (account_id) do update
        set ${takeExcluded([...DETAILS, 'remoteData'])}, updated_at = now()
      where ${changedFrom('liability', DETAILS)}
     returning id`,
  // Accounts the upstream no longer reports details of ($2: their remote ids are the reported ones) have none.
  removeUnreported: `delete from liability l using account a
      where l.connection_id = $1 and l.profile_id = $3 and a.id = l.account_id and a.profile_id = l.profile_id and a.remote_id <> all($2::text[])`,
  ofAccounts: `select ${LIABILITY.select(RECORD, 'l')} from liability l where l.account_id = any($1::uuid[]) and l.profile_id = $2`,
};

/**
 * Makes the connection's liabilities what the upstream reports, in the caller's transaction: one row
 * per account, written only when a detail changed; an account reported without details has none.
 * How many rows changed (written or removed).
 */
export async function replaceLiabilities(tx: EntityManager, owner: { connectionId: string; profileId: string; provider: string }, reported: ProviderLiability[]): Promise<number> {
  const rows = new Map(reported.map(({ accountRemoteId, raw, ...details }) => [accountRemoteId, { id: uuidv7(), accountRemoteId, ...details, remoteData: { [owner.provider]: raw } }]));
  const written = rows.size === 0 ? 0 : (await run(tx, liabilityStatements.upsert, [owner.profileId, owner.connectionId, JSON.stringify([...rows.values()])])).count;
  const removed = (await run(tx, liabilityStatements.removeUnreported, [owner.connectionId, [...rows.keys()], owner.profileId])).count;
  return written + removed;
}

/** The liabilities of the profile's accounts with these ids. */
export async function liabilitiesOfAccounts(em: EntityManager, profileId: string, accountIds: readonly string[]): Promise<LiabilityRecord[]> {
  return (await run<LiabilityRecord>(em, liabilityStatements.ofAccounts, [accountIds, profileId])).rows;
}
