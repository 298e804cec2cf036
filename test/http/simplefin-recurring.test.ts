import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId } from '../../src/lib/ids.ts';
import type { FakeSimplefin } from '../fakes/simplefin/index.ts';
import { basicAuth } from '../support/factories.ts';
import { connectSimplefin, startSimplefinApp } from '../support/simplefin-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

/*
 * Enrichment and recurring streams of a SimpleFIN connection through the HTTPS front door: the
 * Bridge sends raw bank lines, and Tributary's own pipeline names their merchants and categories.
 * Recurring streams: the fake Bridge's user
 * (the synthetic household, in SimpleFIN's wire format and the institutions' raw descriptions) is
 * paid fortnightly, pays rent and moves money to savings every month; after the first sync (the
 * Bridge's last 90 days) those are streams on GraphQL, and a later sync that continues them keeps
 * their ids.
 */

let app: TestApp;
let bridge: FakeSimplefin;
let auth: string;
let connectionId: string;

interface Stream {
  id: string;
  description: string;
  direction: string;
  frequency: string;
  status: string;
  averageAmount: number;
  lastAmount: number;
  lastDate: string;
  account: { kind: string; name: string };
  transactions: { count: number; nodes: Array<{ id: string; description: string; amount: number }> };
}

const PAYROLL = 'ACME CORP PAYROLL PPD ID: 1234567890';
const RENT = 'PARKLINE PROPERTIES RENT WEB ID: 9000123456';
const TO_SAVINGS = 'ONLINE TRANSFER TO SAV XXXXX1111';
const FROM_CHECKING = 'ONLINE TRANSFER FROM CHK XXXXX0000';

async function streams(): Promise<Stream[]> {
  const response = await app.http.post('/v1/graphql', {
    auth,
    json: { query: `{ recurringStreams(first: 50) { nodes { id description direction frequency status averageAmount lastAmount lastDate account { kind name } transactions(first: 20) { count nodes { id description amount } } } } }` },
  });
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return response.body.data.recurringStreams.nodes;
}

const named = (all: Stream[], description: string) => all.find((stream) => stream.description === description);

/** Waits for `count` completed recomputations of the connection's streams (one after each sync that changed transactions). */
async function recomputed(count: number): Promise<void> {
  await waitFor(async () => {
    const [row] = await app.sql(`select count(*)::int as done from pgboss.job where name = 'recurring.recompute' and singleton_key = $1 and state = 'completed'`, [connectionId]);
    return row.done >= count ? true : undefined;
  }, `${count} recomputation(s) of the recurring streams`, 60_000);
}

beforeAll(async () => {
  ({ app, bridge } = await startSimplefinApp());
  const { profile, connection } = await connectSimplefin(app, bridge);
  auth = basicAuth(profile.id, app.apiKey);
  connectionId = decodeId('connection', connection.id)!;
  await recomputed(1);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await bridge?.stop();
});

interface Enriched {
  description: string;
  merchant: { name: string; website: string | null; logoUrl: string | null } | null;
  category: { primary: string; detailed: string; source: string } | null;
}

describe('enrichment of a SimpleFIN connection', () => {
  it('names merchants and categories from the raw bank lines, with Tributary\'s own rules', async () => {
    const response = await app.http.post('/v1/graphql', {
      auth,
      json: { query: `{ transactions(first: 500) { nodes { description merchant { name website logoUrl } category { primary detailed source } } } }` },
    });
    expect(response.status, response.text).toBe(200);
    const nodes: Enriched[] = response.body.data.transactions.nodes;
    const lines = (text: string) => nodes.filter((node) => node.description.includes(text));
    expect(lines('STARBUCKS').length).toBeGreaterThan(0);
    for (const node of lines('STARBUCKS')) expect(node).toMatchObject({ merchant: { name: 'Starbucks' }, category: { detailed: 'FOOD_AND_DRINK_COFFEE', source: 'RULES' } });
    expect(lines(PAYROLL).length).toBeGreaterThan(0);
    for (const node of lines(PAYROLL)) expect(node.category).toMatchObject({ primary: 'INCOME', detailed: 'INCOME_WAGES' });
    for (const node of lines(RENT)) expect(node.category).toMatchObject({ detailed: 'RENT_AND_UTILITIES_RENT' });
    // SimpleFIN gives no logos or websites, and Tributary never guesses one.
    expect(nodes.every((node) => node.merchant === null || (node.merchant.website === null && node.merchant.logoUrl === null))).toBe(true);
  });
});

describe('recurring streams of a SimpleFIN connection', () => {
  it('shows fortnightly pay, monthly rent and the monthly transfer to savings after the first sync, keyed on the raw descriptions', async () => {
    const all = await streams();
    const pay = named(all, PAYROLL);
    expect(pay).toMatchObject({ direction: 'INFLOW', frequency: 'BIWEEKLY', status: 'MATURE', account: { kind: 'DEPOSITORY', name: 'Everyday Checking' } });
    // The paycheck never changes; 90 days hold six or seven of them.
    expect(pay!.averageAmount).toBe(pay!.lastAmount);
    expect(pay!.transactions.count).toBeGreaterThanOrEqual(6);
    expect(named(all, RENT)).toMatchObject({ direction: 'OUTFLOW', frequency: 'MONTHLY', status: 'MATURE', account: { kind: 'DEPOSITORY' } });
    const out = named(all, TO_SAVINGS);
    const into = named(all, FROM_CHECKING);
    expect(out).toMatchObject({ direction: 'OUTFLOW', frequency: 'MONTHLY', account: { name: 'Everyday Checking' } });
    expect(into).toMatchObject({ direction: 'INFLOW', frequency: 'MONTHLY' });
    expect(into!.account.name).not.toBe('Everyday Checking');
    expect(into!.averageAmount).toBe(-out!.averageAmount);
    for (const stream of [pay!, out!, into!]) {
      expect(stream.transactions.nodes).toHaveLength(stream.transactions.count);
      expect(stream.transactions.nodes.every((transaction) => transaction.description === stream.description && transaction.id.startsWith('txn_'))).toBe(true);
      expect(stream.transactions.nodes[0]!.amount).toBe(stream.lastAmount);
    }
  });

  it('keeps the streams’ ids through a later sync that continues them', async () => {
    const before = await streams();
    // Five weeks on, the Bridge has two or three more paychecks and one more rent and transfer.
    bridge.advanceClock(35);
    await app.service.connectionJobs.sync(connectionId);
    await recomputed(2);
    const after = await streams();
    for (const description of [PAYROLL, RENT, TO_SAVINGS, FROM_CHECKING]) {
      const was = named(before, description)!;
      const now = named(after, description)!;
      expect(now.id).toBe(was.id);
      expect(now.lastDate > was.lastDate).toBe(true);
      expect(now.transactions.count).toBeGreaterThan(was.transactions.count);
    }
  });
});
