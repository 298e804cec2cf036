import { describe, expect, it } from 'vitest';
import { SECURITY_TYPES, type InvestmentSnapshot } from '../../src/providers/provider-investments.ts';
import { SandboxProvider } from '../../src/providers/sandbox/sandbox-provider.ts';
import { SECURITIES } from '../../src/providers/sandbox/securities.ts';
import { exact, SEEDS, sandboxAt, syncedTransactions } from '../support/sandbox-login.ts';

const LINKED = Date.UTC(2026, 2, 14, 12);
const DAY = 86_400_000;
const INVESTING = ['ins_quokka_invest', 'ins_first_platypus'];

/** Sums exact decimals as 10^-10 units (the most fraction digits a quantity may have). */
const total = (decimals: string[]) => decimals.reduce((sum, decimal) => sum + exact(decimal), 0n);

/** `quantity × price` rounded half up to cents (in 10^-10 units): what a holding's value must be. */
function valueOf({ quantity, price }: { quantity: string; price: string }): bigint {
  const product = exact(quantity) * exact(price);
  const cent = 10n ** 18n;
  return ((product * 2n + cent) / (2n * cent)) * 10n ** 8n;
}

async function snapshotOf(institutionId: string, seed: string, daysAfterLink = 0): Promise<{ provider: SandboxProvider; credential: string; snapshot: InvestmentSnapshot }> {
  const { provider, credential } = await sandboxAt(institutionId, seed, LINKED, daysAfterLink);
  return { provider, credential, snapshot: await provider.investments!(credential, '2000-01-01') };
}

describe('the sandbox’s investment accounts', () => {
  it.each(INVESTING)('hold at %s exactly what their whole activity adds up to, cash included, on any day', async (institutionId) => {
    for (const seed of SEEDS) {
      for (const daysAfterLink of [0, 45, 400]) {
        const { snapshot } = await snapshotOf(institutionId, seed, daysAfterLink);
        expect(snapshot.holdings.length).toBeGreaterThan(2);
        for (const holding of snapshot.holdings) {
          const activity = snapshot.transactions!.filter((transaction) => transaction.accountRemoteId === holding.accountRemoteId);
          const summed = holding.securityRemoteId === SECURITIES.USD.remoteId ? total(activity.map((transaction) => transaction.amount)) : total(activity.filter((transaction) => transaction.securityRemoteId === holding.securityRemoteId).map((transaction) => transaction.quantity));
          expect({ seed, daysAfterLink, security: holding.securityRemoteId, quantity: exact(holding.quantity) }).toEqual({ seed, daysAfterLink, security: holding.securityRemoteId, quantity: summed });
          expect(exact(holding.quantity) >= 0n).toBe(true);
        }
      }
    }
  });

  it.each(INVESTING)('report at %s a balance that is their holdings’ value, cash included, each value quantity × price', async (institutionId) => {
    for (const seed of SEEDS) {
      const { provider, credential, snapshot } = await snapshotOf(institutionId, seed, 200);
      const investments = (await provider.accounts(credential)).filter((account) => account.kind === 'INVESTMENT');
      expect(investments.length).toBeGreaterThan(0);
      for (const account of investments) {
        const holdings = snapshot.holdings.filter((holding) => holding.accountRemoteId === account.remoteId);
        expect(holdings.map((holding) => exact(holding.value))).toEqual(holdings.map(valueOf));
        expect(exact(account.balance.current!)).toBe(total(holdings.map((holding) => holding.value)));
        expect((await provider.refreshBalance(credential, account.remoteId)).current).toBe(account.balance.current);
      }
    }
  });

  it('follows the holder’s signs: buys bring units and cost cash (fees included), sales the reverse, income adds cash, fees take it', async () => {
    const { snapshot } = await snapshotOf('ins_first_platypus', SEEDS[0]!);
    const transactions = snapshot.transactions!;
    const ofType = (type: string) => transactions.filter((transaction) => transaction.type === type);
    for (const type of ['BUY', 'SELL', 'DIVIDEND', 'INTEREST', 'CASH', 'OTHER']) expect({ type, seen: ofType(type).length > 0 }).toEqual({ type, seen: true });
    for (const buy of ofType('BUY')) {
      expect(exact(buy.quantity) > 0n).toBe(true);
      expect(exact(buy.amount)).toBe(-(valueOf(buy) + exact(buy.fees ?? '0')));
    }
    for (const sale of ofType('SELL')) expect([exact(sale.quantity) < 0n, exact(sale.amount) > 0n]).toEqual([true, true]);
    for (const income of [...ofType('DIVIDEND'), ...ofType('INTEREST')]) expect(exact(income.amount) > 0n).toBe(true);
    expect(ofType('BUY').some((buy) => buy.securityRemoteId === 'BTC' && exact(buy.fees!) > 0n)).toBe(true);
    const { snapshot: retirement } = await snapshotOf('ins_quokka_invest', SEEDS[0]!);
    const fees = retirement.transactions!.filter((transaction) => transaction.type === 'FEE');
    expect(fees.length).toBeGreaterThan(12);
    expect(fees.every((fee) => exact(fee.amount) < 0n && fee.securityRemoteId === null)).toBe(true);
  });

  it('reports contributions and dividends with the dates and amounts of the account’s own transactions', async () => {
    const { provider, credential, snapshot } = await snapshotOf('ins_quokka_invest', SEEDS[1]!);
    const cash = (await syncedTransactions(provider, credential)).filter((transaction) => transaction.status === 'POSTED');
    const incoming = snapshot.transactions!.filter((transaction) => transaction.subtype === 'contribution' || transaction.type === 'DIVIDEND');
    const key = (transaction: { accountRemoteId: string; date: string; amount: string }) => `${transaction.accountRemoteId} ${transaction.date} ${transaction.amount}`;
    expect(incoming.map(key).sort()).toEqual(cash.map(key).sort());
  });

  it('splits NVDA two for one inside every two-year history, without a jump in the position’s value', async () => {
    for (const seed of SEEDS) {
      const { provider, credential, snapshot } = await snapshotOf('ins_first_platypus', seed);
      const split = snapshot.transactions!.find((transaction) => transaction.subtype === 'stock split')!;
      expect(split).toMatchObject({ type: 'OTHER', securityRemoteId: 'NVDA', amount: '0.00' });
      const daysBefore = Math.floor((LINKED - Date.parse(split.date)) / DAY);
      const nvdaOn = async (days: number) => {
        const older = new SandboxProvider({ now: () => new Date(LINKED - days * DAY) });
        return (await older.investments!(credential, split.date)).holdings.find((holding) => holding.securityRemoteId === 'NVDA')!;
      };
      const [before, after] = [await nvdaOn(daysBefore + 1), await nvdaOn(daysBefore)];
      const sameDay = snapshot.transactions!.filter((transaction) => transaction.date === split.date && transaction.securityRemoteId === 'NVDA');
      expect(exact(split.quantity)).toBe(exact(before.quantity));
      expect(exact(after.quantity)).toBe(exact(before.quantity) + total(sameDay.map((transaction) => transaction.quantity)));
      // A day's move is at most about 5 %: a split that forgot to halve the price would double the value.
      const ratio = Number(after.value) / Number(before.value);
      expect({ seed, ratio: ratio > 0.9 && ratio < 1.1 }).toEqual({ seed, ratio: true });
      expect(provider.capabilities.has('INVESTMENT_TRANSACTIONS')).toBe(true);
    }
  });

  it('keeps bitcoin’s eight fraction digits exact from purchase to holding', async () => {
    const { snapshot } = await snapshotOf('ins_first_platypus', SEEDS[2]!);
    const bitcoin = snapshot.holdings.find((holding) => holding.securityRemoteId === 'BTC')!;
    expect(bitcoin.quantity).toMatch(/^\d+\.\d{8}$/);
    // Digits past the sixth are in use: nothing rounded the quantity on its way.
    expect(exact(bitcoin.quantity) % 10n ** 4n).not.toBe(0n);
    expect(exact(bitcoin.value)).toBe(valueOf(bitcoin));
    const bought = snapshot.transactions!.filter((transaction) => transaction.securityRemoteId === 'BTC');
    expect(bought.every((transaction) => /^-?\d+\.\d{8}$/.test(transaction.quantity))).toBe(true);
  });

  it('describes its securities with valid public identifiers, every type the interface names but derivatives', async () => {
    const { snapshot } = await snapshotOf('ins_first_platypus', SEEDS[0]!);
    expect(snapshot.securities.map((security) => security.remoteId).sort()).toEqual([...new Set(snapshot.holdings.map((holding) => holding.securityRemoteId).concat(snapshot.transactions!.flatMap((transaction) => transaction.securityRemoteId ?? [])))].sort());
    const types = new Set(Object.values(SECURITIES).map((security) => security.type));
    expect(SECURITY_TYPES.filter((type) => !types.has(type))).toEqual(['DERIVATIVE', 'OTHER']);
    for (const security of Object.values(SECURITIES)) {
      if (security.cusip === null) continue;
      expect({ ticker: security.tickerSymbol, cusip: cusipValid(security.cusip), isin: security.isin === `US${security.cusip}${isinCheckDigit(`US${security.cusip}`)}` }).toEqual({ ticker: security.tickerSymbol, cusip: true, isin: true });
    }
    for (const security of snapshot.securities) expect(security).toMatchObject({ closePrice: expect.stringMatching(/^\d+\.\d{2}$/), closePriceDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), currencyCode: 'USD' });
  });

  it('reports the same snapshot for the same login and day, and never changes past activity as days pass', async () => {
    for (const institutionId of INVESTING) {
      const today = await snapshotOf(institutionId, SEEDS[3]!);
      expect((await snapshotOf(institutionId, SEEDS[3]!)).snapshot).toEqual(today.snapshot);
      const later = await snapshotOf(institutionId, SEEDS[3]!, 30);
      expect(later.snapshot.transactions!.filter((transaction) => transaction.date <= today.snapshot.end)).toEqual(today.snapshot.transactions);
      expect(later.snapshot.transactions!.length).toBeGreaterThan(today.snapshot.transactions!.length);
    }
  });

  it('reports activity from the start asked for, and nothing at an institution without investment accounts', async () => {
    const { provider, credential, snapshot } = await snapshotOf('ins_quokka_invest', SEEDS[4]!);
    const window = await provider.investments!(credential, '2026-01-01');
    expect(window).toMatchObject({ start: '2026-01-01', end: snapshot.end, holdings: snapshot.holdings });
    expect(window.transactions).toEqual(snapshot.transactions!.filter((transaction) => transaction.date >= '2026-01-01'));
    const bank = await sandboxAt('ins_houndstooth', SEEDS[4]!, LINKED);
    expect(await bank.provider.investments!(bank.credential, '2026-01-01')).toMatchObject({ securities: [], holdings: [], transactions: [] });
  });
});

/** CUSIP's check digit: letters count 10 up, every second character doubled, digits of the products summed. */
function cusipValid(cusip: string): boolean {
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const character = cusip[i]!;
    let value = /\d/.test(character) ? Number(character) : character.charCodeAt(0) - 55;
    if (i % 2 === 1) value *= 2;
    sum += Math.floor(value / 10) + (value % 10);
  }
  return (10 - (sum % 10)) % 10 === Number(cusip[8]);
}

/** ISIN's check digit: letters to their numbers (A = 10), then Luhn over the digits. */
function isinCheckDigit(body: string): number {
  const digits = [...body].map((character) => (/\d/.test(character) ? character : String(character.charCodeAt(0) - 55))).join('');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let value = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) value *= 2;
    sum += Math.floor(value / 10) + (value % 10);
  }
  return (10 - (sum % 10)) % 10;
}
