import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { plaidClient } from '../../src/providers/plaid/plaid-client.ts';
import { PlaidProvider } from '../../src/providers/plaid/plaid-provider.ts';
import type { WindowProvider } from '../../src/providers/provider.ts';
import { simplefinFactory } from '../../src/providers/simplefin/simplefin-factory.ts';
import { exampleBuy, startFakePlaid, type FakePlaid } from '../fakes/plaid/index.ts';
import { startFakeSimplefin, type FakeSimplefin } from '../fakes/simplefin/index.ts';
import { sandboxAt, SEEDS } from '../support/sandbox-login.ts';

// One sign for `InvestmentTransaction.fees` whatever the provider: what was charged, positive.

const TODAY = '2026-03-10';
let plaid: FakePlaid;
let simplefin: FakeSimplefin;
let simplefinCa: string;

beforeAll(async () => {
  const tls = inject('tls');
  plaid = await startFakePlaid({ seed: 'investment-fees', today: TODAY, tls: { cert: readFileSync(tls.certFile, 'utf8'), key: readFileSync(tls.keyFile, 'utf8') }, webhookCa: readFileSync(tls.certFile) });
  simplefin = await startFakeSimplefin({ seed: 'investment-fees', today: TODAY, transactionCount: 50 });
  simplefinCa = path.join(mkdtempSync(path.join(tmpdir(), 'fake-simplefin-')), 'ca.pem');
  writeFileSync(simplefinCa, simplefin.ca);
});
afterAll(async () => {
  await plaid?.stop();
  await simplefin?.stop();
});

describe('investment transaction fees', () => {
  it('read positive from Plaid: its example buy with a fee of 7.99 is 7.99', async () => {
    const provider = new PlaidProvider({
      client: plaidClient({ clientId: plaid.clientId, secret: plaid.secret, basePath: plaid.url, caFile: inject('tls').certFile }),
      env: 'sandbox',
      linkScriptUrl: 'https://cdn.plaid.com/link/v2/stable/link-initialize.js',
      now: () => new Date(`${TODAY}T12:00:00Z`),
    });
    const login = await provider.completeLink({ institutionId: 'ins_109508', products: ['TRANSACTIONS', 'INVESTMENTS'], webhookUrl: null });
    const security = plaid.investments(login.remoteId!).securities.find((candidate) => candidate.ticker_symbol === 'DBLTX')!;
    const buy = await plaid.addInvestmentTransaction(login.remoteId!, exampleBuy(security.security_id));
    const { transactions } = await provider.investments(login.credential, '2026-03-01');
    expect(transactions!.find((transaction) => transaction.remoteId === buy.investment_transaction_id)).toMatchObject({ fees: '7.99', amount: '-7.7' });
  });

  it('read positive from the sandbox: every commission it charges', async () => {
    const { provider, credential } = await sandboxAt('ins_first_platypus', SEEDS[0]!, Date.UTC(2026, 2, 14, 12), 0);
    const { transactions } = await provider.investments!(credential, '2000-01-01');
    const charged = transactions!.filter((transaction) => transaction.fees !== null && !/^0(\.0+)?$/.test(transaction.fees));
    expect(charged.length).toBeGreaterThan(0);
    for (const transaction of charged) expect(transaction.fees).toMatch(/^\d+(\.\d+)?$/);
  });

  it('are never read from SimpleFIN, which reports holdings but no investment activity', async () => {
    const provider = (await simplefinFactory({ caFile: simplefinCa }).create({ allowedHosts: '127.0.0.1' })) as WindowProvider;
    const { setupToken } = simplefin.createSetupToken({ brokerage: true });
    const { credential } = await provider.completeLink({ setupToken, products: undefined, webhookUrl: null });
    const snapshot = await provider.investments!(credential, '2026-03-01');
    expect(snapshot.holdings.length).toBeGreaterThan(0);
    expect(snapshot.transactions).toBeNull();
  });
});
