import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../src/orm/orm.ts';
import { runOnce } from '../../src/db/scratch.ts';
import { col, columnOf, table, type ColumnKind, type Columns, type Table } from '../../src/db/table.ts';
import { encodeId, uuidv7 } from '../../src/lib/ids.ts';
import { ACCOUNT, accountStatements } from '../../src/modules/account/account.store.ts';
import { BALANCE, balanceRetentionStatements } from '../../src/modules/balance/balance.store.ts';
import { CONNECTION, connectionStatements, SYNC_WALK_PAGE } from '../../src/modules/connection/connection.store.ts';
import { PROFILE, profileStatements } from '../../src/modules/profile/profile.store.ts';
import { sessionStatements } from '../../src/modules/session/session.store.ts';
import { apiKeyStatements } from '../../src/modules/environment/environment.store.ts';
import { countTransactions, TRANSACTION, transactionRecords, transactionStatements, transactionsExist, transactionWhere } from '../../src/modules/transaction/transaction.store.ts';
import { transactionSyncStatements } from '../../src/modules/transaction/transaction-sync.store.ts';
import { transactionEnrichmentStatements } from '../../src/modules/transaction/transaction-enrichment.store.ts';
import { eventStatements } from '../../src/modules/event/event.store.ts';
import { webhookStatements } from '../../src/modules/webhook/webhook.store.ts';
import { webhookBacklogStatements } from '../../src/modules/webhook/webhook-backlog.ts';
import { syncHistoryStatements } from '../../src/modules/sync/connection-sync.store.ts';
import { categorizationStatements } from '../../src/modules/categorization/categorization.store.ts';
import {
  activityExists,
  activityRecords,
  activityWhere,
  countActivity,
  countHoldings,
  HOLDING,
  holdingRecords,
  holdingsExist,
  holdingWhere,
  INVESTMENT_TRANSACTION,
  investmentStatements,
} from '../../src/modules/investment/investment.store.ts';
import { LIABILITY, liabilityStatements } from '../../src/modules/liability/liability.store.ts';
import { linkStateStatements } from '../../src/modules/linking/link-state.store.ts';
import { ACCOUNT_OWNERS, accountOwnersStatements } from '../../src/modules/owner/account-owners.store.ts';
import { SECURITY, securityStatements } from '../../src/modules/security/security.store.ts';
import { operatorStatements } from '../../src/modules/operator/operator.store.ts';
import { auditStatements } from '../../src/modules/operator/audit.store.ts';
import { countStatements, STATEMENT, statementRecords, statementsExist, statementStatements, statementWhere } from '../../src/modules/statement/statement.store.ts';

/** Every table a store declares, and every named statement of every store. */
const TABLES: Array<Table<Columns>> = [ACCOUNT, BALANCE, CONNECTION, SYNC_WALK_PAGE, PROFILE, TRANSACTION, SECURITY, HOLDING, INVESTMENT_TRANSACTION, LIABILITY, ACCOUNT_OWNERS, STATEMENT];
const STATEMENTS = Object.entries({
  account: accountStatements,
  balanceRetention: balanceRetentionStatements,
  apiKey: apiKeyStatements,
  connection: connectionStatements,
  profile: profileStatements,
  session: sessionStatements,
  transaction: transactionStatements,
  transactionSync: transactionSyncStatements,
  transactionEnrichment: transactionEnrichmentStatements,
  event: eventStatements,
  webhook: webhookStatements,
  webhookBacklog: webhookBacklogStatements,
  syncHistory: syncHistoryStatements,
  security: securityStatements,
  investment: investmentStatements,
  liability: liabilityStatements,
  accountOwners: accountOwnersStatements,
  statement: statementStatements,
  linkState: linkStateStatements,
  categorization: categorizationStatements,
  operator: operatorStatements,
  audit: auditStatements,
}).flatMap(([store, statements]) => Object.entries(statements).map(([name, sql]) => ({ name: `${store}.${name}`, sql })));

/** The entity column type each declared kind must match (a prefix: numeric(19,4) is numeric). */
const ENTITY_TYPES: Record<ColumnKind, string> = {
  uuid: 'uuid',
  text: 'text',
  date: 'date',
  numeric: 'numeric',
  timestamptz: 'timestamptz',
  jsonb: 'jsonb',
  boolean: 'boolean',
  integer: 'int',
};

/** Where a store's declaration of a table disagrees with the entity the ORM maps to it. */
function mismatches(orm: MikroORM, declared: Table<Columns>): string[] {
  const entity = [...orm.getMetadata().getAll().values()].find((candidate) => candidate.tableName === declared.name);
  if (!entity) return [`${declared.name}: no entity maps this table`];
  return Object.entries(declared.columns).flatMap(([field, column]) => {
    const name = `${declared.name}.${columnOf(field)}`;
    const property = Object.values(entity.properties).find((candidate) => candidate.fieldNames?.includes(columnOf(field)));
    if (!property) return [`${name}: the entity has no such column`];
    const problems: string[] = [];
    if (!property.columnTypes[0]!.startsWith(ENTITY_TYPES[column.kind])) problems.push(`${name}: declared ${column.kind}, the entity's is ${property.columnTypes[0]}`);
    if (Boolean(property.nullable) !== column.nullable) problems.push(`${name}: declared ${column.nullable ? '' : 'not '}nullable, the entity's is ${property.nullable ? '' : 'not '}nullable`);
    const values = (list: readonly unknown[] | undefined) => JSON.stringify([...(list ?? [])].sort());
    if (values(column.values) !== values(property.enum ? property.items : undefined)) problems.push(`${name}: declared values ${values(column.values)}, the entity's are ${values(property.items)}`);
    return problems;
  });
}

const { adminUrl, template } = inject('database');
const name = `t_stores_${Date.now().toString(36)}`;
const url = adminUrl.replace(/\/[^/]+$/, `/${name}`);
let orm: MikroORM;

beforeAll(async () => {
  await runOnce(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  orm = await openDatabase(url, { poolMax: 2 });
});
afterAll(async () => {
  await orm?.close();
  await runOnce(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

describe('stores', () => {
  it('declare only columns their entity has, with its type, nullability and enum values', () => {
    expect(TABLES.flatMap((declared) => mismatches(orm, declared))).toEqual([]);
  });

  it('report a column the entity lacks, or one declared with another type, nullability or values', () => {
    const drifted = table('transaction', { amount: col.text(), metadata: col.json(), status: col.oneOf(['POSTED']), memo: col.text() });
    expect(mismatches(orm, drifted)).toEqual([
      "transaction.amount: declared text, the entity's is numeric(19,4)",
      "transaction.metadata: declared not nullable, the entity's is nullable",
      'transaction.status: declared values ["POSTED"], the entity\'s are ["PENDING","POSTED"]',
      'transaction.memo: the entity has no such column',
    ]);
  });

  it('send named statements PostgreSQL accepts against the migrated schema', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const refused: string[] = [];
    try {
      for (const [index, { name: statement, sql }] of STATEMENTS.entries()) {
        // PREPARE parses, resolves every table and column and infers every parameter's type, without running anything.
        await client.query(`prepare store_statement_${index} as ${sql}`).then(
          () => client.query(`deallocate store_statement_${index}`),
          (error: Error) => refused.push(`${statement}: ${error.message}`),
        );
      }
    } finally {
      await client.end();
    }
    expect(STATEMENTS.length).toBeGreaterThan(10);
    expect(refused).toEqual([]);
  });

  it('read transactions with every filter of the schema at once, past a keyset position', async () => {
    const em = orm.em.fork();
    const where = transactionWhere(uuidv7(), {
      status: ['POSTED'],
      entryType: 'DEBIT',
      amount_gte: '-100.50',
      amount_lte: '0',
      date_gte: '2026-01-01',
      date_lte: '2026-12-31',
      kind: ['DEPOSITORY', 'CREDIT'],
      accountIds: [encodeId('account', uuidv7())],
      metadata: { cohort: 'alpha' },
      categories: ['FOOD_AND_DRINK', 'TRANSPORTATION_GAS'],
    });
    const bound = { operator: '<' as const, date: '2026-06-01', id: uuidv7() };
    expect(await transactionRecords(em, where, bound, 'desc', 10)).toEqual([]);
    expect(await transactionsExist(em, where, bound)).toBe(false);
    expect(await countTransactions(em, transactionWhere(uuidv7(), { metadata: null }))).toBe(0);
  });

  it('read holdings and investment transactions with every filter of the schema at once, past a keyset position', async () => {
    const em = orm.em.fork();
    const bound = { operator: '>' as const, date: '2026-06-01', id: uuidv7() };
    const holdings = holdingWhere(uuidv7(), { accountIds: [encodeId('account', uuidv7())], securityTypes: ['ETF', 'EQUITY'] });
    expect(await holdingRecords(em, holdings, bound, 'asc', 10)).toEqual([]);
    expect(await holdingsExist(em, holdings, bound)).toBe(false);
    expect(await countHoldings(em, holdings)).toBe(0);
    const activity = activityWhere(uuidv7(), {
      date_gte: '2026-01-01',
      date_lte: '2026-12-31',
      accountIds: [encodeId('account', uuidv7())],
      types: ['BUY', 'DIVIDEND'],
      securityIds: [encodeId('security', uuidv7())],
    });
    expect(await activityRecords(em, activity, bound, 'desc', 10)).toEqual([]);
    expect(await activityExists(em, activity, bound)).toBe(false);
    expect(await countActivity(em, activity)).toBe(0);
  });

  it('read statements with every filter of the schema at once, past a keyset position', async () => {
    const em = orm.em.fork();
    const where = statementWhere(uuidv7(), { accountIds: [encodeId('account', uuidv7())], endOn_gte: '2026-01-01', endOn_lte: '2026-12-31' });
    const bound = { operator: '<' as const, date: '2026-06-30', id: uuidv7() };
    expect(await statementRecords(em, where, bound, 'desc', 10)).toEqual([]);
    expect(await statementsExist(em, where, bound)).toBe(false);
    expect(await countStatements(em, where)).toBe(0);
  });
});
