/** The accounts every fake bridge user holds, with transactions. */
export type AccountKey = 'checking' | 'savings' | 'card';

/** A financial institution the bridge reaches (a v1 `org`, a v2 connection's `org_*`). */
export interface OrgTemplate {
  key: 'bank' | 'card' | 'broker';
  name: string;
  domain: string;
}

export const ORGS: Record<OrgTemplate['key'], OrgTemplate> = {
  bank: { key: 'bank', name: 'Riverbend Federal Credit Union', domain: 'riverbendfcu.example' },
  card: { key: 'card', name: 'Meridian Card Services', domain: 'meridiancard.example' },
  broker: { key: 'broker', name: 'Summit Brokerage', domain: 'summitbrokerage.example' },
};

/** One account, with its balance when the user is created, in cents and SimpleFIN's signs (owed is negative). */
export interface AccountTemplate {
  key: AccountKey | 'brokerage';
  name: string;
  /** Where the account lives when the user has two orgs; with one org every account is at the bank. */
  org: OrgTemplate['key'];
  balanceAtStart: number;
  /** Credit limit of a card: its available balance is the credit left. */
  limit: number | null;
}

export const ACCOUNTS: readonly AccountTemplate[] = [
  { key: 'checking', name: 'Everyday Checking', org: 'bank', balanceAtStart: 2_410_35, limit: null },
  { key: 'savings', name: 'High Yield Savings', org: 'bank', balanceAtStart: 21_035_50, limit: null },
  { key: 'card', name: 'Rewards Visa Signature', org: 'card', balanceAtStart: -1_240_18, limit: 10_000_00 },
];

/** The brokerage account a user may also hold (`createSetupToken({ brokerage: true })`): cash and positions, no transactions. */
export const BROKERAGE: AccountTemplate = { key: 'brokerage', name: 'Individual Brokerage', org: 'broker', balanceAtStart: 1_204_75, limit: null };
