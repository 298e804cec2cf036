import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WindowProvider } from '../../src/providers/provider.ts';
import type { ProviderHolding } from '../../src/providers/provider-investments.ts';
import { sum } from '../../src/providers/decimals.ts';
import { simplefinFactory } from '../../src/providers/simplefin/simplefin-factory.ts';
import { startFakeSimplefin, type FakeSimplefin } from '../fakes/simplefin/index.ts';

let fake: FakeSimplefin;
let caFile: string;

beforeAll(async () => {
  fake = await startFakeSimplefin({ seed: 'simplefin-investments', today: '2026-03-10', transactionCount: 300 });
  caFile = path.join(mkdtempSync(path.join(tmpdir(), 'fake-simplefin-')), 'ca.pem');
  writeFileSync(caFile, fake.ca);
});
afterAll(async () => {
  await fake?.stop();
});

/** The adapter as the service builds it for an environment allowing the fake's host. */
async function adapterOf(factory = simplefinFactory({ caFile })): Promise<WindowProvider> {
  return (await factory.create({ allowedHosts: '127.0.0.1' })) as WindowProvider;
}

/** A bridge user with a brokerage account, linked through the adapter: the credential it stores. */
async function link(provider: WindowProvider, options: { brokerage: boolean } = { brokerage: true }) {
  const { setupToken, connectionId } = fake.createSetupToken(options);
  const { credential } = await provider.completeLink({ setupToken, products: undefined, webhookUrl: null });
  return { credential, connectionId };
}

const start = () => new Date(Date.parse(`${fake.today()}T00:00:00Z`) - 30 * 86_400_000).toISOString().slice(0, 10);

/** What the holdings of the brokerage should read, from the bridge's own report of them. */
function expectedHoldings(connectionId: string, accountId: string) {
  return fake.holdings(connectionId).map((holding) => ({
    accountRemoteId: accountId,
    securityRemoteId: holding.symbol,
    quantity: holding.shares,
    value: holding.market_value,
    costBasis: holding.cost_basis ?? null,
    currencyCode: holding.currency ?? 'USD',
    priceDate: fake.today(),
  }));
}

function withoutPrice({ price: _price, raw: _raw, ...rest }: ProviderHolding) {
  return rest;
}

describe('SimpleFIN investments against the fake Bridge', () => {
  it('offers holdings only: no investment activity, no liabilities', async () => {
    const provider = await adapterOf();
    expect(provider.capabilities.has('INVESTMENTS')).toBe(true);
    expect(provider.capabilities.has('INVESTMENT_TRANSACTIONS')).toBe(false);
    expect(provider.capabilities.has('LIABILITIES')).toBe(false);
    expect('liabilities' in provider).toBe(false);
  });

  it("reads the holdings from the sync's own Account Set: one request for the window and the holdings, amounts exactly as the Bridge sent them", async () => {
    const factory = simplefinFactory({ caFile });
    const provider = await adapterOf(factory);
    const { credential, connectionId } = await link(provider);
    const before = fake.requests.length;

    const window = await provider.readWindow(credential, start());
    // The directory rebuilds providers every minute: a rebuilt one still finds what the sync read.
    const investments = await (await adapterOf(factory)).investments!(credential, start());
    expect(fake.requests.length - before).toBe(1);

    const brokerage = window.accounts.find((account) => account.name === 'Individual Brokerage')!;
    expect(brokerage.kind).toBe('INVESTMENT');
    expect(investments.transactions).toBeNull();
    expect(investments.end).toBe(fake.today());
    expect(investments.securities.map(({ remoteId, tickerSymbol, type, currencyCode, closePrice }) => ({ remoteId, tickerSymbol, type, currencyCode, closePrice }))).toEqual([
      { remoteId: 'VTI', tickerSymbol: 'VTI', type: 'ETF', currencyCode: 'USD', closePrice: null },
      { remoteId: 'AAPL', tickerSymbol: 'AAPL', type: 'EQUITY', currencyCode: 'USD', closePrice: null },
      // The Bridge sent no currency for it: the account's.
      { remoteId: 'BTC', tickerSymbol: 'BTC', type: 'CRYPTOCURRENCY', currencyCode: 'USD', closePrice: null },
      { remoteId: 'VMFXX', tickerSymbol: 'VMFXX', type: 'CASH', currencyCode: 'USD', closePrice: null },
    ]);
    expect(investments.holdings.map(withoutPrice)).toEqual(expectedHoldings(connectionId, brokerage.remoteId));
    expect(investments.holdings.find((holding) => holding.securityRemoteId === 'AAPL')!.costBasis).toBeNull();
    expect(investments.holdings.find((holding) => holding.securityRemoteId === 'BTC')!.quantity).toBe('0.01234567');
    for (const holding of investments.holdings) {
      expect(holding.price).toMatch(/^\d+(\.\d{1,10})?$/);
      expect(Number(holding.price) * Number(holding.quantity)).toBeCloseTo(Number(holding.value), 2);
    }
    // The account's balance is its positions' value plus its cash, to the cent.
    expect(sum([...investments.holdings.map((holding) => holding.value), '1204.75'])).toBe(sum([brokerage.balance.current!]));
  });

  it('without a sync just before, reads a new Account Set of no transactions; a position sold is gone from the next sync', async () => {
    const provider = await adapterOf();
    const { credential, connectionId } = await link(provider);
    const before = fake.requests.length;
    const first = await provider.investments!(credential, start());
    expect(fake.requests.length - before).toBe(1);
    const request = fake.requests.at(-1)!;
    expect(request.query['start-date']).toEqual([expect.stringMatching(/^\d+$/)]);
    expect(Number(request.query['start-date']![0])).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(request.query.pending).toBeUndefined();
    expect(first.holdings.map((holding) => holding.securityRemoteId)).toEqual(['VTI', 'AAPL', 'BTC', 'VMFXX']);

    fake.sellPosition(connectionId, 'AAPL');
    fake.advanceClock(1);
    const window = await provider.readWindow(credential, start());
    const next = await provider.investments!(credential, start());
    const brokerage = window.accounts.find((account) => account.kind === 'INVESTMENT')!;
    expect(next.holdings.map(withoutPrice)).toEqual(expectedHoldings(connectionId, brokerage.remoteId));
    expect(next.holdings.map((holding) => holding.securityRemoteId)).toEqual(['VTI', 'BTC', 'VMFXX']);
    expect(next.securities.map((security) => security.remoteId)).toEqual(['VTI', 'BTC', 'VMFXX']);
  });

  it('reports no holdings and no securities for a login without investment accounts', async () => {
    const provider = await adapterOf();
    const { credential } = await link(provider, { brokerage: false });
    await provider.readWindow(credential, start());
    const investments = await provider.investments!(credential, start());
    expect(investments).toMatchObject({ securities: [], holdings: [], transactions: null });
  });
});
