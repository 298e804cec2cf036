import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createProfile, syncedSandboxProfile } from '../support/factories.ts';
import { rowsShowing } from '../support/owners-at-rest.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
let bob: { id: string; auth: string };

beforeAll(async () => {
  app = await startTestApp();
  bob = await syncedSandboxProfile(app, ['ins_first_platypus']);
  // The profile's own details: a nickname of the holder's name, another email, the holder's mobile and address.
  const updated = await app.http.patch(`/v1/profiles/${bob.id}`, {
    auth: app.apiKey,
    json: { name: 'Bob Smith', email: 'bobby@example.org', phone: '+14155550142', address: { line1: '2200 Platypus Way', line2: null, city: 'San Francisco', region: 'CA', postalCode: '94110', country: 'US' } },
  });
  expect(updated.status, updated.text).toBe(200);
});
afterAll(() => app?.stop());

async function data(auth: string, query: string) {
  const response = await app.http.post('/v1/graphql', { auth, json: { query } });
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return response.body.data;
}

const OWNERS = `{ accounts { id name kind
  owners { names role emails { address primary type } phoneNumbers { number primary type } addresses { primary address { line1 line2 city region postalCode country } } }
  ownerMatch { name { score matched nicknameMatched firstOrLastNameMatched businessNameDetected } email { score matched } phone { score matched } address { score matched postalCodeMatched } } } }`;

type Account = { name: string; owners: Array<{ names: string[]; role: string; emails: unknown[]; phoneNumbers: Array<{ number: string }> }>; ownerMatch: Record<string, unknown> | null };

describe('account owners of a sandbox profile over GraphQL', () => {
  it('lists each account\'s owners, two co-holders on a joint account, phone numbers in E.164', async () => {
    const { accounts }: { accounts: Account[] } = await data(bob.auth, OWNERS);
    const byName = new Map(accounts.map((account) => [account.name, account]));
    expect(byName.get('Everyday Checking')!.owners.map((owner) => [owner.names, owner.role])).toEqual([
      [['Robert James Smith'], 'CO_HOLDER'],
      [['Alice Smith'], 'CO_HOLDER'],
    ]);
    expect(byName.get('Rewards Visa')!.owners.map((owner) => [owner.names, owner.role])).toEqual([[['Robert James Smith'], 'HOLDER']]);
    expect(byName.get('Rewards Visa')!.owners[0]).toMatchObject({
      emails: [
        { address: 'robert.smith@example.com', primary: true, type: 'PRIMARY' },
        { address: 'rsmith@work.example.com', primary: false, type: 'SECONDARY' },
      ],
      phoneNumbers: [
        { number: '+14155550142', primary: true, type: 'MOBILE' },
        { number: '+14155550178', primary: false, type: 'HOME' },
      ],
      addresses: [{ primary: true, address: { line1: '2200 Platypus Way', line2: 'Apt 4B', city: 'San Francisco', region: 'CA', postalCode: '94110', country: 'US' } }],
    });
    expect(accounts.every((account) => account.owners.length > 0)).toBe(true);
  });

  it('matches the profile: Bob for Robert as a nickname, another email not, the same phone and address', async () => {
    const { accounts }: { accounts: Account[] } = await data(bob.auth, OWNERS);
    for (const account of accounts) {
      expect({ account: account.name, ownerMatch: account.ownerMatch }).toEqual({
        account: account.name,
        ownerMatch: {
          name: { score: 90, matched: true, nicknameMatched: true, firstOrLastNameMatched: false, businessNameDetected: false },
          email: { score: 0, matched: false },
          phone: { score: 100, matched: true },
          address: { score: 100, matched: true, postalCodeMatched: true },
        },
      });
    }
  });

  it('gives a field no match when the profile has nothing to compare, and Alice her own name on the joint account', async () => {
    const alice = await createProfile(app, { name: 'Alice Smith', email: 'ALICE.SMITH@example.com', phone: null, address: null });
    const auth = basicAuth(alice.id, app.apiKey);
    const connect = await app.http.post('/v1/sandbox/connections', { auth: app.apiKey, json: { profileId: alice.id, institutionId: 'ins_houndstooth', username: 'user_good', password: 'pass_good', products: ['TRANSACTIONS', 'ACCOUNT_OWNERS'] } });
    expect(connect.status, connect.text).toBe(201);
    const owners = async () => ((await data(auth, OWNERS)).accounts as Account[]);
    await expect.poll(async () => (await owners()).filter((account) => account.owners.length > 0).length, { timeout: 30_000 }).toBe(2);
    const checking = (await owners()).find((account) => account.name === 'Everyday Checking')!;
    expect(checking.ownerMatch).toEqual({ name: { score: 100, matched: true, nicknameMatched: false, firstOrLastNameMatched: false, businessNameDetected: false }, email: { score: 100, matched: true }, phone: null, address: null });
    const card = (await owners()).find((account) => account.name === 'Cash Back Card')!;
    expect(card.ownerMatch).toMatchObject({ name: { score: 50, matched: false, firstOrLastNameMatched: true }, email: { score: 0, matched: false } });
  });

  it('has no owners without the ACCOUNT_OWNERS product', async () => {
    const profile = await createProfile(app);
    const connect = await app.http.post('/v1/sandbox/connections', { auth: app.apiKey, json: { profileId: profile.id, institutionId: 'ins_houndstooth', username: 'user_good', password: 'pass_good', products: ['TRANSACTIONS'] } });
    expect(connect.status, connect.text).toBe(201);
    const auth = basicAuth(profile.id, app.apiKey);
    await expect.poll(async () => ((await data(auth, '{ accounts { id } }')).accounts as unknown[]).length, { timeout: 30_000 }).toBe(2);
    expect((await data(auth, '{ accounts { owners { names } ownerMatch { name { score } } } }')).accounts).toEqual([
      { owners: [], ownerMatch: null },
      { owners: [], ownerMatch: null },
    ]);
  });

  it('shows another profile none of them, and an account of another profile not at all', async () => {
    const { accounts }: { accounts: Array<{ id: string }> } = await data(bob.auth, '{ accounts { id } }');
    const stranger = await createProfile(app);
    const strangerAuth = basicAuth(stranger.id, app.apiKey);
    expect((await data(strangerAuth, '{ accounts { owners { names } } }')).accounts).toEqual([]);
    const response = await app.http.post('/v1/graphql', { auth: strangerAuth, json: { query: `{ account(id: "${accounts[0]!.id}") { owners { names } ownerMatch { name { score } } } }` } });
    expect(response.body.data?.account ?? null).toBeNull();
    expect(JSON.stringify(response.body)).not.toMatch(/Robert|Smith|example\.com/);
  });

  it('records account.owners_verified once per account, the account without its owners, and keeps owners in no row in plaintext', async () => {
    const events = await app.http.get(`/v1/events?type=account.owners_verified&profileId=${bob.id}`, { auth: app.apiKey });
    expect(events.status, events.text).toBe(200);
    const { accounts }: { accounts: Array<{ id: string }> } = await data(bob.auth, '{ accounts { id } }');
    const items = events.body as Array<{ record: Record<string, unknown> }>;
    expect(items.map((event) => event.record.id).sort()).toEqual(accounts.map((account) => account.id).sort());
    expect(Object.keys(items[0]!.record).sort()).toEqual(['at', 'balance', 'connectionId', 'currencyCode', 'id', 'kind', 'mask', 'metadata', 'name', 'state', 'subtype', 'verified']);
    // The owners' phone numbers, as the bank writes them and in E.164 (a bare 555 matched a balance of 5,552.94).
    expect(JSON.stringify(events.body)).not.toMatch(/Robert|Alice|example\.com|555-01\d\d|\+1415555/);
    expect(await rowsShowing(app, ['Robert James Smith', 'robert.smith@example.com', 'asmith@work.example.com', '555-0142', 'Platypus Way'])).toEqual([]);
  });
});
