import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WrittenAnswer } from '../../src/graphql/direct-answers.ts';
import { DocumentCache } from '../../src/graphql/documents.ts';
import type { GraphQLContext } from '../../src/graphql/context.ts';
import { LIMITS } from '../../src/graphql/limits.ts';
import { createLoaders } from '../../src/graphql/loaders.ts';
import { jsonLength } from '../../src/graphql/result-size.ts';
import { buildSchema } from '../../src/graphql/server.ts';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { sessionFor } from '../support/factories.ts';
import { profileWithData } from '../support/profile-with-data.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * A query that src/graphql/direct-answers.ts covers is answered with JSON written while it runs; the
 * general executor (graphql-jit, then JSON.stringify) answers everything else. Every document here
 * runs both ways over the same rows of a real database, and the answers must be the same bytes:
 * those it covers, and those it declines (whose answer is then the general executor's).
 */
const schema = buildSchema();
const direct = new DocumentCache(schema, { hideSuggestions: false });
const general = new DocumentCache(schema, { hideSuggestions: false, directAnswers: false });
let app: TestApp;
let profileId: string;
let publicProfileId: string;
let transactionId: string;

beforeAll(async () => {
  app = await startTestApp();
  const { profile } = await profileWithData(app);
  profileId = decodeId('profile', profile.id)!;
  publicProfileId = profile.id;
  // Strings JSON.stringify escapes (quotes, backslashes, controls, U+2028) or writes as they are (accents, astral characters); exact decimals (negative zero); nulls (masks, merchants, original amounts).
  const [first] = await app.sql<{ id: string }>('select id from transaction where profile_id = $1 order by date desc, id desc limit 1', [profileId]);
  transactionId = first!.id;
  await app.sql(`update transaction set description = $2, amount = '-123456789012345.6789', metadata = $3, merchant_name = 'Café "Ñ"' where id = $1`, [
    transactionId,
    'He said "hi" \\ then\nleft\t\u0001\u001f \u2028\u2029 é 😀 </script>',
    { note: 'line\nbreak "quoted" 😀', empty: '' },
  ]);
  await app.sql(`update transaction set amount = '-0.0000', description = '' where id = (select id from transaction where profile_id = $1 and id <> $2 order by date desc limit 1)`, [profileId, transactionId]);
  await app.sql(`update account set name_override = $2, mask = null where profile_id = $1`, [profileId, 'Joint "House" \\ account\u0007']);
});
afterAll(() => app?.stop());

function contextValue(): GraphQLContext {
  const em = app.orm.em.fork();
  const credential = { profileId, environmentId: app.environmentId };
  return {
    ...credential,
    em,
    sql: app.orm.em,
    cipher: app.cipher,
    log: pino({ level: 'silent' }),
    requestId: 'req_test',
    origin: 'https://localhost',
    loaders: createLoaders({ em, sql: app.orm.em }, credential, app.cipher),
  };
}

/** The document run both ways: each answer's text, and whether the direct way wrote it (rather than declining). */
async function bothWays(query: string, variables: Record<string, unknown> = {}, operationName?: string) {
  const prepared = direct.prepare(query, variables);
  if (!('document' in prepared)) throw new Error(`not runnable: ${prepared.errors.map((error) => error.message).join('; ')}`);
  const args = { schema, document: prepared.document, variableValues: variables, operationName };
  const fromDirect = await direct.execute({ ...args, contextValue: contextValue() });
  const fromGeneral = await general.execute({ ...args, contextValue: contextValue() });
  if (fromGeneral instanceof WrittenAnswer) throw new Error('the general cache wrote an answer directly');
  return { written: fromDirect instanceof WrittenAnswer, direct: fromDirect instanceof WrittenAnswer ? fromDirect.text : JSON.stringify(fromDirect), general: JSON.stringify(fromGeneral) };
}

const PAGE = `query Page($since: Date!) { transactions(first: 100, sort: DATE_DESC, filter: {date_gte: $since, entryType: DEBIT}) {
  edges { node { id date amount description account { id name kind } } } } }`;

describe('documents the direct answer covers: the same bytes as the general executor', () => {
  it.each([
    ['the bench page, with a variable', PAGE, { since: '2000-01-01' }],
    [
      'aliases, named and inline fragments, __typename at every level, a field selected twice',
      `query Aliased($n: Int!, $sort: TransactionSort) { kind: __typename
        page: transactions(first: $n, sort: $sort) { __typename edges { cursor node { ...Row id again: id ... on Transaction { cents: amount } } } }
        again: transactions(first: 2) { nodes { id } } }
       fragment Row on Transaction { __typename id date amount entryType status currencyCode originalAmount originalCurrencyCode description
        merchant { name website logoUrl source confidence } category { primary detailed source confidence } categoryV2 { primary detailed source confidence }
        paymentChannel metadata at account { ...Acct } }
       fragment Acct on Account { __typename id connectionId name kind subtype mask metadata at }`,
      { n: 40, sort: 'DATE_ASC' },
    ],
    ['one transaction by id, its escapes and exact decimal', `query One($id: ID!) { transaction(id: $id) { id amount description metadata merchant { name } account { name mask } } }`, undefined],
    ['default arguments, an empty page', '{ transactions(first: 0) { edges { node { id } } } }', {}],
    ['promised fields below the root, batched (remoteData)', '{ transactions(first: 20) { edges { node { id remoteData } } } }', {}],
    [
      'promised fields at two depths, page flags and count',
      '{ transactions(first: 5) { count pageInfo { hasNextPage hasPreviousPage endCursor } edges { node { account { name connection { id accounts { id } } } } } } }',
      {},
    ],
    ['a fragment spread twice on one selection', '{ transactions(first: 3) { edges { node { ...F ...F } } } } fragment F on Transaction { id amount }', {}],
  ])('%s', async (_name, query, variables) => {
    const answers = await bothWays(query, variables ?? { id: encodeId('transaction', transactionId) });
    expect(answers.written).toBe(true);
    expect(answers.direct).toBe(answers.general);
    expect(answers.direct).not.toContain('"errors"');
  });

  it('writes the stored decimal digits and escapes strings exactly as JSON.stringify does', async () => {
    const answers = await bothWays(`query One($id: ID!) { transaction(id: $id) { amount description merchant { name } } }`, { id: encodeId('transaction', transactionId) });
    expect(answers.written).toBe(true);
    expect(answers.direct).toBe(
      `{"data":{"transaction":{"amount":-123456789012345.6789,"description":${JSON.stringify('He said "hi" \\ then\nleft\t\u0001\u001f \u2028\u2029 é 😀 </script>')},"merchant":{"name":"Café \\"Ñ\\""}}}}`,
    );
  });
});

describe('documents it declines: the general executor answers, errors and all', () => {
  it.each([
    ['an error in a field (no such transaction)', '{ transaction(id: "txn_nope") { id } }', {}],
    ['an error in a resolver of a list (negative page size)', '{ ok: __typename transactions(first: -1) { edges { node { id } } } }', {}],
    ['a variable that does not coerce', 'query Q($n: Int!) { transactions(first: $n) { edges { node { id } } } }', { n: 'many' }],
    ['@include', 'query Q($with: Boolean!) { transactions(first: 2) { edges { node { id amount @include(if: $with) } } } }', { with: false }],
    ['a mutation', `mutation { transactionUpdate(input: {id: "txn_nope", metadata: {a: "b"}}) { success record { id } errors { path } } }`, {}],
    ['introspection', '{ __type(name: "Transaction") { name fields { name } } }', {}],
    ['the alias __proto__', '{ transactions(first: 2) { edges { node { __proto__: id } } } }', {}],
  ])('%s', async (_name, query, variables) => {
    const answers = await bothWays(query, variables);
    expect(answers.written).toBe(false);
    expect(answers.direct).toBe(answers.general);
  });

  it('declines a failed root field beside one with promised fields', async () => {
    const answers = await bothWays('{ t: transaction(id: "txn_nope") { id } transactions(first: 2) { edges { node { id remoteData account { connection { id } } } } } }');
    expect(answers.written).toBe(false);
    expect(answers.direct).toBe(answers.general);
  });
});

describe('the result-size limit', () => {
  it('finds a covered answer past the limit while making it, where the general executor finds its result past it', async () => {
    const large = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`key${i}`, 'x'.repeat(500)]));
    await app.sql('update transaction set metadata = $2 where profile_id = $1', [profileId, large]);
    const query = '{ transactions(first: 100) { edges { node { id metadata } } } }';
    const prepared = direct.prepare(query, {});
    if (!('document' in prepared)) throw new Error('not runnable');
    const args = { schema, document: prepared.document, variableValues: {} };
    const fromDirect = await direct.execute({ ...args, contextValue: contextValue() });
    const fromGeneral = await general.execute({ ...args, contextValue: contextValue() });
    expect(fromDirect).toEqual(new WrittenAnswer('', true));
    expect(jsonLength((fromGeneral as { data: unknown }).data, LIMITS.responseBytes)).toBeGreaterThan(LIMITS.responseBytes);
  });
});

describe('over HTTP', () => {
  it('answers a covered page with the general executor’s exact bytes', async () => {
    const token = await sessionFor(app, publicProfileId);
    const variables = { since: '2000-01-01' };
    const response = await app.http.post('/v1/graphql', { auth: `Bearer ${token}`, json: { query: PAGE, variables } });
    expect(response.status).toBe(200);
    expect(response.text).toBe((await bothWays(PAGE, variables)).general);
  });
});
