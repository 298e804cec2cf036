import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { builders } from '../support/builders.ts';
import { basicAuth, createProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

/**
 * A record without metadata, on a profile of its own: each test's burst counts against its own
 * credentials' rate limit (100 requests/s), and Basic credentials reach only their own profile.
 */
interface Target {
  id: string;
  auth: string;
}

async function freshProfile(): Promise<Target> {
  const profile = await createProfile(app, { metadata: null });
  return { id: profile.id, auth: basicAuth(profile.id, app.apiKey) };
}

/** A profile with a connection, an account and a transaction (built), and the one of them in `table`. */
async function freshBuilt(table: 'connection' | 'account' | 'transaction'): Promise<Target> {
  const profile = await freshProfile();
  const build = builders(app);
  const connection = await build.connection({ profile: { id: decodeId('profile', profile.id)! } });
  const account = await build.account({ connection });
  const [transaction] = await build.transactions([{}], { account });
  return { id: encodeId(table, { connection, account, transaction: transaction! }[table].id), auth: profile.auth };
}

/** What one merge request answered: the record's metadata after it, or the validation issues it reported. */
interface Outcome {
  ok: boolean;
  metadata?: Record<string, unknown> | null;
  errors: Array<{ path: string; message: string }>;
}

/** One way of merging metadata into one kind of record. */
interface Route {
  fresh(): Promise<Target>;
  merge(target: Target, metadata: Record<string, unknown>): Promise<Outcome>;
  /** The record's metadata as stored. */
  stored(target: Target): Promise<Record<string, unknown> | null>;
}

/** The metadata stored in the row of `table` with this public id. */
function storedIn(table: 'profile' | 'connection' | 'account' | 'transaction') {
  return async ({ id }: Target): Promise<Record<string, unknown> | null> => {
    const [row] = await app.sql(`select metadata from ${table} where id = $1`, [decodeId(table, id)]);
    return row.metadata;
  };
}

/** A GraphQL mutation `name(input: {id?, metadata})` sent with the target profile's Basic credentials. */
function mutation(name: string, inputType: string, withId: boolean) {
  return async ({ id, auth }: Target, metadata: Record<string, unknown>): Promise<Outcome> => {
    const response = await app.http.post('/v1/graphql', {
      auth,
      json: {
        query: `mutation($input: ${inputType}!) { ${name}(input: $input) { success record { metadata } errors { path message } } }`,
        variables: { input: withId ? { id, metadata } : { metadata } },
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.errors).toBeUndefined();
    const payload = response.body.data[name];
    const errors = (payload.errors ?? []).map((issue: { path: string[]; message: string }) => ({ path: issue.path.join('.'), message: issue.message }));
    return payload.success ? { ok: true, metadata: payload.record.metadata, errors } : { ok: false, errors };
  };
}

const routes: Record<string, Route> = {
  'REST PATCH /v1/profiles/{id}': {
    fresh: freshProfile,
    async merge({ id, auth }, metadata) {
      const response = await app.http.patch(`/v1/profiles/${id}`, { auth, json: { metadata } });
      if (response.status === 200) return { ok: true, metadata: response.body.metadata, errors: [] };
      expect(response.status, response.text).toBe(422);
      const errors = Object.entries(response.body.errors as Record<string, string[]>).flatMap(([path, messages]) => messages.map((message) => ({ path, message })));
      return { ok: false, errors };
    },
    stored: storedIn('profile'),
  },
  'GraphQL profileUpdate': { fresh: freshProfile, merge: mutation('profileUpdate', 'ProfileUpdateInput', false), stored: storedIn('profile') },
  'GraphQL connectionUpdate': { fresh: () => freshBuilt('connection'), merge: mutation('connectionUpdate', 'ConnectionUpdateInput', true), stored: storedIn('connection') },
  'GraphQL accountUpdate': { fresh: () => freshBuilt('account'), merge: mutation('accountUpdate', 'AccountUpdateInput', true), stored: storedIn('account') },
  'GraphQL transactionUpdate': { fresh: () => freshBuilt('transaction'), merge: mutation('transactionUpdate', 'TransactionUpdateInput', true), stored: storedIn('transaction') },
};

const entries = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => [`${prefix}${i}`, `value ${i}`] as const);

describe.each(Object.entries(routes))('concurrent metadata merges through %s', (_name, route) => {
  it('keep every key: 50 merges of distinct keys at once store all 50', async () => {
    const target = await route.fresh();
    const outcomes = await Promise.all(entries(50, 'key').map(([key, value]) => route.merge(target, { [key]: value })));
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
    // Each answer shows the record after its own merge: its key, and the keys merged before it.
    outcomes.forEach((outcome, i) => expect(outcome.metadata).toMatchObject({ [`key${i}`]: `value ${i}` }));
    expect(new Set(outcomes.map((outcome) => Object.keys(outcome.metadata!).length)).size).toBe(50);
    expect(await route.stored(target)).toEqual(Object.fromEntries(entries(50, 'key')));
  });

  it('hold the 50-key limit: with 30 keys stored, 25 merges of one new key each at once let exactly 20 in', async () => {
    const target = await route.fresh();
    expect(await route.merge(target, Object.fromEntries(entries(30, 'old')))).toMatchObject({ ok: true, errors: [] });
    const outcomes = await Promise.all(entries(25, 'new').map(([key, value]) => route.merge(target, { [key]: value })));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(20);
    const refused = outcomes.filter((outcome) => !outcome.ok);
    expect(refused).toHaveLength(5);
    for (const { errors } of refused) expect(errors).toEqual([{ path: expect.stringMatching(/^(attributes\.)?metadata$/), message: expect.stringMatching(/at most 50 keys; this update would leave 51/) }]);
    const stored = await route.stored(target);
    expect(Object.keys(stored!)).toHaveLength(50);
    expect(stored).toMatchObject(Object.fromEntries(entries(30, 'old')));
  });
});

describe('transactionUpdate', () => {
  it('answers the transaction as a query reads it, with the merged metadata', async () => {
    const target = await routes['GraphQL transactionUpdate']!.fresh();
    const fields = 'id date amount entryType status description currencyCode account { id } at';
    const read = async (query: string, variables: Record<string, unknown>) => {
      const response = await app.http.post('/v1/graphql', { auth: target.auth, json: { query, variables } });
      expect(response.body.errors).toBeUndefined();
      return response.body.data;
    };
    const before = await read(`query($id: ID!) { transaction(id: $id) { ${fields} } }`, { id: target.id });
    const updated = await read(`mutation($input: TransactionUpdateInput!) { transactionUpdate(input: $input) { record { ${fields} metadata } } }`, {
      input: { id: target.id, metadata: { note: 'lunch' } },
    });
    expect(updated.transactionUpdate.record).toEqual({ ...before.transaction, metadata: { note: 'lunch' } });
  });
});
