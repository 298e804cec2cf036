import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId } from '../../src/lib/ids.ts';
import { averageAmount } from '../../src/modules/recurring/amounts.ts';
import { basicAuth, createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';
import { DAY_MS } from '../../src/lib/dates.ts';

/*
 * Recurring streams of a sandbox connection through the HTTPS front door: the household's pay,
 * rent and subscriptions show as streams after the first sync; a later sync that brings new
 * transactions keeps the streams' ids, and `recurring_stream.created` was recorded once per stream.
 */

/** The sandbox's clock: today's noon, moved on by the re-sync test. */
let clock = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate(), 12);
let app: TestApp;
let owner: string;
let stranger: string;
let connectionId: string;
let connectionPublicId: string;

interface Stream {
  id: string;
  description: string;
  merchantName: string | null;
  direction: string;
  frequency: string;
  status: string;
  isActive: boolean;
  averageAmount: number;
  lastAmount: number;
  lastDate: string;
  predictedNextDate: string;
  account: { id: string; kind: string };
  transactions: { count: number; nodes: Array<{ id: string; date: string; description: string; amount: number; account: { id: string } }> };
}

const STREAMS = `query($filter: RecurringStreamFilter) { recurringStreams(first: 40, filter: $filter) { count nodes {
  id description merchantName direction frequency status isActive averageAmount lastAmount lastDate predictedNextDate account { id kind }
  transactions(first: 60) { count nodes { id date description amount account { id } } } } } }`;

async function data(auth: string, query: string, variables?: Record<string, unknown>) {
  const response = await app.http.post('/v1/graphql', { auth, json: { query, variables } });
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return response.body.data;
}

async function streams(auth: string, filter?: Record<string, unknown>): Promise<Stream[]> {
  return (await data(auth, STREAMS, { filter })).recurringStreams.nodes;
}

/** Waits for `count` completed recomputations of the connection (the job recomputes after each sync that changed transactions). */
async function recomputed(connection: string, count: number): Promise<void> {
  await waitFor(async () => {
    const [row] = await app.sql(`select count(*)::int as done from pgboss.job where name = 'recurring.recompute' and singleton_key = $1 and state = 'completed'`, [connection]);
    return row.done >= count ? true : undefined;
  }, `${count} recomputation(s) of the recurring streams`, 60_000);
}

async function connect(institutionId: string): Promise<{ auth: string; connection: string; publicId: string }> {
  const profile = await createProfile(app);
  const response = await app.http.post('/v1/sandbox/connections', { auth: app.apiKey, json: { profileId: profile.id, institutionId, username: 'user_good', password: 'pass_good' } });
  expect(response.status, response.text).toBe(201);
  const connection = decodeId('connection', response.body.id)!;
  await recomputed(connection, 1);
  return { auth: basicAuth(profile.id, app.apiKey), connection, publicId: response.body.id };
}

beforeAll(async () => {
  app = await startTestApp({}, { sandboxNow: () => new Date(clock) });
  ({ auth: owner, connection: connectionId, publicId: connectionPublicId } = await connect('ins_first_platypus'));
  ({ auth: stranger } = await connect('ins_houndstooth'));
}, 120_000);
afterAll(() => app?.stop());

/**
 * The streams of one counterparty: a merchant enrichment recognises (Netflix, Spotify), or one whose
 * bank line starts with its name (the sandbox's payroll `ACME CORP PAYROLL PPD ID: …`, its landlord).
 */
const named = (all: Stream[], name: string) => all.filter((stream) => stream.merchantName === name || (stream.merchantName === null && stream.description.startsWith(`${name.toUpperCase()} `)));
/** The counterparty's current stream: the sandbox drops a card charge now and then, and two dropped in a row end a stream (a new one starts). */
const latest = (all: Stream[], name: string) => named(all, name).reduce<Stream | undefined>((found, stream) => (!found || stream.lastDate > found.lastDate ? stream : found), undefined);
/** Months between consecutive charges of a monthly stream beyond the first: the charges the sandbox dropped. */
const missedMonths = (dates: readonly string[]) =>
  [...dates].sort().reduce((missed, date, index, sorted) => (index === 0 ? 0 : missed + Math.max(0, Math.round((Date.parse(date) - Date.parse(sorted[index - 1]!)) / (30.4 * DAY_MS)) - 1)), 0);
/**
 * A card subscription is ENDED when the sandbox dropped its latest charge and half a month has passed
 * since it was due; else MATURE with three charges or more and at most one missed for every six, and
 * EARLY_DETECTION with more gaps (the sandbox drops ~3 % of card charges, so now and then a household's
 * subscription misses two months of its last twelve).
 */
const expectCurrent = (stream: Stream | undefined) => {
  expect(stream).toMatchObject({ direction: 'OUTFLOW', frequency: 'MONTHLY', account: { kind: 'CREDIT' } });
  const overdue = Date.parse(stream!.predictedNextDate) + 15 * DAY_MS < clock - 12 * 3_600_000;
  const { count, nodes } = stream!.transactions;
  expect(nodes).toHaveLength(count);
  const mature = count >= 3 && missedMonths(nodes.map((transaction) => transaction.date)) * 6 <= count;
  expect([stream!.status, stream!.isActive]).toEqual(overdue ? ['ENDED', false] : [mature ? 'MATURE' : 'EARLY_DETECTION', true]);
};

describe('recurring streams over GraphQL (needs core)', () => {
  it('shows the household’s pay, rent and subscriptions after the first sync, with their transactions', async () => {
    const all = await streams(owner);
    const [pay, ...others] = named(all, 'Acme Corp');
    expect(others).toEqual([]);
    expect(pay).toMatchObject({ direction: 'INFLOW', frequency: 'BIWEEKLY', status: 'MATURE', isActive: true, account: { kind: 'DEPOSITORY' } });
    expect(pay!.averageAmount).toBe(pay!.lastAmount);
    expect(named(all, 'Parkline Properties')[0]).toMatchObject({ direction: 'OUTFLOW', frequency: 'MONTHLY', status: 'MATURE' });
    const netflix = latest(all, 'Netflix');
    const spotify = latest(all, 'Spotify');
    expectCurrent(netflix);
    expectCurrent(spotify);
    // Two years of fortnightly pay; each member is a transaction of the stream's own counterparty.
    expect(pay!.transactions.count).toBeGreaterThanOrEqual(50);
    for (const stream of [pay!, netflix!, spotify!]) {
      const members = stream.transactions.nodes;
      expect(members.every((transaction) => transaction.description === stream.description && transaction.account.id === stream.account.id)).toBe(true);
      expect(members.map((transaction) => transaction.id).every((id) => id.startsWith('txn_'))).toBe(true);
      expect(stream.predictedNextDate > stream.lastDate).toBe(true);
      // The sandbox corrects a card charge now and then: the amounts are the members' own, whatever they are.
      expect(members).toHaveLength(stream.transactions.count);
      expect(stream.averageAmount).toBe(Number(averageAmount(members.map((transaction) => String(transaction.amount)))));
      expect([stream.lastAmount, stream.lastDate]).toEqual([members[0]!.amount, members[0]!.date]);
    }
    expect(all.every((stream) => /^rec_[0-9a-z]{26}$/.test(stream.id))).toBe(true);
  });

  it('schedules the daily sweep that ends streams whose account went quiet', async () => {
    expect(await app.sql(`select name, cron from pgboss.schedule where name = 'recurring.sweep'`)).toEqual([{ name: 'recurring.sweep', cron: '5 0 * * *' }]);
  });

  it('filters by direction, status, frequency and account', async () => {
    const all = await streams(owner);
    const inflows = await streams(owner, { direction: 'INFLOW' });
    expect(inflows.length).toBeGreaterThan(0);
    expect(inflows.every((stream) => stream.direction === 'INFLOW')).toBe(true);
    expect((await streams(owner, { frequency: ['BIWEEKLY'] })).map((stream) => stream.id)).toEqual(all.filter((stream) => stream.frequency === 'BIWEEKLY').map((stream) => stream.id));
    const card = latest(all, 'Netflix')!.account.id;
    const onCard = await streams(owner, { accountIds: [card] });
    expect(onCard.map((stream) => stream.merchantName)).toEqual(expect.arrayContaining(['Netflix', 'Spotify']));
    expect(onCard.every((stream) => stream.account.id === card)).toBe(true);
    expect(await streams(owner, { status: [] })).toEqual([]);
  });

  it('keeps each profile’s streams to itself', async () => {
    const mine = new Set((await streams(owner)).map((stream) => stream.id));
    const theirs = await streams(stranger);
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.some((stream) => mine.has(stream.id))).toBe(false);
    const accounts = [...new Set((await streams(owner)).map((stream) => stream.account.id))];
    expect(await streams(stranger, { accountIds: accounts })).toEqual([]);
  });

  it('keeps the streams’ ids through a later sync that continues them, and records each stream’s creation once', async () => {
    const before = await streams(owner);
    // Over 35 days every monthly stream has a charge that was made and has settled (card charges post up to 3 days later).
    clock += 35 * DAY_MS;
    const refresh = await app.http.post(`/v1/connections/${connectionPublicId}/transactions/refresh`, { auth: app.apiKey });
    expect(refresh.status, refresh.text).toBe(202);
    await recomputed(connectionId, 2);
    const after = await streams(owner);
    for (const name of ['Acme Corp', 'Parkline Properties', 'Netflix', 'Spotify']) {
      const was = latest(before, name);
      const now = latest(after, name);
      expect(now!.id).toBe(was!.id);
      // Pay and rent never fail to arrive; a card charge the sandbox dropped leaves its stream as it was.
      if (name === 'Acme Corp' || name === 'Parkline Properties') {
        expect(now!.lastDate > was!.lastDate).toBe(true);
        expect(now!.transactions.count).toBeGreaterThan(was!.transactions.count);
      } else {
        expect(now!.lastDate >= was!.lastDate).toBe(true);
      }
    }
    const created = await app.sql(`select payload->'record'->>'id' as id, count(*)::int as times from event where type = 'recurring_stream.created' group by 1`);
    const times = new Map(created.map((row) => [row.id as string, row.times as number]));
    expect(after.map((stream) => times.get(stream.id))).toEqual(after.map(() => 1));
  });
});

