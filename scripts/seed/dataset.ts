import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { FieldCipher } from '../../src/lib/field-cipher.ts';
import type { SandboxProvider } from '../../src/providers/sandbox/sandbox-provider.ts';

type Row = Array<string | number | boolean | Date | null>;

/** Rows for a batch of profiles, column values in the order of TABLES below. */
export interface SeedRows {
  profiles: Row[];
  connections: Row[];
  accounts: Row[];
  balances: Row[];
  transactions: Row[];
}

/** Column names of each seeded table, in insert order. */
const TABLES: Record<keyof SeedRows, { table: string; columns: string[] }> = {
  profiles: {
    table: 'profile',
    columns: ['id', 'environment_id', 'uuid', 'name', 'metadata', 'created_at', 'ready_at'],
  },
  connections: {
    table: 'connection',
    columns: [
      'id', 'environment_id', 'profile_id', 'provider', 'institution_id', 'institution_name',
      'status', 'products', 'credential_encrypted', 'generation', 'sync_cursor',
      'last_synced_at', 'created_at',
    ],
  },
  accounts: {
    table: 'account',
    columns: [
      'id', 'connection_id', 'profile_id', 'remote_id', 'name', 'kind', 'subtype',
      'state', 'verified', 'mask', 'currency_code', 'latest_balance_id', 'created_at',
    ],
  },
  balances: {
    table: 'balance',
    columns: [
      'id', 'account_id', 'profile_id', 'at', 'source', 'available', 'current',
      'limit', 'currency_code',
    ],
  },
  transactions: {
    table: 'transaction',
    columns: [
      'id', 'profile_id', 'connection_id', 'account_id', 'remote_id', 'date', 'description',
      'amount', 'status', 'currency_code', 'metadata', 'remote_data', 'created_at',
    ],
  },
};

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
  rows.profiles.push([profileId, environmentId, randomUUID(), `Seed User ${index + 1}`, JSON.stringify({ cohort: COHORTS[index % COHORTS.length] }), now, now]);

  const institution = sandbox.institutions().find((candidate) => candidate.id === INSTITUTIONS[index % INSTITUTIONS.length])!;
  const { credential: token } = await sandbox.completeLink({ institutionId: institution.id, username: 'user_good', password: 'pass_good', products: institution.products, webhookUrl: '' });
  const accounts = await sandbox.accounts(token);
  const page = await sandbox.syncTransactions(token, null);
  const connectionId = idOf();
  rows.connections.push([
    connectionId, environmentId, profileId, sandbox.name, institution.id, institution.name, 'SYNCED', JSON.stringify(institution.products),
    cipher.encrypt('credential', { id: connectionId }, token), 1, page.nextCursor, now, now,
  ]);

  const accountIds = new Map<string, { id: string; currencyCode: string }>();
  for (const account of accounts) {
    const accountId = idOf();
    const balanceId = idOf();
    accountIds.set(account.remoteId, { id: accountId, currencyCode: account.currencyCode });
    const verified = account.kind === 'DEPOSITORY' && institution.products.includes('ACCOUNT_NUMBERS');
    rows.accounts.push([accountId, connectionId, profileId, account.remoteId, account.name, account.kind, account.subtype, account.state, verified, account.mask, account.currencyCode, balanceId, now]);
    const { balance } = account;
    rows.balances.push([balanceId, accountId, profileId, balance.at, 'SYNC', balance.available, balance.current, balance.limit, account.currencyCode]);
  }

  const recent = page.added.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)).slice(0, transactions).reverse();
  for (const transaction of recent) {
    const account = accountIds.get(transaction.accountRemoteId)!;
    const remoteData = { [sandbox.name]: transaction.raw, ...(transaction.enrichment ? { enrichment: transaction.enrichment } : {}) };
    rows.transactions.push([
      idOf(), profileId, connectionId, account.id, transaction.remoteId, transaction.date, transaction.description, transaction.amount, transaction.status,
      account.currencyCode, null, JSON.stringify(remoteData), now,
    ]);
  }
}

/** Writes a batch in one transaction, one COPY per table (the fastest way into PostgreSQL). */
export async function insertRows(pool: pg.Pool, rows: SeedRows): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    for (const key of Object.keys(TABLES) as Array<keyof SeedRows>) {
      if (rows[key].length === 0) continue;
      const { table, columns } = TABLES[key];
      const copy = client.query(copyFrom(`copy "${table}" (${columns.map((name) => `"${name}"`).join(', ')}) from stdin`));
      await pipeline(Readable.from(copyLines(rows[key])), copy);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/** COPY text format: tab-separated, `\N` for null, backslash escapes; chunked so memory stays flat. */
export function* copyLines(rows: Row[]): Generator<string> {
  let chunk = '';
  for (const row of rows) {
    chunk += `${row.map(copyValue).join('\t')}\n`;
    if (chunk.length > 256 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

function copyValue(value: Row[number]): string {
  if (value === null) return '\\N';
  const text = value instanceof Date ? value.toISOString() : String(value);
  return text.replace(/[\\\t\n\r]/g, (char) => (char === '\\' ? '\\\\' : char === '\t' ? '\\t' : char === '\n' ? '\\n' : '\\r'));
}
