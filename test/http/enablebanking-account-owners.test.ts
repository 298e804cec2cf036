import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId } from '../../src/lib/ids.ts';
import type { FakeEnableBanking } from '../fakes/enablebanking/index.ts';
import { startEnableBankingApp } from '../support/enablebanking-app.ts';
import { createProfile, sessionFor } from '../support/factories.ts';
import { rowsShowing } from '../support/owners-at-rest.ts';
import { callBack, startRedirect } from '../support/redirect-links.ts';
import type { TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/wait.ts';

/* Enable Banking's account holder (`name`, `postal_address`) and the end-user's role (`psu_status`) as Account.owners, through the HTTPS front door. */

let app: TestApp;
let fake: FakeEnableBanking;

beforeAll(async () => {
  ({ app, fake } = await startEnableBankingApp());
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await fake?.stop();
});

/** A new profile (named `name`) links `bankName` with `products` and its first sync ends; its session token. */
async function linkAt(bankName: string, country: string, products: string[], name: string): Promise<{ token: string; connectionId: string }> {
  const token = await sessionFor(app, (await createProfile(app, { name, address: null })).id);
  const search = await app.http.get(`/v1/institutions?country=${country}&name=${encodeURIComponent(bankName)}`, { auth: token });
  const institution = search.body.find((candidate: { provider: string }) => candidate.provider === 'enablebanking');
  const link = await startRedirect(app, token, { provider: 'enablebanking', institutionId: institution.id, products });
  const back = await fake.atBank(link.url.toString(), 'approve');
  const connectionId = (await callBack(app, Object.fromEntries(back.searchParams), link.cookie, 'Mozilla/5.0 (X11; Linux x86_64)')).get('linked')!;
  await waitFor(async () => {
    const [row] = await app.sql('select status from connection where id = $1', [decodeId('connection', connectionId)]);
    return row.status === 'SYNCED' ? true : undefined;
  }, 'the first sync', 60_000);
  return { token, connectionId };
}

async function accounts(token: string) {
  const response = await app.http.post('/v1/graphql', {
    auth: token,
    json: { query: '{ accounts { name owners { names role emails { address } phoneNumbers { number } addresses { primary address { line1 line2 city region postalCode country } } } ownerMatch { name { score matched nicknameMatched } email { score } address { score } } } }' },
  });
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return response.body.data.accounts as Array<{ name: string; owners: unknown[]; ownerMatch: unknown }>;
}

describe('account owners from Enable Banking', () => {
  it('shows the holder named on each account with the end-user\'s role, matched against the profile, and never in plaintext at rest', async () => {
    const bank = fake.addBank('Fake Bank Holders', 'FI', [
      { key: 'current', currency: 'EUR', product: 'Current account', holder: { name: 'Matti Meikäläinen', psu_status: 'Account Holder', postal_address: { street_name: 'Mannerheimintie', building_number: '12', post_code: '00100', town_name: 'Helsinki', country: 'FI' } } },
      { key: 'joint', currency: 'EUR', product: 'Savings account', holder: { name: 'Maija Meikäläinen', psu_status: 'Co-account Holder' } },
      { key: 'parents', currency: 'EUR', product: 'Pension account', holder: { name: 'Liisa Virtanen', psu_status: 'Attorney' } },
      { key: 'other', currency: 'EUR', product: 'Card account' },
    ]);
    fake.addEntry(bank, 'current', { amount: '-4.20', counterpart: 'Kiosk' });
    const { token } = await linkAt('Fake Bank Holders', 'FI', ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_OWNERS'], 'Matti Meikalainen');
    const byName = new Map((await accounts(token)).map((account) => [account.name, account]));
    expect(byName.get('Current account')).toEqual({
      name: 'Current account',
      owners: [{ names: ['Matti Meikäläinen'], role: 'HOLDER', emails: [], phoneNumbers: [], addresses: [{ primary: true, address: { line1: 'Mannerheimintie 12', line2: null, city: 'Helsinki', region: null, postalCode: '00100', country: 'FI' } }] }],
      ownerMatch: { name: { score: 100, matched: true, nicknameMatched: false }, email: null, address: null },
    });
    expect(byName.get('Savings account')!.owners).toEqual([{ names: ['Maija Meikäläinen'], role: 'CO_HOLDER', emails: [], phoneNumbers: [], addresses: [] }]);
    expect(byName.get('Savings account')!.ownerMatch).toMatchObject({ name: { score: 50, matched: false } });
    expect(byName.get('Pension account')!.owners).toEqual([{ names: ['Liisa Virtanen'], role: 'ATTORNEY', emails: [], phoneNumbers: [], addresses: [] }]);
    // The fake's default holder, with no role said.
    expect(byName.get('Card account')!.owners).toEqual([{ names: ['Alex Example'], role: null, emails: [], phoneNumbers: [], addresses: [] }]);
    expect(await rowsShowing(app, ['Meikäläinen', 'Liisa Virtanen', 'Mannerheimintie'])).toEqual([]);
  });

  it('reads no owners for a connection without ACCOUNT_OWNERS', async () => {
    fake.addBank('Fake Bank Quiet', 'EE', [{ key: 'current', currency: 'EUR', holder: { name: 'Mari Maasikas', psu_status: 'Account Holder' } }]);
    const { token } = await linkAt('Fake Bank Quiet', 'EE', ['TRANSACTIONS', 'BALANCES'], 'Mari Maasikas');
    expect((await accounts(token)).map((account) => [account.owners, account.ownerMatch])).toEqual([[[], null]]);
  });
});
