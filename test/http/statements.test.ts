import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../src/blobs/s3-blob-store.ts';
import { decodeId } from '../../src/lib/ids.ts';
import { downloadUrl } from '../../src/modules/statement/statement-links.ts';
import { statementBlobKey } from '../../src/modules/statement/statement.service.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { basicAuth, createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { balanceAtEndOf, graphqlData, pathOf, pdfText, postedDescriptions, STATEMENTS, statementsWhen, type Statement } from '../support/statements.ts';
import { waitFor } from '../support/wait.ts';

/*
 * Statements of a sandbox connection through the HTTPS front door on real PostgreSQL: a connection
 * made with STATEMENTS lists one statement per cash account per complete month of its history
 * (statement.created), fetches each PDF once into the blob store, here the S3 driver's (an s3rver of
 * the test's own), encrypted (statement.ready); the
 * profile downloads one through its signed URL with no credential, a real PDF whose closing balance
 * is the one its transactions give; the URL refuses another statement's or profile's claim, an
 * altered and an expired signature; a refresh checks its period; deleting the profile removes it all.
 */

let app: TestApp;
/** The app's bucket as it is, read past the service's encryption. */
let bucket: S3BlobStore;

const data = (auth: string, query: string, variables?: Record<string, unknown>) => graphqlData(app, auth, query, variables);

/** A profile with a First Platypus connection made with STATEMENTS, once every statement of it is READY. */
async function profileWithStatements(): Promise<{ id: string; uuid: string; auth: string; connectionId: string; statements: Statement[] }> {
  const profile = await createProfile(app);
  const auth = basicAuth(profile.id, app.apiKey);
  const connected = await app.http.post('/v1/sandbox/connections', {
    auth: app.apiKey,
    json: { profileId: profile.id, institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good', products: ['TRANSACTIONS', 'BALANCES', 'STATEMENTS'] },
  });
  expect(connected.status, connected.text).toBe(201);
  const statements = await statementsWhen(app, auth, (listed) => listed.length > 0 && listed.every((statement) => statement.status === 'READY'), 'every statement to be READY');
  return { id: profile.id, uuid: decodeId('profile', profile.id)!, auth, connectionId: connected.body.id, statements };
}

let owner: Awaited<ReturnType<typeof profileWithStatements>>;

beforeAll(async () => {
  // Some weeks of history: two or three months of statements per account.
  app = await startTestApp({ SANDBOX_HISTORY_DAYS: '45' }, { blobStore: 's3' });
  bucket = new S3BlobStore(app.s3!.settings);
  owner = await profileWithStatements();
}, 120_000);
afterAll(async () => {
  bucket?.close();
  await app?.stop();
});

describe('a sandbox profile’s statements', () => {
  it('are one per cash account per complete month of the history, newest period first, with their events', async () => {
    const accounts = new Set(owner.statements.map((statement) => statement.account.kind));
    expect([...accounts].sort()).toEqual(['CREDIT', 'DEPOSITORY', 'LOAN']);
    const periods = owner.statements.map((statement) => statement.endOn);
    expect(periods).toEqual([...periods].sort().reverse());
    for (const statement of owner.statements) {
      expect(statement.id).toMatch(/^stmt_[0-9a-hjkmnp-tv-z]{26}$/);
      expect(statement.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(statement.endOn < new Date().toISOString().slice(0, 7)).toBe(true);
      expect(Date.parse(statement.urlExpiresAt!) - Date.now()).toBeGreaterThan(59 * 60_000);
    }
    const created = await app.http.get(`/v1/events?type=statement.created&profileId=${owner.id}&limit=100`, { auth: app.apiKey });
    const ready = await app.http.get(`/v1/events?type=statement.ready&profileId=${owner.id}&limit=100`, { auth: app.apiKey });
    expect(created.body).toHaveLength(owner.statements.length);
    expect(ready.body).toHaveLength(owner.statements.length);
    expect(ready.body.map((event: { record: { id: string } }) => event.record.id).sort()).toEqual(owner.statements.map((statement) => statement.id).sort());
    for (const event of [...created.body, ...ready.body]) expect(event.record).not.toHaveProperty('url');
    expect(created.body.every((event: { record: { status: string } }) => event.record.status === 'PENDING')).toBe(true);
  });

  it('filters by account and period end, and pages', async () => {
    const checking = owner.statements.find((statement) => statement.account.name === 'Everyday Checking')!;
    const { statements } = await data(owner.auth, STATEMENTS, { filter: { accountIds: [checking.accountId], endOn_gte: checking.endOn, endOn_lte: checking.endOn } });
    expect(statements.nodes.map((statement: Statement) => statement.id)).toEqual([checking.id]);
    const first = (await data(owner.auth, STATEMENTS, { first: 2 })).statements;
    const second = (await data(owner.auth, STATEMENTS, { first: 2, after: first.pageInfo.endCursor })).statements;
    expect([...first.nodes, ...second.nodes].map((statement: Statement) => statement.id)).toEqual(owner.statements.slice(0, 4).map((statement) => statement.id));
    const { account } = await data(owner.auth, `query($id: ID!) { account(id: $id) { statements { id } } }`, { id: checking.accountId });
    expect(account.statements.map((statement: { id: string }) => statement.id)).toEqual(owner.statements.filter((statement) => statement.accountId === checking.accountId).map((statement) => statement.id));
  });

  it('downloads as a PDF, with no credential, whose closing balance is the one its transactions give', async () => {
    const statement = owner.statements.find((candidate) => candidate.account.name === 'Everyday Checking')!;
    const response = await app.http.get(pathOf(statement.url!));
    expect(response.status, response.text).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'application/pdf',
      'cache-control': 'private, no-store',
      'content-disposition': `attachment; filename="statement-${statement.account.mask}-${statement.endOn}.pdf"`,
    });
    const bytes = response.bytes!;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBe(statement.size);
    const digest = createHash('sha256').update(bytes);
    expect(response.headers['repr-digest']).toBe(`sha-256=:${digest.copy().digest('base64')}:`);
    expect(digest.digest('hex')).toBe(statement.sha256);

    const text = await pdfText(bytes);
    expect(text).toContain('First Platypus Bank');
    expect(text).toContain(`Everyday Checking ending in ${statement.account.mask}`);
    expect(text).toContain(`Statement period: ${statement.startOn} to ${statement.endOn}`);
    expect(text).toContain(`Closing balance: ${await balanceAtEndOf(app, owner.auth, statement.accountId, statement.endOn)} USD`);
    // Every posted transaction of the period is a line of it.
    const lines = await postedDescriptions(app, owner.auth, statement.accountId, statement.startOn, statement.endOn);
    expect(lines.length).toBeGreaterThan(0);
    for (const description of lines) expect(text).toContain(description);
  });

  it('is kept encrypted in the S3 bucket', async () => {
    for (const statement of owner.statements) {
      const stored = (await bucket.get(statementBlobKey(owner.uuid, decodeId('statement', statement.id)!)))!;
      expect(stored.includes(Buffer.from('%PDF'))).toBe(false);
      expect(stored.includes(Buffer.from('First Platypus'))).toBe(false);
      expect(stored.length).toBeGreaterThan(statement.size!);
    }
  });
});

describe('the download URL', () => {
  const refused = async (url: string, message: RegExp) => {
    const response = await app.http.get(url);
    expect(response.status, response.text).toBe(403);
    expect(response.body).toMatchObject({ code: 'DOWNLOAD_URL_INVALID', message: expect.stringMatching(message) });
    expect(response.headers['content-type']).toContain('application/json');
  };

  it('refuses another statement, another profile, an altered signature or expiry, and an expired URL', async () => {
    const [mine, other] = owner.statements as [Statement, Statement];
    const url = new URL(mine.url!);
    const stranger = await createProfile(app);
    // Another statement under this URL's signature.
    await refused(pathOf(mine.url!).replace(decodeURIComponent(url.pathname.split('/')[3]!), other.id), /not valid/);
    // The same statement claimed for another profile.
    const forStranger = new URL(url);
    forStranger.searchParams.set('profile', stranger.id);
    await refused(pathOf(forStranger.href), /not valid/);
    // One character of the signature changed, and a later expiry under the same signature.
    const altered = new URL(url);
    const signature = url.searchParams.get('signature')!;
    altered.searchParams.set('signature', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`);
    await refused(pathOf(altered.href), /not valid/);
    const extended = new URL(url);
    extended.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    await refused(pathOf(extended.href), /not valid/);
    // Signed with the service's own key, two hours ago: an hour past its end.
    const expired = downloadUrl(app.cipher, url.origin, { id: decodeId('statement', mine.id)!, profileId: owner.uuid }, new Date(Date.now() - 2 * 3600_000));
    await refused(pathOf(expired.url), /expired/);
    // And the URL itself still works.
    expect((await app.http.get(pathOf(mine.url!))).status).toBe(200);
  });

  it('signs for the profile that reads it: another profile reads none of these statements', async () => {
    const stranger = await createProfile(app);
    const { statements } = await data(basicAuth(stranger.id, app.apiKey), STATEMENTS, {});
    expect(statements.count).toBe(0);
    const { account } = (await app.http.post('/v1/graphql', { auth: basicAuth(stranger.id, app.apiKey), json: { query: `query($id: ID!) { account(id: $id) { statements { id } } }`, variables: { id: owner.statements[0]!.accountId } } })).body.data;
    expect(account).toBeNull();
  });
});

describe('a statements refresh', () => {
  const refresh = (connectionId: string, body: unknown) => app.http.post(`/v1/connections/${connectionId}/statements/refresh`, { auth: app.apiKey, json: body });
  const today = new Date();
  const day = (offsetDays: number) => new Date(today.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);

  it('takes a period of at most two years back, ending by today', async () => {
    const accepted = await refresh(owner.connectionId, { startOn: day(-60), endOn: day(0) });
    expect(accepted.status, accepted.text).toBe(202);
    expect(accepted.body).toEqual({ connectionId: owner.connectionId, status: 'QUEUED', startOn: day(-60), endOn: day(0) });
    for (const [body, field] of [
      [{ startOn: day(-800), endOn: day(-1) }, 'startOn'],
      [{ startOn: day(-10), endOn: day(1) }, 'endOn'],
      [{ startOn: day(-10), endOn: day(-20) }, 'endOn'],
    ] as const) {
      const response = await refresh(owner.connectionId, body);
      expect(response.status, response.text).toBe(422);
      expect(Object.keys(response.body.errors)).toEqual([field]);
    }
  });

  it('is another environment’s key’s to ask for none of this environment’s connections (404)', async () => {
    const { apiKey } = await createEnvironmentWithKey(app);
    const response = await app.http.post(`/v1/connections/${owner.connectionId}/statements/refresh`, { auth: apiKey, json: { startOn: day(-60), endOn: day(0) } });
    expect(response.status, response.text).toBe(404);
    const session = await app.http.post(`/v1/connections/${owner.connectionId}/statements/refresh`, { auth: owner.auth, json: { startOn: day(-60), endOn: day(0) } });
    expect(session.status, session.text).toBe(401);
  });

  it('needs the connection to have STATEMENTS', async () => {
    const profile = await createProfile(app);
    const connected = await app.http.post('/v1/sandbox/connections', { auth: app.apiKey, json: { profileId: profile.id, institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good' } });
    const response = await refresh(connected.body.id, { startOn: day(-60), endOn: day(0) });
    expect(response.status, response.text).toBe(403);
    expect(response.body.code).toBe('PRODUCT_NOT_ENABLED');
  });
});

describe('deleting the profile', () => {
  it('removes its statements, their documents, and what their URLs served', { timeout: 90_000 }, async () => {
    const doomed = await profileWithStatements();
    const keys = doomed.statements.map((statement) => statementBlobKey(doomed.uuid, decodeId('statement', statement.id)!));
    const stored = async () => (await Promise.all(keys.map((key) => bucket.get(key)))).filter((bytes) => bytes !== null);
    expect(await stored()).toHaveLength(keys.length);
    expect((await app.http.delete(`/v1/profiles/${doomed.id}`, { auth: app.apiKey })).status).toBe(202);
    await waitFor(async () => ((await app.sql('select 1 from profile where id = $1', [doomed.uuid])).length === 0 ? true : undefined), 'the profile to be deleted');
    expect(await app.sql('select 1 from statement where profile_id = $1', [doomed.uuid])).toEqual([]);
    expect(await stored()).toEqual([]);
    const gone = await app.http.get(pathOf(doomed.statements[0]!.url!));
    expect(gone.status, gone.text).toBe(404);
  });
});

