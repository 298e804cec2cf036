import { describe, expect, it } from 'vitest';
import { dayOf, HISTORY_DAYS, Household, type AccountRole, type Movement } from '../../src/providers/sandbox/household.ts';
import { SANDBOX_INSTITUTIONS, type SandboxInstitution } from '../../src/providers/sandbox/institutions.ts';
import { SandboxProvider } from '../../src/providers/sandbox/sandbox-provider.ts';
import { householdOf, visibleVersion } from '../../src/providers/sandbox/transactions.ts';
import { ActivityGenerator as PlaidActivity } from '../fakes/plaid/activity.ts';
import { ActivityGenerator as SimplefinActivity, DAY } from '../fakes/simplefin/activity.ts';

const SEEDS = ['5f1c9a0be3d24417', '0a9e77c1d6b85f20', 'c3b8e0f4a1279d56', '9d20f6e8b4c13a77', 'e71a4c0d93f2b858'];
const FIRST_DAY = dayOf(Date.UTC(2024, 0, 1));
/** Two years of history and a year beyond. */
const DAYS = HISTORY_DAYS + 365;
/** Past this many days after posting, what the sandbox reports of a movement no longer changes (corrections, reversals). */
const SETTLED_AFTER_DAYS = 30;

/** The account's posted balance at the end of each day, as the sandbox reports it (opening balance plus posted transactions). */
function dailyBalances(seed: string, institution: SandboxInstitution, account: AccountRole): number[] {
  const household = householdOf(seed, institution, FIRST_DAY);
  const postedOn = (movement: Movement, day: number) => {
    const version = visibleVersion(seed, movement, day);
    return version?.status === 'POSTED' ? version.cents : 0;
  };
  let settled = household.opening(account);
  let recent: Movement[] = [];
  const balances: number[] = [];
  for (let day = FIRST_DAY; day < FIRST_DAY + DAYS; day++) {
    recent.push(...household.on(day).filter((movement) => movement.account === account));
    for (const movement of recent) if (movement.postDay + SETTLED_AFTER_DAYS < day) settled += postedOn(movement, day);
    recent = recent.filter((movement) => movement.postDay + SETTLED_AFTER_DAYS >= day);
    balances.push(recent.reduce((sum, movement) => sum + postedOn(movement, day), settled));
  }
  return balances;
}

const holding = (account: AccountRole) => SANDBOX_INSTITUTIONS.filter((institution) => institution.accounts.some((template) => template.key === account));

describe('the synthetic household', () => {
  it.each(holding('checking').map((institution) => [institution.id, institution] as const))('keeps checking in credit, without piling up a fortune, at %s over two years of history and a year beyond', (_id, institution) => {
    for (const seed of SEEDS) {
      const balances = dailyBalances(seed, institution, 'checking');
      const lowest = Math.min(...balances);
      expect({ seed, lowest: lowest > 0 }).toEqual({ seed, lowest: true });
      // Pay covers spending with a modest margin: checking neither drains nor piles up a fortune.
      expect(balances.at(-1)! - balances[0]!).toBeLessThan(householdOf(seed, institution, FIRST_DAY).monthlyOutflow * 12);
    }
  });

  it.each(holding('card').map((institution) => [institution.id, institution] as const))('keeps the card within its credit limit at %s, whatever the household spends', (_id, institution) => {
    // Forty households: a limit drawn apart from spending left about one in twenty over it.
    for (const seed of Array.from({ length: 40 }, (_, i) => ((i + 1) * 2_654_435_761 >>> 0).toString(16).padStart(16, '0'))) {
      const owedMost = -Math.min(...dailyBalances(seed, institution, 'card'));
      expect({ seed, within: owedMost < householdOf(seed, institution, FIRST_DAY).creditLimit }).toEqual({ seed, within: true });
    }
  });

  it.each(holding('savings').map((institution) => [institution.id, institution] as const))('grows savings every year at %s', (_id, institution) => {
    for (const seed of SEEDS) {
      const balances = dailyBalances(seed, institution, 'savings');
      const yearEnds = [0, 365, 730, DAYS - 1].map((index) => balances[index]!);
      expect({ seed, growing: yearEnds.every((balance, i) => i === 0 || balance > yearEnds[i - 1]!) }).toEqual({ seed, growing: true });
    }
  });

  it('reports a fresh First Platypus connection, and the same one a year later, with checking in credit', async () => {
    const linkedAt = new Date();
    const sandbox = new SandboxProvider({ now: () => linkedAt });
    const { credential } = await sandbox.completeLink({ institutionId: 'ins_first_platypus', username: 'user_good', password: 'pass_good', products: undefined, webhookUrl: '' });
    const yearLater = new SandboxProvider({ now: () => new Date(linkedAt.getTime() + 365 * 86_400_000) });
    for (const provider of [sandbox, yearLater]) {
      const checking = (await provider.accounts(credential)).find((account) => account.subtype === 'checking')!;
      expect(Number(checking.balance.current)).toBeGreaterThan(0);
      expect(Number(checking.balance.available)).toBeGreaterThan(0);
    }
  });

  it('moves the other accounts exactly as before when it also holds a student loan', () => {
    const others: AccountRole[] = ['checking', 'savings', 'card', 'loan', 'brokerage', 'retirement'];
    for (const seed of SEEDS) {
      const without = new Household(seed, { accounts: others, firstDay: FIRST_DAY });
      const withStudent = new Household(seed, { accounts: [...others, 'student'], firstDay: FIRST_DAY });
      for (let day = FIRST_DAY; day < FIRST_DAY + 400; day++) {
        const moves = withStudent.on(day);
        expect(moves.filter((movement) => movement.account !== 'student')).toEqual(without.on(day));
        if (new Date(day * 86_400_000).getUTCDate() === 25) expect(moves.filter((movement) => movement.account === 'student').map((movement) => Math.sign(movement.cents))).toEqual([1, -1]);
      }
    }
  });
});

describe('the fakes’ renderings of the household', () => {
  it('show the same purchases in their own units and signs: Plaid positive = money out in days, SimpleFIN positive = money in in seconds', () => {
    const day = FIRST_DAY + 100;
    const options = { firstDay: FIRST_DAY, purchasesPerDay: 2 };
    const plaid = new PlaidActivity('same', 0, options).extra(day, 20, 0, { account: 'credit' });
    const simplefin = new SimplefinActivity('same:0', options).extra(day * DAY + 43_200, 20, 0, { account: 'card' });
    expect(simplefin.map((activity) => [activity.counterparty.payee, -activity.cents])).toEqual(plaid.map((activity) => [activity.counterparty.name, activity.cents]));
    expect(plaid.filter((activity) => activity.cents > 0).length).toBeGreaterThan(15);
    expect(simplefin.every((activity) => Math.floor(activity.transactedAt! / DAY) === day)).toBe(true);
  });
});
