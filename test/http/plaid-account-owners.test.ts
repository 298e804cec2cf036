import { randomBytes } from 'node:crypto';
import { EmailTypeEnum, PhoneNumberTypeEnum } from 'plaid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakePlaid } from '../fakes/plaid/index.ts';
import { rowsShowing } from '../support/owners-at-rest.ts';
import { startPlaidApp } from '../support/plaid-app.ts';
import { plaidConnections } from '../support/plaid-connections.ts';
import type { TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

let app: TestApp;
let plaid: FakePlaid;
const logs: string[] = [];
const { connectPlaid, graphql: graphqlBody, eventsOf } = plaidConnections(() => ({ app, plaid }));

async function accountsOf(profileId: string, query: string): Promise<Account[]> {
  const body = await graphqlBody(profileId, query);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data.accounts;
}
const marker = `zq${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  ({ app, plaid } = await startPlaidApp({ LOG_LEVEL: 'debug' }, { logs }));
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await plaid?.stop();
});

const OWNERS = `{ accounts { id name owners { names role emails { address primary type } phoneNumbers { number primary type } addresses { primary address { line1 city region postalCode country } } }
  ownerMatch { name { score matched nicknameMatched firstOrLastNameMatched businessNameDetected } email { score matched } phone { score matched } address { score matched postalCodeMatched } } } }`;

interface Account {
  id: string;
  name: string;
  owners: Array<{ names: string[]; role: string | null; emails: Array<{ address: string }>; phoneNumbers: Array<{ number: string; type: string }> }>;
  ownerMatch: Record<string, unknown>;
}

describe('account owners from Plaid (/identity/get), over GraphQL', () => {
  it('reads each account\'s owners with ACCOUNT_OWNERS, matches the profile, follows IDENTITY: DEFAULT_UPDATE, and keeps them out of rows, events and logs', async () => {
    const { profile, itemId } = await connectPlaid({ products: ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_OWNERS'] });
    const patch = (json: Record<string, unknown>) => app.http.patch(`/v1/profiles/${profile.id}`, { auth: app.apiKey, json });
    expect((await patch({ name: 'Alberta Charleson', email: 'AccountHolder0@Example.com', phone: '+12025550123', address: { line1: '2992 Cameron Rd', city: 'Malakoff', region: 'NY', postalCode: '14236', country: 'US' } })).status).toBe(200);

    const first: Account[] = await accountsOf(profile.id, OWNERS);
    expect(first).toHaveLength(4);
    for (const account of first) {
      expect(account.owners).toHaveLength(1);
      expect(account.owners[0]).toMatchObject({ names: ['Alberta Bobbeth Charleson'], role: null });
      // Plaid's ten digits read in the profile's country: E.164.
      expect(account.owners[0]!.phoneNumbers[0]).toEqual({ number: '+12025550123', primary: false, type: 'HOME' });
      expect(account.ownerMatch).toEqual({
        name: { score: 95, matched: true, nicknameMatched: false, firstOrLastNameMatched: false, businessNameDetected: false },
        email: { score: 100, matched: true },
        phone: { score: 100, matched: true },
        address: { score: 100, matched: true, postalCodeMatched: true },
      });
    }
    expect(await eventsOf(profile.id, 'account.owners_verified')).toHaveLength(4);

    // The checking account becomes joint: Plaid announces it, the next sync reads it.
    const robert = { names: ['Robert Smith'], phone_numbers: [{ data: '+1 212 555 0199', primary: true, type: PhoneNumberTypeEnum.Mobile }], emails: [{ data: `robert.${marker}@example.net`, primary: true, type: EmailTypeEnum.Primary }], addresses: [] };
    const jane = { names: ['SMITH JANE'], phone_numbers: [], emails: [], addresses: [] };
    await plaid.setOwners(itemId, 'checking', [robert, jane]);
    await waitFor(async () => ((await eventsOf(profile.id, 'account.owners_verified')).length === 5 ? true : undefined), 'the changed owners');
    expect((await patch({ name: 'Bob Smith', email: 'bob@example.org' })).status).toBe(200);

    const accounts: Account[] = await accountsOf(profile.id, OWNERS);
    const checking = accounts.find((account) => account.name === 'Plaid Checking')!;
    expect(checking.owners.map((owner) => owner.names)).toEqual([['Robert Smith'], ['SMITH JANE']]);
    expect(checking.owners[0]!.phoneNumbers).toEqual([{ number: '+12125550199', primary: true, type: 'MOBILE' }]);
    expect(checking.ownerMatch).toEqual({
      name: { score: 90, matched: true, nicknameMatched: true, firstOrLastNameMatched: false, businessNameDetected: false },
      email: { score: 0, matched: false },
      phone: { score: 0, matched: false },
      address: null,
    });
    const [changed] = (await eventsOf(profile.id, 'account.owners_verified')).slice(-1);
    expect(changed.payload.record.id).toBe(checking.id);

    expect(await rowsShowing(app, [marker, 'Alberta Bobbeth', 'accountholder1@example.com', '2992 Cameron Road'])).toEqual([]);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.filter((line) => line.includes(marker) || line.includes('Alberta') || line.includes('accountholder'))).toEqual([]);
  });

  it('asks Plaid for no identity without ACCOUNT_OWNERS', async () => {
    const before = plaid.requests.filter((request) => request.endpoint === '/identity/get').length;
    const { profile } = await connectPlaid({ products: ['TRANSACTIONS', 'BALANCES'] });
    expect(plaid.requests.filter((request) => request.endpoint === '/identity/get')).toHaveLength(before);
    const accounts: Account[] = await accountsOf(profile.id, '{ accounts { owners { names } ownerMatch { name { score } } } }');
    expect(accounts.every((account) => account.owners.length === 0 && account.ownerMatch === null)).toBe(true);
  });
});
