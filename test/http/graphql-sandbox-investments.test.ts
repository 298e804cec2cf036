import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncedSandboxProfile } from '../support/factories.ts';
import { exact } from '../support/sandbox-login.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const now = new Date('2026-05-20T12:00:00Z');
let app: TestApp;
let owner: string;
let stranger: string;

beforeAll(async () => {
  app = await startTestApp({}, { sandboxNow: () => now });
  owner = (await syncedSandboxProfile(app, ['ins_first_platypus', 'ins_quokka_invest', 'ins_wombat_lending'])).auth;
  stranger = (await syncedSandboxProfile(app, ['ins_houndstooth'])).auth;
});
afterAll(() => app?.stop());

async function data(auth: string, query: string, variables?: Record<string, unknown>) {
  const response = await app.http.post('/v1/graphql', { auth, json: { query, variables } });
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return response.body.data;
}

interface Movement {
  accountId: string;
  quantity: string;
  amount: string;
  security: { id: string } | null;
}

/** Every investment transaction of the profile, walked 100 at a time (at most 50 pages). */
async function investmentTransactions(auth: string): Promise<Movement[]> {
  const all: Movement[] = [];
  let after: string | null = null;
  for (let page = 0; page < 50; page++) {
    const { investmentTransactions: connection } = await data(
      auth,
      `query($after: String) { investmentTransactions(first: 100, after: $after, sort: DATE_ASC) { nodes { accountId quantity amount security { id } } pageInfo { hasNextPage endCursor } } }`,
      { after },
    );
    all.push(...connection.nodes);
    if (!connection.pageInfo.hasNextPage) return all;
    after = connection.pageInfo.endCursor;
  }
  throw new Error('more than 50 pages of investment transactions');
}

const ACCOUNTS = `{ accounts { id kind subtype balance { current }
  holdings { quantity price value security { id tickerSymbol isin type } }
  liability { kind minimumPayment nextPaymentDueDate lastStatementBalance isOverdue interestRateType originationPrincipal ytdInterestPaid ytdPrincipalPaid escrowBalance aprs { type percentage } } } }`;

const sum = (decimals: string[]) => decimals.reduce((total, decimal) => total + exact(decimal), 0n);

describe('a sandbox profile’s investments and liabilities over GraphQL (needs core)', () => {
  it('shows holdings whose values add up to each investment account’s balance, and that its investment transactions add up to', async () => {
    const { accounts } = await data(owner, ACCOUNTS);
    const investing = accounts.filter((account: { kind: string }) => account.kind === 'INVESTMENT');
    expect(investing.map((account: { subtype: string }) => account.subtype).sort()).toEqual(['401k', 'brokerage', 'brokerage']);
    const movements = await investmentTransactions(owner);
    for (const account of investing) {
      expect(sum(account.holdings.map((holding: { value: string }) => holding.value))).toBe(exact(account.balance.current));
      const own = movements.filter((movement) => movement.accountId === account.id);
      for (const holding of account.holdings) {
        const summed = holding.security.tickerSymbol === 'CUR:USD' ? sum(own.map((movement) => movement.amount)) : sum(own.filter((movement) => movement.security?.id === holding.security.id).map((movement) => movement.quantity));
        expect({ account: account.id, security: holding.security.tickerSymbol, quantity: exact(holding.quantity) }).toEqual({ account: account.id, security: holding.security.tickerSymbol, quantity: summed });
      }
    }
    // One instrument, one security, whichever connection holds it.
    const vti = investing.flatMap((account: { holdings: { security: { id: string; tickerSymbol: string } }[] }) => account.holdings.filter((holding) => holding.security.tickerSymbol === 'VTI').map((holding) => holding.security.id));
    expect(new Set(vti).size).toBe(1);
    for (const account of accounts.filter((candidate: { kind: string }) => candidate.kind !== 'INVESTMENT')) expect(account.holdings).toEqual([]);
  });

  it('filters holdings by security type and keeps bitcoin’s fraction digits', async () => {
    const query = '{ holdings(first: 100, filter: { securityTypes: [CRYPTOCURRENCY] }) { count nodes { quantity value security { tickerSymbol type } } } }';
    const { holdings } = await data(owner, query);
    // Both brokerages (First Platypus's and Quokka's) hold bitcoin; nothing else is a cryptocurrency.
    expect(holdings.count).toBe(2);
    for (const holding of holdings.nodes) expect(holding.security).toEqual({ tickerSymbol: 'BTC', type: 'CRYPTOCURRENCY' });
    // Quantities go out as JSON numbers with the digits stored: read them from the answer's text.
    const printed = [...(await app.http.post('/v1/graphql', { auth: owner, json: { query } })).text.matchAll(/"quantity":([-\d.e]+)/g)].map((match) => match[1]);
    expect(printed).toHaveLength(2);
    for (const quantity of printed) expect(quantity).toMatch(/^\d+\.\d{1,8}$/);
  });

  it('shows the card’s statement and the loans’ terms, owed amounts negative, and no liability on other accounts', async () => {
    const { accounts } = await data(owner, ACCOUNTS);
    const bySubtype = (subtype: string) => accounts.find((account: { subtype: string }) => account.subtype === subtype).liability;
    expect(bySubtype('credit card')).toMatchObject({ kind: 'CREDIT', isOverdue: false, interestRateType: null, aprs: [{ type: 'purchase_apr' }, { type: 'cash_apr' }] });
    expect(exact(bySubtype('credit card').minimumPayment) < 0n && exact(bySubtype('credit card').lastStatementBalance) < 0n).toBe(true);
    expect(bySubtype('mortgage')).toMatchObject({ kind: 'MORTGAGE', interestRateType: 'FIXED', minimumPayment: null });
    expect(exact(bySubtype('mortgage').escrowBalance) > 0n && exact(bySubtype('mortgage').originationPrincipal) < 0n).toBe(true);
    expect(bySubtype('student')).toMatchObject({ kind: 'STUDENT', interestRateType: 'VARIABLE', escrowBalance: null });
    expect(exact(bySubtype('student').ytdPrincipalPaid) > 0n).toBe(true);
    for (const account of accounts.filter((candidate: { kind: string }) => candidate.kind === 'DEPOSITORY' || candidate.kind === 'INVESTMENT')) expect(account.liability).toBeNull();
  });

  it('shows another profile none of them', async () => {
    const { holdings, investmentTransactions: movements } = await data(stranger, '{ holdings { count } investmentTransactions { count } }');
    expect([holdings.count, movements.count]).toEqual([0, 0]);
    const { accounts } = await data(stranger, ACCOUNTS);
    expect(accounts.find((account: { kind: string }) => account.kind === 'CREDIT').liability).toMatchObject({ kind: 'CREDIT' });
  });
});
