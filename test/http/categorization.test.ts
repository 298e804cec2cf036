import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { isCategory } from '../../src/enrichment/taxonomy.ts';
import { createEnvironmentWithKey } from '../support/environments.ts';
import { builders, type Builders } from '../support/builders.ts';
import { basicAuth } from '../support/factories.ts';
import { sandboxAt, SEEDS } from '../support/sandbox-login.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

const DAY = 86_400_000;
let now = new Date('2026-05-20T12:00:00Z');
let app: TestApp;
let build: Builders;

beforeAll(async () => {
  app = await startTestApp({}, { sandboxNow: () => now });
  build = builders(app);
});
afterAll(() => app?.stop());

interface Profile {
  id: string;
  auth: string;
  connectionId: string;
}

/** A profile with one sandbox bank (a fixed household, the same on every run), after its first sync through the service's job. */
async function connectedProfile(seed: string): Promise<Profile> {
  const profile = await build.profile();
  const { credential } = await sandboxAt('ins_first_platypus', seed, now.getTime(), 0, 60);
  const connection = await build.connection({ profile, credential, status: 'INITIALIZING', lastSyncedAt: null });
  await app.service.connectionJobs.sync(connection.id);
  const connectionId = encodeId('connection', connection.id);
  await synced(connectionId);
  return { id: encodeId('profile', profile.id), auth: basicAuth(encodeId('profile', profile.id), app.apiKey), connectionId };
}

async function synced(connectionId: string): Promise<void> {
  await waitFor(async () => {
    const [row] = await app.sql('select status, refresh_started_at from connection where id = $1', [decodeId('connection', connectionId)]);
    return row.status === 'SYNCED' && row.refresh_started_at === null ? true : undefined;
  }, 'the connection to sync');
}

async function data(auth: string, query: string, variables?: Record<string, unknown>) {
  const response = await app.http.post('/v1/graphql', { auth, json: { query, variables } });
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return response.body.data;
}

interface Node {
  id: string;
  description: string;
  /** A Decimal: written as a JSON number. */
  amount: number;
  status: string;
  merchant: { name: string; website: string | null; logoUrl: string | null } | null;
  category: { primary: string; detailed: string; source: string; confidence: number } | null;
  paymentChannel: string;
  remoteData: { enrichment?: { counterpartyName?: string; website?: string | null; logo?: string | null } };
}

/** Every transaction of the profile (newest first), with its enrichment. */
async function transactions(profile: Profile, filter: Record<string, unknown> = {}): Promise<Node[]> {
  const nodes: Node[] = [];
  let after: string | null = null;
  for (;;) {
    const page: { nodes: Node[]; pageInfo: { hasNextPage: boolean; endCursor: string } } = (
      await data(
        profile.auth,
        `query ($after: String, $filter: TransactionFilter) { transactions(first: 100, after: $after, filter: $filter) {
          nodes { id description amount status merchant { name website logoUrl } category { primary detailed source confidence } paymentChannel remoteData }
          pageInfo { hasNextPage endCursor } } }`,
        { after, filter },
      )
    ).transactions;
    nodes.push(...page.nodes);
    if (!page.pageInfo.hasNextPage) return nodes;
    after = page.pageInfo.endCursor;
  }
}

/** The profile's merchants, most frequent first. */
function merchantsByFrequency(nodes: Node[]): string[] {
  const counts = new Map<string, number>();
  for (const node of nodes) if (node.merchant) counts.set(node.merchant.name, (counts.get(node.merchant.name) ?? 0) + 1);
  return [...counts].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([name]) => name);
}

const UPDATE = `mutation ($input: TransactionUpdateInput!) { transactionUpdate(input: $input) {
  success errors { path message } record { id category { primary detailed source confidence } } } }`;

async function correct(profile: Profile, id: string, category: { primary: string; detailed: string } | null) {
  return (await data(profile.auth, UPDATE, { input: { id, category } })).transactionUpdate;
}

const COFFEE = { primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_COFFEE' };
const MARKETPLACE = { primary: 'GENERAL_MERCHANDISE', detailed: 'GENERAL_MERCHANDISE_ONLINE_MARKETPLACES' };
const MOVIES = { primary: 'ENTERTAINMENT', detailed: 'ENTERTAINMENT_TV_AND_MOVIES' };

describe('categories and corrections', () => {
  let owner: Profile;
  let stranger: Profile;
  let nodes: Node[];

  beforeAll(async () => {
    owner = await connectedProfile(SEEDS[0]!);
    stranger = await connectedProfile(SEEDS[1]!);
    nodes = await transactions(owner);
  });

  it('shows every synced transaction with its merchant, payment channel and (when known) a category of the taxonomy, remote data untouched', () => {
    expect(nodes.length).toBeGreaterThan(50);
    for (const node of nodes) {
      const reported = node.remoteData.enrichment!;
      expect(node.merchant?.name ?? null, node.id).toBe(reported.counterpartyName ?? null);
      expect(node.merchant?.website ?? null).toBe(reported.website ?? null);
      expect(node.merchant?.logoUrl ?? null).toBe(reported.logo ?? null);
      expect(['ONLINE', 'IN_STORE', 'OTHER']).toContain(node.paymentChannel);
      if (node.category) expect(isCategory(node.category.primary, node.category.detailed), JSON.stringify(node.category)).toBe(true);
    }
    expect(nodes.filter((node) => node.merchant?.logoUrl).length).toBeGreaterThan(0);
  });

  it('filters on names of the taxonomy only: any other text matches nothing', async () => {
    expect(await transactions(owner, { categories: ['NOT_A_CATEGORY', 'FOOD\u0000', "' or 1=1 --"] })).toEqual([]);
  });

  it('refuses a category outside the taxonomy in the mutation payload, and changes nothing', async () => {
    const [target] = nodes;
    const refused = await correct(owner, target!.id, { primary: 'FOOD_AND_DRINK', detailed: 'TRANSPORTATION_GAS' });
    expect(refused).toMatchObject({ success: false, record: null, errors: [{ path: ['attributes', 'category'] }] });
    const [row] = await app.sql('select category_source from transaction where id = $1', [decodeId('transaction', target!.id)]);
    expect(row.category_source).not.toBe('USER');
  });

  it("keeps a user's category through a re-sync and a pending → posted move, and learns it for similar transactions of that profile only", async () => {
    const [learnedMerchant] = merchantsByFrequency(nodes);
    const similar = nodes.filter((node) => node.merchant?.name === learnedMerchant && node.status === 'POSTED');
    expect(similar.length).toBeGreaterThan(3);
    // Two corrections to one category teach the classifier; a single one would not.
    for (const node of similar.slice(0, 2)) {
      expect(await correct(owner, node.id, COFFEE)).toMatchObject({ success: true, record: { category: { ...COFFEE, source: 'USER', confidence: 1 } } });
    }
    // Pending transactions of other merchants, corrected too: they keep their category when they post.
    const pending = nodes.filter((node) => node.status === 'PENDING' && node.merchant?.name !== learnedMerchant);
    expect(pending.length).toBeGreaterThan(0);
    for (const node of pending) expect((await correct(owner, node.id, MARKETPLACE)).success).toBe(true);

    // The profile's other transactions of that merchant follow, in the background.
    const rest = similar.slice(2).map((node) => node.id);
    await waitFor(async () => {
      const current = await transactions(owner);
      const learned = current.filter((node) => rest.includes(node.id) && node.category?.source === 'LEARNED');
      return learned.length === rest.length ? true : undefined;
    }, 'the classifier to recategorize similar transactions');
    const learned = (await transactions(owner)).find((node) => node.id === rest[0])!;
    expect(learned.category).toMatchObject({ ...COFFEE, source: 'LEARNED' });
    expect(learned.category!.confidence).toBeGreaterThanOrEqual(0.9);

    // A week later: a re-sync brings new transactions, and the pending ones post.
    now = new Date(now.getTime() + 7 * DAY);
    const before = new Set((await transactions(owner)).map((node) => node.id));
    const refresh = await app.http.post(`/v1/connections/${owner.connectionId}/transactions/refresh`, { auth: app.apiKey });
    expect(refresh.status, refresh.text).toBe(202);
    await synced(owner.connectionId);
    const after = await transactions(owner);
    const byId = new Map(after.map((node) => [node.id, node]));
    for (const node of similar.slice(0, 2)) expect(byId.get(node.id)!.category).toMatchObject({ ...COFFEE, source: 'USER' });
    const posted = pending.map((node) => byId.get(node.id)).filter((node) => node?.status === 'POSTED');
    expect(posted.length).toBeGreaterThan(0);
    for (const node of posted) expect(node!.category).toMatchObject({ ...MARKETPLACE, source: 'USER', confidence: 1 });
    // The next transaction of that merchant arrives categorized as learned.
    const newcomers = after.filter((node) => !before.has(node.id) && node.merchant?.name === learnedMerchant);
    expect(newcomers.length).toBeGreaterThan(0);
    for (const node of newcomers) expect(node.category).toMatchObject({ ...COFFEE, source: 'LEARNED' });
    // The category filter finds corrected and learned transactions alike.
    const filtered = await transactions(owner, { categories: [COFFEE.detailed] });
    expect(filtered.map((node) => node.id).sort()).toEqual(after.filter((node) => node.category?.detailed === COFFEE.detailed).map((node) => node.id).sort());
    expect(filtered.length).toBeGreaterThanOrEqual(similar.length);

    // Another profile with the same bank and merchants learned nothing of it.
    const theirs = await transactions(stranger);
    expect(theirs.filter((node) => node.merchant?.name === learnedMerchant).length).toBeGreaterThan(0);
    expect(theirs.filter((node) => node.category?.source === 'LEARNED' || node.category?.source === 'USER')).toEqual([]);
    expect(await app.sql('select profile_id from category_model')).toEqual([{ profile_id: decodeId('profile', owner.id) }]);

    // Cleared back to automatic, a correction no longer counts: one correction left is too few to learn from.
    expect(await correct(owner, similar[0]!.id, null)).toMatchObject({ success: true, record: { category: null } });
    await waitFor(async () => {
      const current = await transactions(owner, { categories: [COFFEE.detailed] });
      return current.length === 1 ? current : undefined;
    }, 'learned categories to go once the classifier has too few corrections');
  });

  it('applies an operator rule to every profile, new and existing transactions, and takes it back when deleted', async () => {
    // A user's category and a learned one outrank an operator's rule: a merchant both households buy from, with purchases neither covers.
    const open = (node: Node) => node.amount < 0 && !['USER', 'LEARNED'].includes(node.category?.source ?? '');
    const theirs = new Set((await transactions(stranger)).filter(open).map((node) => node.merchant?.name));
    const merchant = merchantsByFrequency((await transactions(owner)).filter(open)).find((name) => theirs.has(name))!;
    const created = await app.http.post('/v1/categorization/rules', { auth: app.apiKey, json: { merchantName: merchant.toUpperCase(), amountSign: 'OUT', category: MOVIES } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^catr_/), merchantName: merchant.toUpperCase(), descriptionContains: null, amountSign: 'OUT', category: MOVIES });
    const listed = await app.http.get('/v1/categorization/rules', { auth: app.apiKey });
    expect(listed.body.map((rule: { id: string }) => rule.id)).toEqual([created.body.id]);

    for (const profile of [owner, stranger]) {
      await waitFor(async () => {
        const candidates = (await transactions(profile)).filter((node) => node.merchant?.name === merchant && !['USER', 'LEARNED'].includes(node.category?.source ?? ''));
        const ruled = (node: Node) => node.category?.source === 'RULES' && node.category.detailed === MOVIES.detailed;
        // Money out only, as the rule says.
        const [debits, credits] = [candidates.filter((node) => node.amount < 0), candidates.filter((node) => node.amount >= 0)];
        return debits.length > 0 && debits.every(ruled) && !credits.some(ruled) ? true : undefined;
      }, `the rule to apply to ${profile.id}'s transactions`);
    }

    const deleted = await app.http.delete(`/v1/categorization/rules/${created.body.id}`, { auth: app.apiKey });
    expect(deleted.status, deleted.text).toBe(204);
    for (const profile of [owner, stranger]) {
      await waitFor(async () => {
        const left = (await transactions(profile)).filter((node) => node.category?.source === 'RULES' && node.category.detailed === MOVIES.detailed);
        return left.length === 0 ? true : undefined;
      }, `the rule to be taken back from ${profile.id}'s transactions`);
    }
    expect((await app.http.delete(`/v1/categorization/rules/${created.body.id}`, { auth: app.apiKey })).status).toBe(404);
  });

  it.each([
    [{ category: MOVIES }, 'merchantName'],
    [{ merchantName: '   ', category: MOVIES }, 'merchantName'],
    [{ descriptionContains: 'NETFLIX', category: { primary: 'ENTERTAINMENT', detailed: 'INCOME_WAGES' } }, 'category'],
  ])('refuses a rule that breaks a domain rule in the error shape: %j', async (body, field) => {
    const response = await app.http.post('/v1/categorization/rules', { auth: app.apiKey, json: body });
    expect(response.status, response.text).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', requestId: expect.any(String), errors: { [field]: [expect.any(String)] } });
  });

  it('refuses a rule with a pattern field the contract does not have, and another environment cannot see or delete a rule', async () => {
    const regex = await app.http.post('/v1/categorization/rules', { auth: app.apiKey, json: { descriptionPattern: '(a+)+$', category: MOVIES } });
    expect(regex.status).toBe(422);
    const created = await app.http.post('/v1/categorization/rules', { auth: app.apiKey, json: { descriptionContains: 'payroll', amountSign: 'IN', category: { primary: 'INCOME', detailed: 'INCOME_WAGES' } } });
    expect(created.status, created.text).toBe(201);
    const other = await createEnvironmentWithKey(app);
    expect((await app.http.get('/v1/categorization/rules', { auth: other.apiKey })).body).toEqual([]);
    expect((await app.http.delete(`/v1/categorization/rules/${created.body.id}`, { auth: other.apiKey })).status).toBe(404);
    expect((await app.http.delete(`/v1/categorization/rules/${created.body.id}`, { auth: app.apiKey })).status).toBe(204);
  });
});
