import { describe, expect, it } from 'vitest';
import type { ProviderLiability } from '../../src/providers/provider-liabilities.ts';
import type { ProviderAccount, ProviderTransaction } from '../../src/providers/provider-records.ts';
import { exact, SEEDS, sandboxAt, syncedTransactions } from '../support/sandbox-login.ts';

const LINKED = Date.UTC(2026, 2, 14, 12);
/** Days after linking to look at: before and after the card's due day (the 20th), a month later, a year later. */
const LATER = [0, 10, 40, 300];

async function liabilitiesOf(institutionId: string, seed: string, daysAfterLink: number) {
  const { provider, credential } = await sandboxAt(institutionId, seed, LINKED, daysAfterLink);
  const [liabilities, accounts, transactions] = [await provider.liabilities!(credential), await provider.accounts(credential), await syncedTransactions(provider, credential)];
  const posted = (account: ProviderAccount) => transactions.filter((transaction) => transaction.accountRemoteId === account.remoteId && transaction.status === 'POSTED');
  const of = (subtype: string) => {
    const account = accounts.find((candidate) => candidate.subtype === subtype)!;
    return { account, liability: liabilities.find((liability) => liability.accountRemoteId === account.remoteId)!, posted: posted(account) };
  };
  return { liabilities, accounts, of, today: new Date(LINKED + daysAfterLink * 86_400_000).toISOString().slice(0, 10) };
}

const total = (transactions: ProviderTransaction[]) => transactions.reduce((sum, transaction) => sum + exact(transaction.amount), 0n);
const latest = (transactions: ProviderTransaction[]) => transactions.reduce<ProviderTransaction | undefined>((last, transaction) => (!last || transaction.date >= last.date ? transaction : last), undefined);

describe('the sandbox’s liabilities', () => {
  it('reports one for every card and loan account, and none for the others', async () => {
    for (const institutionId of ['ins_first_platypus', 'ins_tattersall_fcu', 'ins_houndstooth', 'ins_quokka_invest', 'ins_wombat_lending']) {
      const { liabilities, accounts } = await liabilitiesOf(institutionId, SEEDS[0]!, 0);
      const owing = accounts.filter((account) => account.kind === 'CREDIT' || account.kind === 'LOAN');
      expect(liabilities.map((liability) => liability.accountRemoteId)).toEqual(owing.map((account) => account.remoteId));
    }
    const kinds = async (institutionId: string) => (await liabilitiesOf(institutionId, SEEDS[0]!, 0)).liabilities.map((liability) => liability.kind);
    expect([await kinds('ins_first_platypus'), await kinds('ins_tattersall_fcu'), await kinds('ins_wombat_lending')]).toEqual([['CREDIT', 'MORTGAGE'], ['CREDIT', 'AUTO'], ['STUDENT']]);
  });

  it('gives the card a statement that its transactions since explain, a minimum, a due date and the last payment', async () => {
    for (const seed of SEEDS) {
      for (const daysAfterLink of LATER) {
        const { of, today } = await liabilitiesOf('ins_first_platypus', seed, daysAfterLink);
        const { account, liability, posted } = of('credit card');
        const since = posted.filter((transaction) => transaction.date > liability.lastStatementDate!);
        const context = { seed, daysAfterLink };
        // The balance now is the statement's plus what posted after it closed.
        expect({ ...context, current: exact(account.balance.current!) }).toEqual({ ...context, current: exact(liability.lastStatementBalance!) + total(since) });
        expect(liability.lastStatementDate!.slice(8)).toMatch(/^(28|29|30|31)$/);
        expect(liability.lastStatementDate! < today && liability.nextPaymentDueDate! > liability.lastStatementDate!).toBe(true);
        const owed = -exact(liability.lastStatementBalance!);
        const minimum = -exact(liability.minimumPayment!);
        expect(minimum > 0n && minimum <= owed).toBe(true);
        const payment = latest(posted.filter((transaction) => transaction.description === 'AUTOMATIC PAYMENT - THANK YOU'))!;
        expect([liability.lastPaymentAmount, liability.lastPaymentDate]).toEqual([payment.amount, payment.date]);
        expect(exact(liability.lastPaymentAmount!) > 0n).toBe(true);
        // The household pays on the due day: overdue never, and paid at least the minimum once the day has passed.
        expect(liability.isOverdue).toBe(false);
        if (today > liability.nextPaymentDueDate!) expect(total(since.filter((transaction) => exact(transaction.amount) > 0n && transaction.description === 'AUTOMATIC PAYMENT - THANK YOU')) >= minimum).toBe(true);
        expect(liability.aprs.map((apr) => apr.type)).toEqual(['purchase_apr', 'cash_apr']);
        expect(liability.aprs[0]!.balanceSubjectToApr).toBe(liability.lastStatementBalance);
        expect(Number(liability.aprs[1]!.percentage)).toBeGreaterThan(Number(liability.aprs[0]!.percentage));
      }
    }
  });

  it('marks the card overdue when the due day passed without the minimum paid, and no longer once a statement is paid', async () => {
    // A week of history from 18 March: the February statement (the card's opening debt) fell due on
    // 20 March with nothing charged in February, so the household paid nothing.
    const linked = Date.UTC(2026, 2, 25, 12);
    for (const seed of SEEDS) {
      const card = async (daysAfterLink: number) => {
        const { provider, credential } = await sandboxAt('ins_houndstooth', seed, linked, daysAfterLink, 7);
        return (await provider.liabilities!(credential)).find((liability) => liability.kind === 'CREDIT')!;
      };
      const unpaid = await card(0);
      expect(unpaid).toMatchObject({ lastStatementDate: '2026-02-28', nextPaymentDueDate: '2026-03-20', lastPaymentAmount: null, isOverdue: true });
      expect(exact(unpaid.minimumPayment!) < 0n).toBe(true);
      const paid = await card(30);
      expect(paid).toMatchObject({ lastStatementDate: '2026-03-31', nextPaymentDueDate: '2026-04-20', lastPaymentDate: '2026-04-20', isOverdue: false });
      expect(exact(paid.lastPaymentAmount!) >= -exact(paid.minimumPayment!)).toBe(true);
    }
  });

  it.each([
    ['ins_first_platypus', 'mortgage'],
    ['ins_tattersall_fcu', 'auto'],
    ['ins_wombat_lending', 'student'],
  ])('gives the %s %s loan terms and a year-to-date its payments explain', async (institutionId, subtype) => {
    for (const seed of SEEDS) {
      for (const daysAfterLink of LATER) {
        const { of, today } = await liabilitiesOf(institutionId, seed, daysAfterLink);
        const { account, liability, posted } = of(subtype);
        const thisYear = posted.filter((transaction) => transaction.date >= `${today.slice(0, 4)}-01-01`);
        const interest = -total(thisYear.filter((transaction) => transaction.description === 'INTEREST CHARGED'));
        const context = { seed, daysAfterLink };
        expect({ ...context, interest: exact(liability.ytdInterestPaid!) }).toEqual({ ...context, interest });
        // The principal paid is what the balance came down by this year: payments less the interest charged.
        expect({ ...context, principal: exact(liability.ytdPrincipalPaid!) }).toEqual({ ...context, principal: total(thisYear) });
        const payment = latest(posted.filter((transaction) => transaction.description === 'PAYMENT RECEIVED - THANK YOU'))!;
        expect([liability.lastPaymentAmount, liability.lastPaymentDate]).toEqual([payment.amount, payment.date]);
        expect(liability.nextPaymentAmount).toBe(`-${payment.amount}`);
        expect(liability.nextPaymentDate! > today && liability.nextPaymentDate!.slice(8) === payment.date.slice(8)).toBe(true);
        expect(exact(liability.originationPrincipal!) < exact(account.balance.current!)).toBe(true);
        expect(liability.originationDate! < payment.date && liability.maturityDate! > today).toBe(true);
        // Card fields stay null on loans.
        expect(liability).toMatchObject({ interestRateType: subtype === 'student' ? 'VARIABLE' : 'FIXED', interestRatePercentage: expect.stringMatching(/^\d\.\d{3}$/), isOverdue: false, aprs: [], minimumPayment: null, nextPaymentDueDate: null, lastStatementBalance: null });
        expect(liability.escrowBalance === null).toBe(subtype !== 'mortgage');
      }
    }
  });

  it('reports the same details for the same login and day', async () => {
    const details = async () => (await liabilitiesOf('ins_first_platypus', SEEDS[2]!, 40)).liabilities;
    const first: ProviderLiability[] = await details();
    expect(await details()).toEqual(first);
  });
});
