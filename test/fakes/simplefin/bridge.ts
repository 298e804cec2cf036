import { createHash } from 'node:crypto';
import type { BudgetPolicy } from './budget.ts';
import { FakeConnection } from './connection.ts';

/** An Access URL's credentials and what they reach. */
export interface AccessToken {
  username: string;
  password: string;
  connection: FakeConnection;
  /** The user disabled the token (`revoke`): 403 from then on. */
  revoked: boolean;
  /** The bridge disabled the token for asking too often: 403 from then on. */
  disabled: boolean;
  /** Bridge-clock times of the requests of the last 24 hours, oldest first. */
  requestTimes: number[];
}

interface SetupToken {
  connection: FakeConnection;
  username: string;
  password: string;
  claimed: boolean;
}

export interface BridgeSetup {
  seed: string;
  now: number;
  transactionCount: number;
  budget: BudgetPolicy;
}

/** The bridge's state: its clock (unix seconds), the users' data, setup tokens and access tokens. */
export class FakeBridge {
  now: number;
  budget: BudgetPolicy;
  readonly connections = new Map<string, FakeConnection>();
  readonly accessTokens: AccessToken[] = [];
  readonly #setupTokens = new Map<string, SetupToken>();
  readonly #seed: string;
  readonly #transactionCount: number;
  #serial = 0;

  constructor(setup: BridgeSetup) {
    this.#seed = setup.seed;
    this.now = setup.now;
    this.budget = setup.budget;
    this.#transactionCount = setup.transactionCount;
  }

  connection(id: string): FakeConnection {
    const connection = this.connections.get(id);
    if (!connection) throw new Error(`the fake bridge has no connection ${id}`);
    return connection;
  }

  /** A one-time claim code for `connection` (a new user's data unless given), and the credentials its claim hands out. */
  createSetupToken(options: { connectionId?: string; orgs?: 1 | 2; brokerage?: boolean; username?: string; password?: string }): { code: string; connection: FakeConnection } {
    const serial = this.#serial++;
    const connection = options.connectionId === undefined ? this.#createConnection(options.orgs ?? 2, options.brokerage ?? false) : this.connection(options.connectionId);
    const code = this.#secret('claim', serial);
    this.#setupTokens.set(code, { connection, username: options.username ?? this.#secret('username', serial), password: options.password ?? this.#secret('password', serial), claimed: false });
    return { code, connection };
  }

  /** Claims a setup token once; null when the code is unknown or already claimed. */
  claim(code: string): AccessToken | null {
    const setup = this.#setupTokens.get(code);
    if (!setup || setup.claimed) return null;
    setup.claimed = true;
    const token: AccessToken = { username: setup.username, password: setup.password, connection: setup.connection, revoked: false, disabled: false, requestTimes: [] };
    this.accessTokens.push(token);
    return token;
  }

  authenticate(username: string, password: string): AccessToken | undefined {
    return this.accessTokens.find((token) => token.username === username && token.password === password);
  }

  #createConnection(orgs: 1 | 2, brokerage: boolean): FakeConnection {
    const connection = new FakeConnection({ seed: this.#seed, index: this.connections.size, now: this.now, transactionCount: this.#transactionCount, orgs, brokerage });
    this.connections.set(connection.id, connection);
    return connection;
  }

  #secret(kind: string, serial: number): string {
    return createHash('sha256').update(`${this.#seed}\u0000${kind}\u0000${serial}`).digest('hex');
  }
}
