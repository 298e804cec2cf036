import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakePlaid } from '../fakes/plaid/index.ts';
import { basicAuth } from '../support/factories.ts';
import { startPlaidApp } from '../support/plaid-app.ts';
import { plaidConnections } from '../support/plaid-connections.ts';
import { balanceAtEndOf, pathOf, pdfText, statementsWhen } from '../support/statements.ts';
import type { TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

/*
 * Statements through Plaid: the adapter lists /statements/list, downloads each PDF from
 * /statements/download once and checks it against Plaid-Content-Hash, asks /statements/refresh for an
 * older period, and lists again when STATEMENTS_REFRESH_COMPLETE arrives; all against the stateful
 * fake of Plaid, read over HTTPS on real PostgreSQL.
 */

let app: TestApp;
let plaid: FakePlaid;
const { connectPlaid, eventsOf } = plaidConnections(() => ({ app, plaid }));

beforeAll(async () => {
  ({ app, plaid } = await startPlaidApp());
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await plaid?.stop();
});

const PRODUCTS = ['TRANSACTIONS', 'BALANCES', 'STATEMENTS'];
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const downloads = () => plaid.requests.filter((request) => request.endpoint === '/statements/download');

describe('a Plaid connection with STATEMENTS', () => {
  it('stores the statements of the last 90 days, each fetched once, checked against Plaid-Content-Hash, and downloadable as the PDF Plaid sent', async () => {
    const { profile, itemId } = await connectPlaid({ products: PRODUCTS });
    const auth = basicAuth(profile.id, app.apiKey);
    const upstream = plaid.statements(itemId);
    expect(upstream.length).toBeGreaterThan(0);
    const statements = await statementsWhen(app, auth, (listed) => listed.length === upstream.length && listed.every((statement) => statement.status === 'READY'), 'the statements to be READY');
    expect(new Set(statements.map((statement) => statement.account.kind))).toEqual(new Set(['DEPOSITORY']));
    const ofThisItem = downloads().filter((request) => request.itemId === itemId);
    expect(ofThisItem.map((request) => request.body!.statement_id).sort()).toEqual(upstream.map((statement) => statement.statementId).sort());
    const link = plaid.requests.find((request) => request.endpoint === '/sandbox/public_token/create' && request.itemId === itemId)!;
    expect((link.body!.options as { statements: unknown }).statements).toEqual({ start_date: day(-90), end_date: day(0) });

    const statement = statements.find((candidate) => candidate.account.name === 'Plaid Checking')!;
    const plaidsOwn = upstream.find((candidate) => `${candidate.year}-${String(candidate.month).padStart(2, '0')}` === statement.endOn.slice(0, 7))!;
    expect(statement.issuedOn).toBe(plaidsOwn.datePosted);
    const response = await app.http.get(pathOf(statement.url!));
    expect(response.status, response.text).toBe(200);
    expect(createHash('sha256').update(response.bytes!).digest('hex')).toBe(statement.sha256);
    const text = await pdfText(response.bytes!);
    expect(text).toContain('First Platypus Bank');
    expect(text).toContain(`Statement period: ${statement.startOn} to ${statement.endOn}`);
    expect(text).toContain(`Closing balance: ${await balanceAtEndOf(app, auth, statement.accountId, statement.endOn)} USD`);
  });

  it('asks Plaid for an older period, and lists and fetches what STATEMENTS_REFRESH_COMPLETE announces', async () => {
    const { profile, connection, itemId } = await connectPlaid({ products: PRODUCTS });
    const auth = basicAuth(profile.id, app.apiKey);
    const before = await statementsWhen(app, auth, (listed) => listed.length === plaid.statements(itemId).length && listed.every((statement) => statement.status === 'READY'), 'the first statements');
    const refreshed = await app.http.post(`/v1/connections/${connection.id}/statements/refresh`, { auth: app.apiKey, json: { startOn: day(-200), endOn: day(0) } });
    expect(refreshed.status, refreshed.text).toBe(202);
    const asked = await waitFor(async () => plaid.requests.find((request) => request.endpoint === '/statements/refresh' && request.itemId === itemId), 'the refresh to reach Plaid');
    expect(asked.body).toMatchObject({ start_date: day(-200), end_date: day(0) });
    const upstream = plaid.statements(itemId);
    expect(upstream.length).toBeGreaterThan(before.length);
    const after = await statementsWhen(app, auth, (listed) => listed.length === upstream.length && listed.every((statement) => statement.status === 'READY'), 'the older statements to be READY');
    expect(after.map((statement) => statement.endOn).at(-1)! < before.map((statement) => statement.endOn).at(-1)!).toBe(true);
    expect(await eventsOf(profile.id, 'statement.created')).toHaveLength(upstream.length);
    expect(await eventsOf(profile.id, 'statement.ready')).toHaveLength(upstream.length);
    // Each statement was downloaded once, the older ones included.
    const ofThisItem = downloads().filter((request) => request.itemId === itemId).map((request) => request.body!.statement_id);
    expect(ofThisItem.sort()).toEqual(upstream.map((statement) => statement.statementId).sort());
  });

  it('refuses a PDF whose SHA-256 is not the one Plaid names, a bounded number of times, then marks it FAILED', { timeout: 120_000 }, async () => {
    const { profile, connection, itemId } = await connectPlaid({ products: PRODUCTS });
    const auth = basicAuth(profile.id, app.apiKey);
    await statementsWhen(app, auth, (listed) => listed.length === plaid.statements(itemId).length && listed.every((statement) => statement.status === 'READY'), 'the first statements');
    plaid.tamperStatements(itemId);
    expect((await app.http.post(`/v1/connections/${connection.id}/statements/refresh`, { auth: app.apiKey, json: { startOn: day(-150), endOn: day(0) } })).status).toBe(202);
    // Until the refresh reaches Plaid, the statements listed are the first ones, every one READY.
    await waitFor(async () => plaid.requests.find((request) => request.endpoint === '/statements/refresh' && request.itemId === itemId), 'the refresh to reach Plaid');
    const statements = await statementsWhen(
      app,
      auth,
      (listed) => listed.length === plaid.statements(itemId).length && listed.every((statement) => statement.status !== 'PENDING'),
      'the tampered statements to be refused for good',
    );
    const failed = statements.filter((statement) => statement.status === 'FAILED');
    expect(failed.length).toBeGreaterThan(0);
    for (const statement of failed) expect(statement).toMatchObject({ failureReason: "the document's SHA-256 does not match the provider's", url: null, size: null, sha256: null });
    const tries = new Map<string, number>();
    for (const request of downloads().filter((candidate) => candidate.itemId === itemId)) tries.set(request.body!.statement_id as string, (tries.get(request.body!.statement_id as string) ?? 0) + 1);
    // The ones refused were tried three times; the ones fetched before the tampering, once.
    expect([...tries.values()].sort()).toEqual([...Array(statements.length - failed.length).fill(1), ...Array(failed.length).fill(3)]);
  });
});
