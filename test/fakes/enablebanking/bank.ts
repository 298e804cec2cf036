import { createHash, randomUUID } from 'node:crypto';
import type { AccountResource, ASPSPData, BalanceResource, CashAccountType, Transaction } from './reference.ts';

const DAY_MS = 86_400_000;

/** How a fake bank behaves; each can be switched per bank, and changed by a test at any time. */
export interface BankBehaviour {
  /** Every new session gets new account uids (as many banks do on a re-consent). Default false. */
  reissueUids: boolean;
  /** Entries are served without `entry_reference`. Default false. */
  omitEntryReference: boolean;
  /** What a pending entry's reference becomes when it books: kept, a new one, or none. Default `new`. */
  bookedReference: 'same' | 'new' | 'none';
  /** Reads of one account's resource (details, balances, transactions) a UTC day without PSU headers; past it: 429. Null: no limit. Default 4. */
  unattendedReadsPerDay: number | null;
  /** Seconds a consent may last at this bank. Default 180 days. */
  maximumConsentValidity: number;
  /** The PSU headers that mark a read as the end-user's (`required_psu_headers`); all or none must be sent. Default the address and user agent. */
  requiredPsuHeaders: string[];
}

/** What the bank says of the account's holder and the end-user's relationship to it (the details' `name`, `psu_status`, `postal_address`). */
export type AccountHolder = Pick<AccountResource, 'name' | 'psu_status' | 'postal_address'>;

export interface AccountSpec {
  key: string;
  /** Default: the name `Alex Example` alone. */
  holder?: AccountHolder;
  currency: string;
  cashAccountType?: CashAccountType;
  product?: string;
  /** The balance before any entry, e.g. `"1000.00"`. */
  opening?: string;
  creditLimit?: string;
}

/** An account of the bank's one customer, and its entries in the order the bank reports them. */
export interface FakeAccount extends Required<Omit<AccountSpec, 'creditLimit'>> {
  creditLimit: string | null;
  iban: string;
  identificationHash: string;
  entries: FakeEntry[];
}

/** An entry with the fake's own handle (never served): tests name entries by it. */
export interface FakeEntry {
  handle: string;
  transaction: Transaction;
}

export interface FakeBank {
  name: string;
  country: string;
  bic: string;
  behaviour: BankBehaviour;
  accounts: FakeAccount[];
}

export interface FakeSession {
  id: string;
  /** The application that opened it: no other sees it. */
  kid: string;
  bank: FakeBank;
  status: 'AUTHORIZED' | 'CLOSED';
  validUntil: number;
  created: number;
  /** uid → the account's key. */
  uids: Map<string, string>;
}

export interface FakeAuthorization {
  id: string;
  kid: string;
  created: number;
  bank: FakeBank;
  state: string;
  redirectUrl: string;
  validUntil: number;
  /** Set when the end-user approved: the code the redirect carried, until it is used or expires. */
  code: string | null;
  codeIssuedAt: number;
}

/** The fake's world: banks with one customer each, authorizations, sessions, and its clock. */
export class FakeWorld {
  /** A fixed start (a test's `today`), or null: the fake follows the real clock (a service under test signs with it). */
  readonly #start: number | null;
  #offset = 0;
  readonly banks: FakeBank[] = [];
  readonly authorizations = new Map<string, FakeAuthorization>();
  readonly sessions = new Map<string, FakeSession>();
  readonly #reads = new Map<string, number>();
  readonly #stableUids = new Map<string, string>();
  #entryCount = 0;

  constructor(start: number | null) {
    this.#start = start;
  }

  get now(): number {
    return (this.#start ?? Date.now()) + this.#offset;
  }

  advance(ms: number): void {
    this.#offset += ms;
  }

  today(): string {
    return new Date(this.now).toISOString().slice(0, 10);
  }

  addBank(name: string, country: string, behaviour: Partial<BankBehaviour>, accounts: AccountSpec[]): FakeBank {
    const bank: FakeBank = {
      name,
      country,
      bic: `FAKE${country}HH`,
      behaviour: { reissueUids: false, omitEntryReference: false, bookedReference: 'new', unattendedReadsPerDay: 4, maximumConsentValidity: 180 * 86_400, requiredPsuHeaders: ['Psu-Ip-Address', 'Psu-User-Agent'], ...behaviour },
      accounts: [],
    };
    this.banks.push(bank);
    for (const spec of accounts) this.addAccount(bank, spec);
    return bank;
  }

  addAccount(bank: FakeBank, spec: AccountSpec): FakeAccount {
    const iban = ibanOf(bank, spec.key);
    const account: FakeAccount = {
      key: spec.key,
      currency: spec.currency,
      cashAccountType: spec.cashAccountType ?? 'CACC',
      product: spec.product ?? (spec.cashAccountType === 'CARD' ? 'Credit card' : 'Current account'),
      opening: spec.opening ?? '0.00',
      creditLimit: spec.creditLimit ?? null,
      holder: spec.holder ?? { name: 'Alex Example' },
      iban,
      identificationHash: createHash('sha256').update(`iban:${iban}`).digest('base64'),
      entries: [],
    };
    bank.accounts.push(account);
    return account;
  }

  bank(name: string, country: string): FakeBank | undefined {
    return this.banks.find((bank) => bank.name === name && bank.country === country);
  }

  aspspData(bank: FakeBank): ASPSPData {
    return {
      name: bank.name,
      country: bank.country,
      logo: `https://enablebanking.com/brands/${bank.country}/${encodeURIComponent(bank.name)}/`,
      psu_types: ['personal', 'business'],
      auth_methods: [{ name: 'redirect', psu_type: 'personal', approach: 'REDIRECT', hidden_method: false }],
      maximum_consent_validity: bank.behaviour.maximumConsentValidity,
      beta: false,
      bic: bank.bic,
      required_psu_headers: [...bank.behaviour.requiredPsuHeaders],
    };
  }

  /** A new entry made by the customer now (or on `date`), appended as the bank appends. */
  addEntry(bank: FakeBank, accountKey: string, entry: Omit<Transaction, 'entry_reference'> & { entry_reference?: string }): FakeEntry {
    const account = accountOf(bank, accountKey);
    const handle = `entry-${++this.#entryCount}`;
    const created: FakeEntry = { handle, transaction: { entry_reference: `ER${String(this.#entryCount).padStart(8, '0')}`, ...entry } };
    account.entries.push(created);
    return created;
  }

  /** A pending entry books today; its reference follows the bank's `bookedReference`. */
  book(bank: FakeBank, handle: string, changes: Partial<Transaction> = {}): FakeEntry {
    const entry = bank.accounts.flatMap((account) => account.entries).find((candidate) => candidate.handle === handle);
    if (!entry || entry.transaction.status !== 'PDNG') throw new Error(`${handle} is not a pending entry of ${bank.name}`);
    const reference = bank.behaviour.bookedReference === 'same' ? entry.transaction.entry_reference : bank.behaviour.bookedReference === 'new' ? `ER${String(++this.#entryCount).padStart(8, '0')}B` : undefined;
    const { entry_reference: _old, ...rest } = entry.transaction;
    entry.transaction = { ...rest, ...(reference ? { entry_reference: reference } : {}), status: 'BOOK', booking_date: this.today(), value_date: rest.value_date ?? this.today(), ...changes };
    return entry;
  }

  /** The entry as the bank serves it now. */
  served(bank: FakeBank, entry: FakeEntry): Transaction {
    if (!bank.behaviour.omitEntryReference) return structuredClone(entry.transaction);
    const { entry_reference: _omitted, ...rest } = entry.transaction;
    return structuredClone(rest);
  }

  /** A new authorized session over every account of the bank's customer. */
  openSession(bank: FakeBank, validUntil: number, kid: string): FakeSession {
    const uids = new Map<string, string>();
    for (const account of bank.accounts) {
      const stableKey = `${bank.country}|${bank.name}|${account.key}`;
      if (!this.#stableUids.has(stableKey)) this.#stableUids.set(stableKey, randomUUID());
      uids.set(bank.behaviour.reissueUids ? randomUUID() : this.#stableUids.get(stableKey)!, account.key);
    }
    const session: FakeSession = { id: randomUUID(), kid, bank, status: 'AUTHORIZED', validUntil, created: this.now, uids };
    this.sessions.set(session.id, session);
    return session;
  }

  /** Counts an unattended read of an account's resource; false once past the bank's daily limit. */
  countRead(bank: FakeBank, accountKey: string, resource: string): boolean {
    const limit = bank.behaviour.unattendedReadsPerDay;
    const key = `${bank.country}|${bank.name}|${accountKey}|${resource}|${this.today()}`;
    const count = (this.#reads.get(key) ?? 0) + 1;
    this.#reads.set(key, count);
    return limit === null || count <= limit;
  }

  details(account: FakeAccount, uid: string): AccountResource {
    return {
      account_id: { iban: account.iban },
      all_account_ids: [{ identification: account.iban, scheme_name: 'IBAN' }],
      // The holder's name (PII the adapter must not take for the account's name), the end-user's role and the holder's address.
      ...structuredClone(account.holder),
      cash_account_type: account.cashAccountType,
      product: account.product,
      currency: account.currency,
      ...(account.creditLimit ? { credit_limit: { currency: account.currency, amount: account.creditLimit } } : {}),
      uid,
      identification_hash: account.identificationHash,
      identification_hashes: [account.identificationHash],
    };
  }

  /**
   * Booked (closing and interim) and available balances from the opening and the entries, exact to
   * the most decimals any of its amounts has (at least 2). An entry's money is its amount without a
   * sign some banks add, in the direction of its `credit_debit_indicator`.
   */
  balances(account: FakeAccount): BalanceResource[] {
    const booked = account.entries.filter((entry) => entry.transaction.status === 'BOOK');
    const pending = account.entries.filter((entry) => entry.transaction.status === 'PDNG');
    const scale = Math.max(2, ...[account.opening, account.creditLimit ?? '', ...account.entries.map((entry) => entry.transaction.transaction_amount.amount)].map((amount) => amount.split('.')[1]?.length ?? 0));
    const units = (amount: string) => unitsOf(amount, scale);
    const moved = (entries: FakeEntry[]) => entries.reduce((total, entry) => total + signedUnits(entry.transaction, scale), 0n);
    const bookedUnits = units(account.opening) + moved(booked);
    const availableUnits = bookedUnits + moved(pending) + (account.creditLimit ? units(account.creditLimit) : 0n);
    const at = new Date(this.now).toISOString();
    const amount = (value: bigint) => ({ currency: account.currency, amount: decimal(value, scale) });
    return [
      { name: 'Closing booked', balance_amount: amount(bookedUnits - moved(booked.filter((entry) => entry.transaction.booking_date === this.today()))), balance_type: 'CLBD', reference_date: new Date(this.now - DAY_MS).toISOString().slice(0, 10) },
      { name: 'Interim booked', balance_amount: amount(bookedUnits), balance_type: 'ITBD', last_change_date_time: at },
      { name: 'Interim available', balance_amount: amount(availableUnits), balance_type: 'ITAV', last_change_date_time: at },
    ];
  }
}

export function accountOf(bank: FakeBank, key: string): FakeAccount {
  const account = bank.accounts.find((candidate) => candidate.key === key);
  if (!account) throw new Error(`${bank.name} has no account ${key}`);
  return account;
}

/** The day an entry counts for in a date filter: its booking day, else its value or transaction day. */
export function entryDay(transaction: Transaction): string {
  return transaction.booking_date ?? transaction.value_date ?? transaction.transaction_date ?? '';
}

function ibanOf(bank: FakeBank, key: string): string {
  const digits = BigInt(`0x${createHash('sha256').update(`${bank.country}|${bank.name}|${key}`).digest('hex').slice(0, 14)}`).toString().padStart(16, '0').slice(0, 16);
  return `${bank.country}00${digits}`;
}

function signedUnits(transaction: Transaction, scale: number): bigint {
  const value = unitsOf(transaction.transaction_amount.amount.replace(/^-/, ''), scale);
  return transaction.credit_debit_indicator === 'CRDT' ? value : -value;
}

/** A decimal amount as a whole number of 10^-scale units (`scale` at least its decimals). */
function unitsOf(amount: string, scale: number): bigint {
  const [whole = '0', fraction = ''] = amount.replace(/^-/, '').split('.');
  const value = BigInt(`${whole}${fraction.padEnd(scale, '0')}`);
  return amount.startsWith('-') ? -value : value;
}

function decimal(value: bigint, scale: number): string {
  const digits = (value < 0n ? -value : value).toString().padStart(scale + 1, '0');
  return `${value < 0n ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
