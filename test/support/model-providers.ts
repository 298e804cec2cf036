import type { Capability, CursorProvider, WindowProvider } from '../../src/providers/provider.ts';
import type { LinkedLogin, LinkSession } from '../../src/providers/link-flow.ts';
import { NotOffered, WebhookUnverified } from '../../src/providers/provider-errors.ts';
import type { InvestmentSnapshot } from '../../src/providers/provider-investments.ts';
import type { ProviderLiability } from '../../src/providers/provider-liabilities.ts';
import type { ProviderAccount, ProviderBalance, SyncPage, WindowSnapshot } from '../../src/providers/provider-records.ts';
import type { ModelBrokerage } from './model-brokerage.ts';
import type { BankCommand, BankView, ModelInstitution } from './model-institution.ts';

/**
 * Something that happens to the next sync once it has fetched page number `afterPage` (0: the first
 * page, or the window), before the page is applied: the worker dies (a plain Error, as a killed
 * process looks to the job), or the bank changes (a cursor walk's next page then asks for a
 * restart). A walk with fewer pages meets it at its last page, or for a change the one before.
 */
export type Disruption = { afterPage: number; kind: 'crash' } | { afterPage: number; kind: 'change'; change: BankCommand };

/** The error a disrupted sync dies with. */
export class WorkerKilled extends Error {}

/** The login a connection to the model bank stores. */
export function modelLogin(): LinkedLogin {
  return { credential: 'model-login', remoteId: null, institution: { id: 'model_bank', name: 'Model Bank' }, products: ['TRANSACTIONS', 'BALANCES'] };
}

/** What both model providers share: accounts from the model, disruptions, nothing else offered. */
abstract class ModelProvider {
  readonly name = 'model';
  readonly capabilities: ReadonlySet<Capability> = new Set<never>();
  readonly model: ModelInstitution;
  #disruption: Disruption | null = null;
  /** Whether the last disruption happened. */
  disrupted = false;
  /** The bank as the last complete read (a walk's last page, a window) found it. */
  lastRead: BankView | null = null;

  constructor(model: ModelInstitution) {
    this.model = model;
  }

  /** Arms a disruption for the next transactions requests (null: none). */
  disrupt(disruption: Disruption | null): void {
    this.#disruption = disruption;
    this.disrupted = false;
  }

  protected fetched(index: number, count: number): void {
    const disruption = this.#disruption;
    if (!disruption || index !== Math.min(disruption.afterPage, Math.max(0, count - (disruption.kind === 'change' ? 2 : 1)))) return;
    this.#disruption = null;
    this.disrupted = true;
    if (disruption.kind === 'crash') throw new WorkerKilled(`worker killed after fetching page ${index} of ${count}`);
    this.model.apply(disruption.change);
  }

  async accounts(): Promise<ProviderAccount[]> {
    return structuredClone(this.model.accounts);
  }

  async startLink(): Promise<LinkSession> {
    return { kind: 'CREDENTIALS', institutions: [] };
  }

  async completeLink(): Promise<LinkedLogin> {
    return modelLogin();
  }

  async refreshTransactions(): Promise<void> {}

  async refreshBalance(): Promise<ProviderBalance> {
    throw new NotOffered('BALANCE_REFRESH', this.name);
  }

  async accountNumbers(): Promise<{ number: string; routing: string }> {
    throw new NotOffered('ACCOUNT_NUMBERS', this.name);
  }

  async disconnect(): Promise<void> {}

  async receiveWebhook(): Promise<never> {
    throw new WebhookUnverified('the model bank sends no webhooks');
  }
}

/** The model read like Plaid: a change log walked with cursors, a few changes per page. */
export class ModelCursorProvider extends ModelProvider implements CursorProvider {
  readonly syncStyle = 'CURSOR';

  async syncTransactions(_credential: string, cursor: string | null): Promise<SyncPage> {
    const { page, index, count } = this.model.page(cursor);
    if (!page.hasMore) this.lastRead = this.model.snapshot();
    this.fetched(index, count);
    return page;
  }
}

/** The model read like SimpleFIN: every transaction from `start` until the bank's today, pending included, unlinked. */
export class ModelWindowProvider extends ModelProvider implements WindowProvider {
  readonly syncStyle = 'WINDOW';

  async readWindow(_credential: string, start: string): Promise<WindowSnapshot> {
    const snapshot = {
      start,
      end: this.model.today,
      accounts: structuredClone(this.model.accounts),
      transactions: this.model
        .view()
        .filter((transaction) => transaction.date >= start)
        .map((transaction) => this.model.present(transaction)),
      attention: null,
    };
    this.lastRead = this.model.snapshot();
    this.fetched(0, 1);
    return snapshot;
  }
}

/**
 * The model bank's cursor provider with a brokerage beside it: every account also holds investments
 * and owes on a line of credit. `crashIn` makes the next call of that step die (the worker killed
 * between the sync's steps: the investments step when it is 'liabilities').
 */
export class ModelInvestmentProvider extends ModelCursorProvider {
  override readonly capabilities: ReadonlySet<Capability> = new Set(['INVESTMENTS', 'INVESTMENT_TRANSACTIONS', 'LIABILITIES'] as const);
  readonly brokerage: ModelBrokerage;
  crashIn: 'investments' | 'liabilities' | null = null;
  /** The start the last investments read was asked for. */
  lastStart: string | null = null;

  constructor(model: ModelInstitution, brokerage: ModelBrokerage) {
    super(model);
    this.brokerage = brokerage;
  }

  async investments(_credential: string, start: string): Promise<InvestmentSnapshot> {
    this.#crash('investments');
    this.lastStart = start;
    return this.brokerage.snapshot(start);
  }

  async liabilities(): Promise<ProviderLiability[]> {
    this.#crash('liabilities');
    return this.brokerage.liabilities();
  }

  #crash(step: 'investments' | 'liabilities'): void {
    if (this.crashIn !== step) return;
    this.crashIn = null;
    throw new WorkerKilled(`worker killed in the ${step} step`);
  }
}
