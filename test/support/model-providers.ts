import {
  NotOffered,
  WebhookUnverified,
  type CursorProvider,
  type LinkedLogin,
  type LinkSession,
  type ProviderAccount,
  type ProviderBalance,
  type SyncPage,
  type WindowProvider,
  type WindowSnapshot,
} from '../../src/providers/provider.ts';
import type { BankCommand, ModelInstitution } from './model-institution.ts';

/**
 * Something that happens to the next sync before its transactions request number `beforeRequest`
 * (0: the first page or the window): the worker dies (a plain Error, as a killed process looks to
 * the job), or the bank changes under a cursor walk (the next page then asks for a restart).
 */
export type Disruption = { beforeRequest: number; kind: 'crash' } | { beforeRequest: number; kind: 'change'; change: BankCommand };

/** The error a disrupted sync dies with. */
export class WorkerKilled extends Error {}

/** The login a connection to the model bank stores. */
export function modelLogin(): LinkedLogin {
  return { credential: 'model-login', remoteId: null, institution: { id: 'model_bank', name: 'Model Bank' }, products: ['TRANSACTIONS', 'BALANCES'] };
}

/** What both model providers share: accounts from the model, disruptions, nothing else offered. */
abstract class ModelProvider {
  readonly name = 'model';
  readonly capabilities = new Set<never>();
  readonly model: ModelInstitution;
  #disruption: Disruption | null = null;
  #requests = 0;
  /** Whether the last disruption happened (a walk shorter than `beforeRequest` never meets it). */
  disrupted = false;

  constructor(model: ModelInstitution) {
    this.model = model;
  }

  /** Arms a disruption for the next transactions requests (null: none). */
  disrupt(disruption: Disruption | null): void {
    this.#disruption = disruption;
    this.#requests = 0;
    this.disrupted = false;
  }

  protected beforeRequest(): void {
    const disruption = this.#disruption;
    if (!disruption || this.#requests++ !== disruption.beforeRequest) return;
    this.#disruption = null;
    this.disrupted = true;
    if (disruption.kind === 'crash') throw new WorkerKilled(`worker killed before transactions request ${disruption.beforeRequest}`);
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
    this.beforeRequest();
    return this.model.page(cursor);
  }
}

/** The model read like SimpleFIN: every transaction from `start` until the bank's today, pending included, unlinked. */
export class ModelWindowProvider extends ModelProvider implements WindowProvider {
  readonly syncStyle = 'WINDOW';

  async readWindow(_credential: string, start: string): Promise<WindowSnapshot> {
    this.beforeRequest();
    return {
      start,
      end: this.model.today,
      accounts: structuredClone(this.model.accounts),
      transactions: this.model
        .view()
        .filter((transaction) => transaction.date >= start)
        .map((transaction) => this.model.present(transaction)),
      attention: null,
    };
  }
}
