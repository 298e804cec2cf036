import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepRecentStatements, queryStats, statementsSince } from '../../src/db/query-stats.ts';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { Account } from '../../src/modules/account/account.entity.ts';
import { builders, type Builders } from '../support/builders.ts';
import { syncedSandboxProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

keepRecentStatements();
const now = new Date('2026-05-20T12:00:00Z');
let app: TestApp;
let build: Builders;
let owner: { id: string; auth: string };
let stranger: { id: string; auth: string };

beforeAll(async () => {
  app = await startTestApp({}, { sandboxNow: () => now });
  build = builders(app);
  owner = await syncedSandboxProfile(app, ['ins_first_platypus', 'ins_tattersall_fcu']);
  stranger = await syncedSandboxProfile(app, ['ins_houndstooth']);
});
afterAll(() => app?.stop());

/** One request; like a well-behaved client, waits out the 100 requests/s limit when a walk hits it. */
async function graphql(auth: string, query: string, variables?: Record<string, unknown>) {
  for (;;) {
    const response = await app.http.post('/v1/graphql', { auth, json: { query, variables } });
    if (response.status !== 429) return response;
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers['retry-after']) * 1000));
  }
}

async function data(query: string, variables?: Record<string, unknown>, auth = owner.auth) {
  const response = await graphql(auth, query, variables);
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return response.body.data;
}

const PAGE = `query Page($first: Int, $after: String, $last: Int, $before: String, $sort: TransactionSort, $filter: TransactionFilter) {
  transactions(first: $first, after: $after, last: $last, before: $before, sort: $sort, filter: $filter) {
    count
    edges { cursor node { id date amount entryType status description account { id name kind } } }
    nodes { id }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

/** Every transaction id a walk visits, forwards with `first` or backwards with `last`. */
async function walk(filter: Record<string, unknown> | undefined, options: { sort?: string; backwards?: boolean; size?: number } = {}) {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 200; pages++) {
    const variables = options.backwards
      ? { last: options.size ?? 100, before: cursor, sort: options.sort, filter }
      : { first: options.size ?? 100, after: cursor, sort: options.sort, filter };
    const { transactions } = await data(PAGE, variables);
    expect(transactions.nodes.map((node: { id: string }) => node.id)).toEqual(transactions.edges.map((edge: { node: { id: string } }) => edge.node.id));
    const pageIds = transactions.edges.map((edge: { node: { id: string } }) => edge.node.id);
    if (options.backwards) ids.unshift(...pageIds);
    else ids.push(...pageIds);
    const more = options.backwards ? transactions.pageInfo.hasPreviousPage : transactions.pageInfo.hasNextPage;
    if (!more) return { ids, count: transactions.count };
    cursor = options.backwards ? transactions.pageInfo.startCursor : transactions.pageInfo.endCursor;
  }
  throw new Error('walk did not end');
}

/** The same selection straight from SQL: the ground truth the API must agree with. */
async function expected(where: string, params: unknown[] = [], order = 'desc') {
  const rows = await app.sql(
    `select t.id from transaction t join account a on a.id = t.account_id where t.profile_id = $1 ${where ? `and ${where}` : ''} order by t.date ${order}, t.id ${order}`,
    [decodeId('profile', owner.id), ...params],
  );
  return rows.map((row) => encodeId('transaction', row.id));
}

describe('transactions', () => {
  it('pages forwards and backwards through every transaction, newest first, without skipping or repeating', async () => {
    const all = await expected('');
    expect(all.length).toBeGreaterThan(2000);
    const forwards = await walk(undefined);
    expect(forwards.ids).toEqual(all);
    expect(forwards.count).toBe(all.length);
    const backwards = await walk(undefined, { backwards: true, size: 77 });
    expect(backwards.ids).toEqual(all);
    const ascending = await walk(undefined, { sort: 'DATE_ASC', size: 250 });
    expect(ascending.ids).toEqual([...all].reverse());
  });

  it('caps pages at 100 and defaults to 25', async () => {
    expect((await data(PAGE, { first: 500 })).transactions.edges).toHaveLength(100);
    expect((await data(PAGE, { last: 1000 })).transactions.edges).toHaveLength(100);
    expect((await data(PAGE, {})).transactions.edges).toHaveLength(25);
    const empty = (await data(PAGE, { first: 0 })).transactions;
    expect(empty.edges).toEqual([]);
    expect(empty.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: null, endCursor: null });
  });

  it.each([
    ['status', { status: ['PENDING'] }, "t.status = 'PENDING'"],
    ['entryType DEBIT', { entryType: 'DEBIT' }, 't.amount < 0'],
    ['entryType CREDIT', { entryType: 'CREDIT' }, 't.amount >= 0'],
    ['amount range of debits', { entryType: 'DEBIT', amount_gte: -100, amount_lte: '-50.5' }, 't.amount < 0 and t.amount between -100 and -50.5'],
    ['date range', { date_gte: '2026-01-01', date_lte: '2026-03-31' }, "t.date between '2026-01-01' and '2026-03-31'"],
    ['kind list', { kind: ['CREDIT', 'LOAN'] }, "a.kind in ('CREDIT', 'LOAN')"],
    ['empty list', { kind: [] }, 'false'],
    ['combination', { status: ['POSTED'], entryType: 'DEBIT', kind: ['DEPOSITORY'], date_gte: '2025-06-01' }, "t.status = 'POSTED' and t.amount < 0 and a.kind = 'DEPOSITORY' and t.date >= '2025-06-01'"],
  ])('filters by %s exactly as the schema describes', async (_label, filter, where) => {
    const truth = await expected(where);
    const result = await walk(filter);
    expect(result.ids).toEqual(truth);
    expect(result.count).toBe(truth.length);
  });

  it('filters by accounts (ignoring ids that are not the profile\'s) and by metadata, including metadata: null', async () => {
    const [card] = await app.sql(`select id from account where profile_id = $1 and kind = 'CREDIT' limit 1`, [decodeId('profile', owner.id)]);
    const [foreign] = await app.sql('select id from account where profile_id = $1 limit 1', [decodeId('profile', stranger.id)]);
    const byAccount = await walk({ accountIds: [encodeId('account', card.id), encodeId('account', foreign.id), 'acct_garbage'] });
    expect(byAccount.ids).toEqual(await expected('t.account_id = $2', [card.id]));

    const tagged = (await expected("t.status = 'POSTED'")).slice(3, 6);
    for (const id of tagged) {
      const result = await data('mutation($input: TransactionUpdateInput!) { transactionUpdate(input: $input) { success errors { path message } } }', {
        input: { id, metadata: { reviewed: true, note: 'split with Sam' } },
      });
      expect(result.transactionUpdate).toEqual({ success: true, errors: null });
    }
    expect((await walk({ metadata: { reviewed: true } })).ids).toEqual(tagged);
    expect((await walk({ metadata: { reviewed: 'true' } })).ids).toEqual([]);
    expect((await walk({ metadata: null })).count).toBe((await expected('')).length - 3);
    expect((await walk({ metadata: {} })).count).toBe((await expected('')).length);
  });

  it('never skips or repeats while new transactions arrive during a walk', async () => {
    const before = await expected('');
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; ; page++) {
      const { transactions } = await data(PAGE, { first: 100, after: cursor });
      seen.push(...transactions.edges.map((edge: { node: { id: string } }) => edge.node.id));
      if (page === 2) {
        // A new transaction dated today (ahead of the walk) and one dated in the distant past (behind it).
        const account = await app.orm.em.fork().findOneOrFail(Account, { profile: decodeId('profile', owner.id)! }, { orderBy: { id: 'asc' } });
        await build.transactions([{ date: '2026-05-20' }, { date: '2020-01-01' }], { account, description: 'Late arrival', amount: '-1.23' });
      }
      if (!transactions.pageInfo.hasNextPage) break;
      cursor = transactions.pageInfo.endCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => before.includes(id))).toEqual(before);
    await app.sql(`delete from transaction where description = 'Late arrival'`);
  });

  it('reads each transaction with its account, an entryType that agrees with the amount, and exact amounts', async () => {
    const { transactions } = await data(PAGE, { first: 100, filter: { kind: ['CREDIT'] } });
    for (const { node } of transactions.edges) {
      expect(node.entryType).toBe(node.amount < 0 ? 'DEBIT' : 'CREDIT');
      expect(node.account.kind).toBe('CREDIT');
    }
    const sample = transactions.edges[0].node;
    const [row] = await app.sql('select amount::text, remote_data from transaction where id = $1', [decodeId('transaction', sample.id)]);
    expect(String(sample.amount)).toBe(String(Number(row.amount)));
    const single = await data('query($id: ID!) { transaction(id: $id) { id amount remoteData metadata account { id } } }', { id: sample.id });
    expect(single.transaction).toMatchObject({ id: sample.id, amount: sample.amount, remoteData: row.remote_data, account: { id: sample.account.id } });
  });

  it('gives every transaction of a page its own account, read in the page\'s own statement, forwards and backwards in both orders', async () => {
    const stored = new Map(
      (await app.sql('select t.id, t.account_id, a.name, a.kind from transaction t join account a on a.id = t.account_id where t.profile_id = $1', [decodeId('profile', owner.id)])).map(
        (row: { id: string; account_id: string; name: string; kind: string }) => [encodeId('transaction', row.id), { id: encodeId('account', row.account_id), name: row.name, kind: row.kind }],
      ),
    );
    expect(new Set([...stored.values()].map((account) => account.id)).size).toBeGreaterThan(2);
    for (const variables of [{ first: 100 }, { first: 100, sort: 'DATE_ASC' }, { last: 100 }, { last: 37, sort: 'DATE_ASC' }]) {
      const before = queryStats.statements;
      const { transactions } = await data(PAGE, variables);
      const pages = statementsSince(before).filter((sql) => sql.includes('from transaction t where') && !sql.includes('count(') && !sql.includes('exists ('));
      expect(pages, JSON.stringify(variables)).toHaveLength(1);
      expect(statementsSince(before).some((sql) => /^select [\s\S]* from account a where a\.id = any/.test(sql))).toBe(false);
      expect(transactions.edges.length, JSON.stringify(variables)).toBeGreaterThan(30);
      for (const { node } of transactions.edges) expect(node.account, node.id).toEqual(stored.get(node.id));
    }
  });

  it('reads only the columns a page selects, and every field alone (through a fragment too) has the value it has beside all others', async () => {
    const fields = [
      'id', 'date', 'description', 'amount', 'entryType', 'status', 'currencyCode', 'originalAmount', 'originalCurrencyCode', 'account { id name }',
      'metadata', 'merchant { name website logoUrl }', 'category { primary detailed source confidence }', 'paymentChannel', 'remoteData', 'at', '__typename',
    ];
    const filter = { categories: ['FOOD_AND_DRINK'] };
    // Every column filled on some rows (another profile's: other tests read the owner's), so that a column a field needs and a page left out shows.
    await app.sql(
      `update transaction set merchant_website = 'example.com', merchant_logo_url = 'https://example.com/logo.png', original_amount = amount * 2, original_currency_code = 'EUR', metadata = '{"k": "v"}'
        where profile_id = $1 and category_primary = 'FOOD_AND_DRINK' and merchant_name is not null`,
      [decodeId('profile', stranger.id)],
    );
    const full = (await data(`query($filter: TransactionFilter) { transactions(first: 100, filter: $filter) { edges { node { ${fields.join(' ')} } } } }`, { filter }, stranger.auth)).transactions.edges.map(
      (edge: { node: Record<string, unknown> }) => edge.node,
    );
    expect(full.length).toBeGreaterThan(10);
    expect(full.every((node: { category: unknown }) => node.category !== null)).toBe(true);
    expect(full.some((node: { merchant: { website: unknown } | null; originalAmount: unknown; metadata: unknown }) => node.merchant?.website && node.originalAmount && node.metadata)).toBe(true);
    for (const field of fields) {
      const name = field.split(' ')[0]!;
      const alone = await data(`query($filter: TransactionFilter) { transactions(first: 100, filter: $filter) { nodes { ...Picked } } } fragment Picked on Transaction { ${field} }`, { filter }, stranger.auth);
      expect(alone.transactions.nodes.map((node: Record<string, unknown>) => node[name]), field).toEqual(full.map((node: Record<string, unknown>) => node[name]));
    }
    const before = queryStats.statements;
    await data('{ transactions(first: 5) { edges { cursor node { amount } } } }');
    const [page] = statementsSince(before).filter((sql) => sql.includes('from transaction t where'));
    expect(page).toMatch(/"amount"/);
    expect(page).not.toMatch(/metadata|merchant|category|created_at|remote_data/);
    // Remote data, selected, is read by the page's statement, not loaded after it.
    const again = queryStats.statements;
    const { transactions } = await data('{ transactions(first: 5) { nodes { id remoteData } } }');
    const sent = statementsSince(again);
    expect(sent.filter((sql) => sql.includes('from transaction t where'))).toEqual([expect.stringMatching(/"remote_data" as "remoteData"/)]);
    expect(sent.filter((sql) => sql.includes('t.id = any('))).toEqual([]);
    const [row] = await app.sql('select remote_data from transaction where id = $1', [decodeId('transaction', transactions.nodes[0].id)]);
    expect(transactions.nodes[0].remoteData).toEqual(row.remote_data);
  });

  it('refuses bad paging arguments and cursors with BAD_USER_INPUT', async () => {
    const { transactions } = await data(PAGE, { first: 1 });
    for (const variables of [{ first: -1 }, { first: 5, last: 5 }, { last: 5, after: transactions.pageInfo.endCursor }, { first: 5, after: 'not-a-cursor' }, { first: 5, after: transactions.pageInfo.endCursor, sort: 'DATE_ASC' }]) {
      const response = await graphql(owner.auth, PAGE, variables);
      expect(response.status).toBe(200);
      expect(response.body.data).toBeNull();
      expect(response.body.errors[0].extensions.code, JSON.stringify(variables)).toBe('BAD_USER_INPUT');
    }
  });

  it('keeps profiles apart: another profile\'s transaction reads as not found', async () => {
    const [foreign] = await app.sql('select id from transaction where profile_id = $1 limit 1', [decodeId('profile', stranger.id)]);
    const response = await graphql(owner.auth, '{ transaction(id: "' + encodeId('transaction', foreign.id) + '") { id } }');
    expect(response.body.data.transaction).toBeNull();
    expect(response.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const update = await data('mutation($input: TransactionUpdateInput!) { transactionUpdate(input: $input) { success record { id } errors { path message } } }', {
      input: { id: encodeId('transaction', foreign.id), metadata: { mine: true } },
    });
    expect(update.transactionUpdate).toEqual({ success: false, record: null, errors: [{ path: ['id'], message: 'Transaction not found' }] });
  });
});

describe('accounts and connections', () => {
  it('lists accounts with their latest balance and filters them', async () => {
    const { accounts } = await data('{ accounts { id name kind verified balance { id at available current limit } connection { id status } } }');
    expect(accounts).toHaveLength(9);
    const card = accounts.find((account: { kind: string }) => account.kind === 'CREDIT');
    expect(card.balance.current).toBeLessThan(0);
    expect(card.balance.limit).toBeLessThan(0);
    const [row] = await app.sql('select b.current::text from account a join balance b on b.id = a.latest_balance_id where a.id = $1', [decodeId('account', card.id)]);
    expect(String(card.balance.current)).toBe(String(Number(row.current)));

    expect((await data('{ accounts(filter: {kind: [LOAN, INVESTMENT]}) { kind } }')).accounts.map((a: { kind: string }) => a.kind).sort()).toEqual(['INVESTMENT', 'LOAN', 'LOAN']);
    expect((await data('{ accounts(filter: {verified: true}) { kind } }')).accounts).toHaveLength(4);
    expect((await data('{ accounts(filter: {connectionStatus: [ERROR_REPAIRABLE]}) { id } }')).accounts).toEqual([]);
  });

  it('updates an account\'s name override and metadata, and reports rule violations as data', async () => {
    const { accounts } = await data('{ accounts { id name } }');
    const target = accounts[0];
    const mutation = 'mutation($input: AccountUpdateInput!) { accountUpdate(input: $input) { success record { id name metadata } errors { path message } } }';
    const renamed = await data(mutation, { input: { id: target.id, name: '  Joint household ', metadata: { household: 'yes' } } });
    expect(renamed.accountUpdate).toEqual({ success: true, record: { id: target.id, name: 'Joint household', metadata: { household: 'yes' } }, errors: null });
    expect((await data('{ accounts(filter: {metadata: {household: "yes"}}) { id } }')).accounts).toEqual([{ id: target.id }]);

    const refused = await data(mutation, { input: { id: target.id, name: ' ', metadata: { contact: 'sam@example.com' } } });
    expect(refused.accountUpdate.success).toBe(false);
    expect(refused.accountUpdate.record).toBeNull();
    expect(refused.accountUpdate.errors.map((error: { path: string[] }) => error.path)).toEqual([['attributes', 'name'], ['attributes', 'metadata', 'contact']]);
    const reset = await data(mutation, { input: { id: target.id, name: null, metadata: null } });
    expect(reset.accountUpdate.record).toEqual({ id: target.id, name: target.name, metadata: null });
  });

  it('reads connections with their institution and accounts, filters and updates them', async () => {
    const { connections } = await data('{ connections { id status institution { id name } products lastSyncedAt accounts { id } } }');
    expect(connections.map((c: { institution: { id: string } }) => c.institution.id)).toEqual(['ins_first_platypus', 'ins_tattersall_fcu']);
    expect(connections[0].accounts).toHaveLength(5);
    const update = await data('mutation($input: ConnectionUpdateInput!) { connectionUpdate(input: $input) { success record { metadata } } }', {
      input: { id: connections[1].id, metadata: { source: 'onboarding' } },
    });
    expect(update.connectionUpdate).toEqual({ success: true, record: { metadata: { source: 'onboarding' } } });
    expect((await data('{ connections(filter: {metadata: {source: "onboarding"}}) { id } }')).connections).toEqual([{ id: connections[1].id }]);
    expect((await data('{ connections(filter: {metadata: null, status: [SYNCED]}) { id } }')).connections).toEqual([{ id: connections[0].id }]);
    const foreign = await graphql(stranger.auth, `{ connection(id: "${connections[0].id}") { id } }`);
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
