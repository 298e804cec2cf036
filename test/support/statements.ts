import { extractText, getDocumentProxy } from 'unpdf';
import { expect } from 'vitest';
import type { TestApp } from './test-app.ts';
import { waitFor } from './wait.ts';

/** A profile's statements over GraphQL, with every field. */
export const STATEMENTS = `query Statements($first: Int, $after: String, $filter: StatementFilter) {
  statements(first: $first, after: $after, filter: $filter) {
    count
    nodes { id accountId startOn endOn issuedOn status failureReason size sha256 url urlExpiresAt at account { id name mask kind } }
    pageInfo { hasNextPage endCursor }
  }
}`;

export interface Statement {
  id: string;
  accountId: string;
  startOn: string;
  endOn: string;
  issuedOn: string | null;
  status: string;
  failureReason: string | null;
  size: number | null;
  sha256: string | null;
  url: string | null;
  urlExpiresAt: string | null;
  account: { id: string; name: string; mask: string; kind: string };
}

/** GraphQL `data` of a query the profile's `auth` runs; no errors. */
export async function graphqlData(app: TestApp, auth: string, query: string, variables?: Record<string, unknown>) {
  const response = await app.http.post('/v1/graphql', { auth, json: { query, variables } });
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return response.body.data;
}

/** The profile's statements (newest period first) once `done` holds of them. */
export async function statementsWhen(app: TestApp, auth: string, done: (statements: Statement[]) => boolean, what: string): Promise<Statement[]> {
  return waitFor(async () => {
    const { statements } = await graphqlData(app, auth, STATEMENTS, { first: 100 });
    return done(statements.nodes) ? (statements.nodes as Statement[]) : undefined;
  }, what, 60_000);
}

/** A URL's path and query, as the test client sends them (it talks to the service's own port, whatever origin the URL names). */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** A PDF's text, read back with a PDF text extractor, whitespace runs made one space. */
export async function pdfText(bytes: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

const cents = (amount: number) => Math.round(amount * 100);
const decimal = (value: number) => `${value < 0 ? '-' : ''}${Math.floor(Math.abs(value) / 100)}.${String(Math.abs(value) % 100).padStart(2, '0')}`;

/**
 * The account's balance at the end of `endOn`, as its stored transactions give it: today's balance
 * less every posted transaction dated after that day, as an exact decimal string.
 */
export async function balanceAtEndOf(app: TestApp, auth: string, accountId: string, endOn: string): Promise<string> {
  const { account } = await graphqlData(app, auth, `query($id: ID!) { account(id: $id) { balance { current } } }`, { id: accountId });
  const nextDay = new Date(Date.parse(`${endOn}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  let after = 0;
  let cursor: string | null = null;
  do {
    const page: { nodes: Array<{ amount: number }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } } = (
      await graphqlData(app, auth, `query($after: String, $filter: TransactionFilter) { transactions(first: 100, after: $after, filter: $filter) { nodes { amount } pageInfo { hasNextPage endCursor } } }`, {
        after: cursor,
        filter: { accountIds: [accountId], status: ['POSTED'], date_gte: nextDay },
      })
    ).transactions;
    after += page.nodes.reduce((sum, transaction) => sum + cents(transaction.amount), 0);
    cursor = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (cursor);
  return decimal(cents(account.balance.current) - after);
}

/** The descriptions of the account's posted transactions dated in [startOn, endOn] (at most 100). */
export async function postedDescriptions(app: TestApp, auth: string, accountId: string, startOn: string, endOn: string): Promise<string[]> {
  const { transactions } = await graphqlData(app, auth, `query($filter: TransactionFilter) { transactions(first: 100, filter: $filter) { nodes { description } } }`, {
    filter: { accountIds: [accountId], status: ['POSTED'], date_gte: startOn, date_lte: endOn },
  });
  return transactions.nodes.map((transaction: { description: string }) => transaction.description.replace(/\s+/g, ' '));
}
