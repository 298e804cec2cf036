import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { plaidClient } from '../../src/providers/plaid/plaid-client.ts';
import { PlaidProvider } from '../../src/providers/plaid/plaid-provider.ts';
import type { ProductName } from '../../src/providers/link-flow.ts';
import { ProviderBusy } from '../../src/providers/provider-errors.ts';
import { exampleBuy, startFakePlaid, type FakePlaid } from '../fakes/plaid/index.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

// The adapter against the fake over loopback HTTPS: Plaid's wire format in, Tributary's shapes out.

const TODAY = '2026-03-10';
const START = '2024-03-11';
let fake: FakePlaid;
let provider: PlaidProvider;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  const tls = inject('tls');
  receiver = await startReceiver();
  fake = await startFakePlaid({ seed: 'plaid-investments', today: TODAY, tls: { cert: readFileSync(tls.certFile, 'utf8'), key: readFileSync(tls.keyFile, 'utf8') }, webhookCa: readFileSync(tls.certFile) });
  provider = new PlaidProvider({
    client: plaidClient({ clientId: fake.clientId, secret: fake.secret, basePath: fake.url, caFile: tls.certFile }),
    env: 'sandbox',
    linkScriptUrl: 'https://cdn.plaid.com/link/v2/stable/link-initialize.js',
    now: () => new Date(`${TODAY}T12:00:00Z`),
  });
});
afterAll(async () => {
  await fake?.stop();
  await receiver?.close();
});

/** Links an Item server-to-server as the connect flow does; `products` as the connection names them. */
async function link(products: ProductName[], webhookUrl: string | null = null) {
  const login = await provider.completeLink({ institutionId: 'ins_109508', products, webhookUrl });
  return { credential: login.credential, itemId: login.remoteId! };
}

const cents = (amount: string) => {
  const [whole, fraction = ''] = amount.replace('-', '').split('.');
  return (amount.startsWith('-') ? -1 : 1) * (Number(whole) * 100 + Number(fraction.padEnd(2, '0')));
};

describe('Plaid investments through the adapter', () => {
  it('reports holdings with exact quantities and prices, their securities typed, and the brokerage balance as their sum', async () => {
    const { credential, itemId } = await link(['TRANSACTIONS', 'INVESTMENTS']);
    const snapshot = await provider.investments(credential, START);
    expect(snapshot).toMatchObject({ start: START, end: TODAY });
    const holdings = new Map(snapshot.holdings.map((holding) => [snapshot.securities.find((security) => security.remoteId === holding.securityRemoteId)!.name, holding]));
    expect(holdings.get('Bitcoin')).toMatchObject({ quantity: '0.1234567891', price: '67123.12', value: '8286.8', costBasis: '5000', priceDate: TODAY, currencyCode: 'USD' });
    // 5e-7 on the wire, in exponent form: written out exactly.
    expect(holdings.get('Ethereum')).toMatchObject({ quantity: '0.0000005', value: '0', costBasis: null });
    expect(holdings.get('Vanguard Total Stock Market ETF')).toMatchObject({ quantity: '42.5', price: '276.81', value: '11764.43' });
    const byName = new Map(snapshot.securities.map((security) => [security.name, security]));
    expect(byName.get('Vanguard Target Retirement 2050 Trust II')).toMatchObject({ tickerSymbol: null, type: 'MUTUAL_FUND', cusip: '92202V351' });
    expect(byName.get('U S Dollar')).toMatchObject({ type: 'CASH', tickerSymbol: 'CUR:USD' });
    expect([...byName.values()].map((security) => security.type).sort()).toEqual(['CASH', 'CRYPTOCURRENCY', 'CRYPTOCURRENCY', 'EQUITY', 'ETF', 'FIXED_INCOME', 'MUTUAL_FUND']);

    const brokerage = (await provider.accounts(credential)).find((account) => account.kind === 'INVESTMENT')!;
    expect(snapshot.holdings.every((holding) => holding.accountRemoteId === brokerage.remoteId)).toBe(true);
    expect(cents(brokerage.balance.current!)).toBe(snapshot.holdings.reduce((sum, holding) => sum + cents(holding.value), 0));
    expect(fake.investments(itemId).holdings).toHaveLength(snapshot.holdings.length);
  });

  it('reads every page of the activity over the window, in Tributary signs, each security it names included', async () => {
    const { credential, itemId } = await link(['TRANSACTIONS', 'INVESTMENTS']);
    const before = fake.requests.length;
    const snapshot = await provider.investments(credential, START);
    const upstream = fake.investments(itemId).transactions.filter((transaction) => transaction.date >= START);
    expect(upstream.length).toBeGreaterThan(500);
    const pages = fake.requests.slice(before).filter((request) => request.endpoint === '/investments/transactions/get');
    expect(pages.map((request) => (request.body!.options as { offset: number }).offset)).toEqual([0, 500].concat(upstream.length > 1000 ? [1000] : []));
    expect(snapshot.transactions!.map((transaction) => transaction.remoteId).sort()).toEqual(upstream.map((transaction) => transaction.investment_transaction_id).sort());

    const ours = new Map(snapshot.transactions!.map((transaction) => [transaction.remoteId, transaction]));
    for (const plaid of upstream) {
      const transaction = ours.get(plaid.investment_transaction_id)!;
      expect(Number(transaction.amount)).toBe(-plaid.amount);
      expect(transaction.amount).toMatch(/^-?\d+(\.\d{1,2})?$/);
      expect(Number(transaction.quantity)).toBe(plaid.quantity);
      // Fees are positive, as Plaid reports them and as the contract has them for every provider.
      expect(transaction.fees).toBe(plaid.fees === null ? null : String(plaid.fees));
    }
    const of = (type: string) => snapshot.transactions!.filter((transaction) => transaction.type === type);
    for (const buy of of('BUY')) expect(buy.amount.startsWith('-') && !buy.quantity.startsWith('-')).toBe(true);
    for (const sale of of('SELL')) expect(!sale.amount.startsWith('-') && sale.quantity.startsWith('-')).toBe(true);
    for (const dividend of of('DIVIDEND')) expect(Number(dividend.amount)).toBeGreaterThan(0);
    for (const fee of of('FEE')) expect(fee).toMatchObject({ securityRemoteId: null, amount: expect.stringMatching(/^-/) });
    const named = new Set(snapshot.securities.map((security) => security.remoteId));
    for (const transaction of snapshot.transactions!) if (transaction.securityRemoteId !== null) expect(named).toContain(transaction.securityRemoteId);
    expect(snapshot.transactions!.some((transaction) => /\.\d{5,}$/.test(transaction.quantity))).toBe(true);
  });

  it("keeps every digit of Plaid's own examples: a value of 4437.35905, a quantity of 0.7388014749727547, a fee of 7.99 positive", async () => {
    const { credential, itemId } = await link(['TRANSACTIONS', 'INVESTMENTS']);
    const securityOf = (ticker: string) => fake.investments(itemId).securities.find((security) => security.ticker_symbol === ticker)!.security_id;
    // /investments/holdings/get's example in Plaid's description (2020-09-14.yml), and /investments/transactions/get's buy.
    await fake.addHolding(itemId, {
      security_id: securityOf('DOGE'),
      quantity: 25000,
      institution_price: 0.177494362,
      institution_price_as_of: '2022-01-14',
      institution_price_datetime: '2022-06-07T23:01:00Z',
      institution_value: 4437.35905,
      cost_basis: 92.47,
      iso_currency_code: 'USD',
      unofficial_currency_code: null,
      vested_quantity: null,
      vested_value: null,
    });
    const buy = await fake.addInvestmentTransaction(itemId, { ...exampleBuy(securityOf('DBLTX')), transaction_datetime: '2020-05-27T17:23:22Z' });
    const snapshot = await provider.investments(credential, START);
    expect(snapshot.holdings.find((holding) => holding.securityRemoteId === securityOf('DOGE'))).toMatchObject({
      quantity: '25000',
      price: '0.177494362',
      value: '4437.35905',
      costBasis: '92.47',
      priceDate: '2022-01-14',
    });
    expect(snapshot.transactions!.find((transaction) => transaction.remoteId === buy.investment_transaction_id)).toMatchObject({
      type: 'BUY',
      quantity: '0.7388014749727547',
      price: '10.42',
      fees: '7.99',
      amount: '-7.7',
    });
  });

  it('sums two lots of one security in one account into one holding, exactly, both lots kept in its raw data', async () => {
    const { credential, itemId } = await link(['TRANSACTIONS', 'INVESTMENTS']);
    const [vti] = fake.investments(itemId).holdings.filter((holding) => holding.institution_value === 11764.43);
    await fake.addHolding(itemId, { ...vti!, quantity: 0.1000000001, institution_value: 27.68, cost_basis: 25.01 });
    const snapshot = await provider.investments(credential, START);
    const held = snapshot.holdings.filter((holding) => holding.securityRemoteId === vti!.security_id);
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ quantity: '42.6000000001', price: '276.81', value: '11792.11', costBasis: '9825.01' });
    expect((held[0]!.raw.lots as unknown[]).length).toBe(2);
    expect(snapshot.holdings).toHaveLength(fake.investments(itemId).holdings.length - 1);
  });

  it('reads the activity again when a trade arrives mid-walk, so a shifted offset loses and repeats nothing', async () => {
    const { credential, itemId } = await link(['TRANSACTIONS', 'INVESTMENTS']);
    fake.injectInvestmentActivityDuringPaging(itemId);
    const before = fake.requests.length;
    const snapshot = await provider.investments(credential, START);
    const upstream = fake.investments(itemId).transactions.filter((transaction) => transaction.date >= START);
    expect(snapshot.transactions!.map((transaction) => transaction.remoteId).sort()).toEqual(upstream.map((transaction) => transaction.investment_transaction_id).sort());
    const offsets = fake.requests.slice(before).filter((request) => request.endpoint === '/investments/transactions/get').map((request) => (request.body!.options as { offset: number }).offset);
    expect(offsets.filter((offset) => offset === 0)).toHaveLength(2);
    expect(offsets.length).toBeLessThanOrEqual(2 * Math.ceil(upstream.length / 500));
  });

  it('reports nothing for a login without investment accounts, and waits when Plaid rate-limits a page', async () => {
    const plain = await link(['TRANSACTIONS']);
    expect(await provider.investments(plain.credential, START)).toEqual({ securities: [], holdings: [], transactions: [], start: START, end: TODAY });
    const { credential } = await link(['TRANSACTIONS', 'INVESTMENTS']);
    fake.failNext('RATE_LIMIT_EXCEEDED', { endpoint: '/investments/transactions/get' });
    await expect(provider.investments(credential, START)).rejects.toBeInstanceOf(ProviderBusy);
  });
});

describe('Plaid products in Link', () => {
  it('asks Link for investments and liabilities as optional products, so a bank without them still links', async () => {
    const session = await provider.startLink({ profileId: 'p_test', products: ['TRANSACTIONS', 'INVESTMENTS', 'LIABILITIES'], webhookUrl: null });
    const request = fake.requests.findLast((candidate) => candidate.endpoint === '/link/token/create')!;
    expect(request.body).toMatchObject({ products: ['transactions'], optional_products: ['investments', 'liabilities'] });
    if (session.kind !== 'PLAID_LINK') throw new Error('Plaid opens Plaid Link');
    const { publicToken } = await fake.completeLink(session.linkToken);
    const { credential } = await provider.completeLink({ publicToken, products: undefined, webhookUrl: null });
    expect((await provider.accounts(credential)).map((account) => account.subtype)).toEqual(expect.arrayContaining(['brokerage', 'mortgage']));
  });
});

describe('Plaid liabilities through the adapter', () => {
  it("reports a card's APRs and statement, a student loan and a mortgage with what is owed negative", async () => {
    const { credential, itemId } = await link(['TRANSACTIONS', 'LIABILITIES']);
    const liabilities = await provider.liabilities(credential);
    const accounts = await provider.accounts(credential);
    const kindOf = (kind: string) => liabilities.find((liability) => liability.kind === kind)!;
    const card = accounts.find((account) => account.kind === 'CREDIT')!;
    expect(kindOf('CREDIT')).toMatchObject({
      accountRemoteId: card.remoteId,
      lastStatementBalance: card.balance.current,
      minimumPayment: '-20',
      lastPaymentAmount: '168.25',
      isOverdue: false,
      aprs: [
        { type: 'purchase_apr', percentage: '15.24', balanceSubjectToApr: card.balance.current },
        { type: 'balance_transfer_apr', percentage: '27.95', balanceSubjectToApr: '0' },
        { type: 'cash_apr', percentage: '28.45', balanceSubjectToApr: null },
      ],
    });
    expect(card.balance.current!.startsWith('-')).toBe(true);
    expect(kindOf('STUDENT')).toMatchObject({ interestRatePercentage: '5.25', minimumPayment: null, lastStatementBalance: null, nextPaymentAmount: '-25', originationPrincipal: '-25000', maturityDate: '2032-07-28', ytdPrincipalPaid: '271.65' });
    expect(kindOf('MORTGAGE')).toMatchObject({
      interestRateType: 'FIXED',
      interestRatePercentage: '3.99',
      originationPrincipal: '-425000',
      nextPaymentAmount: '-3141.54',
      escrowBalance: '3141.54',
      ytdInterestPaid: '12300.4',
      maturityDate: '2045-07-31',
      // Plaid reports no is_overdue for a mortgage but its past_due_amount: 2304 is overdue.
      isOverdue: true,
    });
    expect(liabilities.map((liability) => liability.accountRemoteId).sort()).toEqual(accounts.filter((account) => account.kind === 'CREDIT' || account.kind === 'LOAN').map((account) => account.remoteId).sort());
    expect(fake.liabilities(itemId).mortgage).toHaveLength(1);
  });

  it('reports a card and a student loan for a login linked without liabilities (no mortgage shared)', async () => {
    const { credential } = await link(['TRANSACTIONS']);
    expect((await provider.liabilities(credential)).map((liability) => liability.kind).sort()).toEqual(['CREDIT', 'STUDENT']);
  });
});

describe('Plaid investment and liability webhooks through the adapter', () => {
  it('verifies HOLDINGS, INVESTMENTS_TRANSACTIONS and LIABILITIES DEFAULT_UPDATE and asks for a sync of the Item', async () => {
    const { itemId } = await link(['TRANSACTIONS', 'INVESTMENTS', 'LIABILITIES'], receiver.url);
    const [holding] = fake.investments(itemId).holdings;
    const deliveries = [
      await fake.setHolding(itemId, holding!.security_id, { quantity: 50 }).then(() => fake.webhookDeliveries.at(-1)!),
      await fake.addInvestmentTransactions(itemId, 2).then(() => fake.webhookDeliveries.at(-1)!),
      await fake.updateLiability(itemId, 'student', { is_overdue: true }).then(() => fake.webhookDeliveries.at(-1)!),
    ];
    for (const delivery of deliveries) {
      const headers = Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name.toLowerCase(), value]));
      expect(await provider.receiveWebhook({ headers, body: Buffer.from(delivery.body) })).toEqual([{ kind: 'SYNC', remoteId: itemId }]);
    }
    expect(deliveries.map((delivery) => JSON.parse(delivery.body).webhook_type)).toEqual(['HOLDINGS', 'INVESTMENTS_TRANSACTIONS', 'LIABILITIES']);
  });
});
