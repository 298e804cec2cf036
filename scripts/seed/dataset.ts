import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { FieldCipher } from '../../src/lib/field-cipher.ts';
import { copyLine } from '../../src/db/copy.ts';
import { fieldsOf, type Columns, type Row, type Table } from '../../src/db/table.ts';
import { newAccountFields } from '../../src/modules/account/account.service.ts';
import { ACCOUNT } from '../../src/modules/account/account.store.ts';
import { BALANCE } from '../../src/modules/balance/balance.store.ts';
import { CONNECTION } from '../../src/modules/connection/connection.store.ts';
import { PROFILE } from '../../src/modules/profile/profile.store.ts';
import { TRANSACTION } from '../../src/modules/transaction/transaction.store.ts';
import { originalOf, remoteDataFrom } from '../../src/modules/transaction/transaction-sync.store.ts';
import { providerHints } from '../../src/modules/transaction/provider-hints.ts';
import { enricherOf } from '../../src/modules/categorization/categorizer.ts';
import type { SandboxProvider } from '../../src/providers/sandbox/sandbox-provider.ts';
import type { ProviderAccount } from '../../src/providers/provider-records.ts';

/** Seeded transactions are enriched as a sync would store them, before any correction or operator rule exists. */
const enrich = enricherOf(null, []);

/** A seeded table and the fields the seed fills (the rest take their defaults), in COPY order. */
interface Seeded<C extends Columns, F extends keyof C & string> {
  table: Table<C>;
  fields: readonly F[];
}

const seeded = <C extends Columns, const F extends keyof C & string>(table: Table<C>, fields: readonly F[]): Seeded<C, F> => ({ table, fields });

const SEEDED = {
  profiles: seeded(PROFILE, ['id', 'environmentId', 'uuid', 'name', 'metadata', 'createdAt', 'readyAt']),
  connections: seeded(CONNECTION, [
    'id', 'environmentId', 'profileId', 'provider', 'institutionId', 'institutionName', 'status', 'products', 'credentialEncrypted', 'generation', 'syncCursor', 'lastSyncedAt', 'createdAt',
  ]),
  accounts: seeded(ACCOUNT, ['id', 'connectionId', 'profileId', 'remoteId', 'name', 'kind', 'subtype', 'state', 'verified', 'mask', 'currencyCode', 'latestBalanceId', 'createdAt']),
  balances: seeded(BALANCE, fieldsOf(BALANCE)),
  transactions: seeded(TRANSACTION, fieldsOf(TRANSACTION)),
};

/** Rows for a batch of profiles, typed by the stores' own table declarations. */
export type SeedRows = { [K in keyof typeof SEEDED]: (typeof SEEDED)[K] extends Seeded<infer C, infer F> ? Array<Row<Table<C>, F>> : never };

const INSTITUTIONS = ['ins_first_platypus', 'ins_tattersall_fcu', 'ins_houndstooth'];
const COHORTS = ['alpha', 'beta', 'gamma'];

export interface SeedProfileOptions {
  sandbox: SandboxProvider;
  cipher: FieldCipher;
  environmentId: string;
  index: number;
  transactions: number;
  idOf: () => string;
}

/**
 * Adds one profile with one synced sandbox connection to `rows`: what the sync engine would have
 * stored after its first sync, keeping the `transactions` most recent transactions.
 */
export async function seedProfile(rows: SeedRows, { sandbox, cipher, environmentId, index, transactions, idOf }: SeedProfileOptions): Promise<void> {
  const now = new Date();
  const profileId = idOf();
  rows.profiles.push({ id: profileId, environmentId, uuid: randomUUID(), name: `Seed User ${index + 1}`, metadata: { cohort: COHORTS[index % COHORTS.length]! }, createdAt: now, readyAt: now });

  const institution = sandbox.institutions().find((candidate) => candidate.id === INSTITUTIONS[index % INSTITUTIONS.length])!;
  const { credential: token } = await sandbox.completeLink({ institutionId: institution.id, username: 'user_good', password: 'pass_good', products: institution.products, webhookUrl: '' });
  const accounts = await sandbox.accounts(token);
  const page = await sandbox.syncTransactions(token, null);
  const connectionId = idOf();
  rows.connections.push({
    id: connectionId,
    environmentId,
    profileId,
    provider: sandbox.name,
    institutionId: institution.id,
    institutionName: institution.name,
    status: 'SYNCED',
    products: institution.products,
    credentialEncrypted: cipher.encrypt('credential', { id: connectionId }, token),
    generation: 1,
    syncCursor: page.nextCursor,
    lastSyncedAt: now,
    createdAt: now,
  });

  const accountIds = new Map<string, { id: string; currencyCode: string; kind: ProviderAccount['kind'] }>();
  for (const account of accounts) {
    const accountId = idOf();
    const balanceId = idOf();
    accountIds.set(account.remoteId, { id: accountId, currencyCode: account.currencyCode, kind: account.kind });
    const verified = account.kind === 'DEPOSITORY' && institution.products.includes('ACCOUNT_NUMBERS');
    rows.accounts.push({ id: accountId, connectionId, profileId, ...newAccountFields(account), verified, latestBalanceId: balanceId, createdAt: now });
    rows.balances.push({ id: balanceId, accountId, profileId, ...account.balance, source: 'SYNC', currencyCode: account.currencyCode });
  }

  const recent = page.added.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)).slice(0, transactions).reverse();
  for (const transaction of recent) {
    const account = accountIds.get(transaction.accountRemoteId)!;
    rows.transactions.push({
      id: idOf(),
      profileId,
      connectionId,
      accountId: account.id,
      remoteId: transaction.remoteId,
      date: transaction.date,
      description: transaction.description,
      amount: transaction.amount,
      status: transaction.status,
      currencyCode: account.currencyCode,
      ...originalOf(transaction),
      metadata: null,
      remoteData: remoteDataFrom(sandbox.name, transaction),
      createdAt: now,
      ...enrich({ description: transaction.description, amount: transaction.amount, currencyCode: account.currencyCode, accountKind: account.kind, hints: providerHints(transaction.enrichment) }),
    });
  }
}

/** Writes a batch in one transaction, one COPY per table (the fastest way into PostgreSQL). */
export async function insertRows(pool: pg.Pool, rows: SeedRows): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    for (const key of Object.keys(SEEDED) as Array<keyof SeedRows>) {
      if (rows[key].length === 0) continue;
      const { table, fields } = SEEDED[key] as Seeded<Columns, string>;
      const values = (rows[key] as Array<Record<string, unknown>>).map((row) => fields.map((field) => row[field]));
      const copy = client.query(copyFrom(`copy "${table.name}" (${table.list(fields)}) from stdin`));
      await pipeline(Readable.from(copyLines(values)), copy);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/** COPY text format (src/db/copy.ts copyLine), chunked so memory stays flat. */
export function* copyLines(rows: unknown[][]): Generator<string> {
  let chunk = '';
  for (const row of rows) {
    chunk += copyLine(row);
    if (chunk.length > 256 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}
