import { generateKeyPairSync } from 'node:crypto';
import { request } from 'node:https';
import { FakeWorld, type AccountHolder, type AccountSpec, type BankBehaviour, type FakeBank, type FakeEntry } from './bank.ts';
import type { Transaction } from './reference.ts';
import { FakeEnableBankingServer, type RequestRecord } from './server.ts';

export type { BankBehaviour, FakeBank, FakeEntry } from './bank.ts';
export type { RequestRecord } from './server.ts';
export type { Transaction } from './reference.ts';

const DAY_MS = 86_400_000;

export interface FakeEnableBankingOptions {
  /** The fake's date when it starts; its clock stands at 12:00 UTC that day until `advance`. Default: the real clock. */
  today?: string;
  /** Transactions per page (small, so paging is exercised). Default 3. */
  pageSize?: number;
  tls?: { cert: string; key: string };
}

/** A purchase, transfer or salary as a test describes it; the fake fills in the rest as a bank would. */
export interface EntrySpec {
  /** A decimal as EB's reference allows it (`^-?\d+(\.\d+)?$`: a bank may sign debits, and give any decimals), e.g. `"12.50"`. */
  amount: string;
  /** The entry's currency as the bank reports it; default the account's. */
  currency?: string;
  direction?: 'CRDT' | 'DBIT';
  /** The creditor of a debit or the debtor of a credit. */
  counterpart?: string;
  remittance?: string[];
  /** Default `BOOK`. */
  status?: Transaction['status'];
  /** The day it happened; default the fake's today. */
  date?: string;
  /** Paid in another currency: that amount and currency (e.g. a card payment in USD). */
  instructed?: { amount: string; currency: string; rate: string };
}

/** A running fake Enable Banking: its address, the certificate to trust, and the controls a test drives it with. */
export type FakeEnableBanking = Awaited<ReturnType<typeof startFakeEnableBanking>>;

/**
 * Starts a stateful fake of Enable Banking's API over HTTPS on 127.0.0.1, in this process, with two
 * banks (Finland: a EUR current account; Sweden: a SEK current account and a SEK card with a USD card
 * payment). A test registers an application (its key pair), starts an authorization, requests the
 * sign-in page's Approve link (which redirects with a code), and reads like a real client.
 */
export async function startFakeEnableBanking(options: FakeEnableBankingOptions = {}) {
  const world = new FakeWorld(options.today ? Date.parse(`${options.today}T12:00:00Z`) : null);
  let pageSize = options.pageSize ?? 3;
  const server = new FakeEnableBankingServer(world, () => pageSize);
  const { url, ca } = await server.start(options.tls);
  const day = (offset: number) => new Date(world.now + offset * DAY_MS).toISOString().slice(0, 10);

  const addEntry = (bank: FakeBank, accountKey: string, spec: EntrySpec): FakeEntry => {
    const account = bank.accounts.find((candidate) => candidate.key === accountKey);
    if (!account) throw new Error(`${bank.name} has no account ${accountKey}`);
    const direction = spec.direction ?? 'DBIT';
    const status = spec.status ?? 'BOOK';
    const date = spec.date ?? world.today();
    const party = spec.counterpart ? { name: spec.counterpart } : undefined;
    return world.addEntry(bank, accountKey, {
      transaction_amount: { currency: spec.currency ?? account.currency, amount: spec.amount },
      credit_debit_indicator: direction,
      status,
      ...(direction === 'DBIT' ? { creditor: party } : { debtor: party }),
      ...(status === 'BOOK' ? { booking_date: date, value_date: date } : { value_date: date }),
      transaction_date: date,
      ...(spec.remittance ? { remittance_information: spec.remittance } : {}),
      ...(spec.instructed ? { exchange_rate: { unit_currency: spec.instructed.currency, exchange_rate: spec.instructed.rate, rate_type: 'SALE' as const, instructed_amount: { amount: spec.instructed.amount, currency: spec.instructed.currency } } } : {}),
    });
  };

  const finland = world.addBank('Fake Bank Suomi', 'FI', {}, [{ key: 'current', currency: 'EUR', opening: '2500.00' }]);
  addEntry(finland, 'current', { amount: '3200.00', direction: 'CRDT', counterpart: 'Employer Oy', remittance: ['Salary'], date: day(-20) });
  addEntry(finland, 'current', { amount: '950.00', counterpart: 'Vuokranantaja Oy', remittance: ['Rent'], date: day(-18) });
  addEntry(finland, 'current', { amount: '42.17', counterpart: 'K-Market', remittance: ['K-Market Kamppi'], date: day(-9) });
  addEntry(finland, 'current', { amount: '12.90', counterpart: 'Spotify', remittance: ['Spotify P1A2B3'], date: day(-5) });
  addEntry(finland, 'current', { amount: '8.40', counterpart: 'Cafe Regatta', remittance: ['CARD 1234 Cafe Regatta'], status: 'PDNG', date: day(0) });
  const sweden = world.addBank('Fake Bank Sverige', 'SE', {}, [
    { key: 'current', currency: 'SEK', opening: '15000.00' },
    { key: 'card', currency: 'SEK', cashAccountType: 'CARD', product: 'Kreditkort', creditLimit: '20000.00' },
  ]);
  addEntry(sweden, 'current', { amount: '28500.00', direction: 'CRDT', counterpart: 'Arbetsgivare AB', remittance: ['Lön'], date: day(-15) });
  addEntry(sweden, 'current', { amount: '349.00', counterpart: 'ICA Maxi', remittance: ['ICA MAXI STOCKHOLM'], date: day(-3) });
  addEntry(sweden, 'card', { amount: '1043.75', counterpart: 'Amazon.com', remittance: ['AMAZON.COM SEATTLE'], date: day(-2), instructed: { amount: '99.00', currency: 'USD', rate: '10.5429' } });

  return {
    /** Origin of the fake API (`https://127.0.0.1:<port>`): the adapter's base URL. */
    url,
    ca,
    requests: server.requests as readonly RequestRecord[],
    /** Every distinct application token (Authorization header) that verified. */
    tokensSeen: server.tokensSeen as ReadonlySet<string>,
    finland,
    sweden,

    now: () => world.now,
    today: () => world.today(),
    /** Moves the fake's clock (fractions allowed). */
    advance(days: number): void {
      world.advance(Math.round(days * DAY_MS));
    },

    /** A new application with its key pair, allowed to send end-users back to `redirectUrls`. */
    registerApplication(redirectUrls: string[]): { applicationId: string; privateKeyPem: string } {
      const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const applicationId = crypto.randomUUID();
      server.applications.set(applicationId, { kid: applicationId, publicKey, redirectUrls });
      return { applicationId, privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
    },

    /** A bank of its own for a test (behaviours switched per bank), with accounts and no entries. */
    addBank(name: string, country: string, accounts: AccountSpec[], behaviour: Partial<BankBehaviour> = {}): FakeBank {
      return world.addBank(name, country, behaviour, accounts);
    },

    /** Switches a bank's behaviours from now on. */
    setBehaviour(bank: FakeBank, behaviour: Partial<BankBehaviour>): void {
      Object.assign(bank.behaviour, behaviour);
    },

    /** What the bank says of an account's holder from now on: its `name`, the end-user's `psu_status`, the holder's `postal_address`. */
    setHolder(bank: FakeBank, accountKey: string, holder: AccountHolder): void {
      const account = bank.accounts.find((candidate) => candidate.key === accountKey);
      if (!account) throw new Error(`${bank.name} has no account ${accountKey}`);
      account.holder = structuredClone(holder);
    },

    addEntry,

    /** A pending entry books today (the bank decides its new reference); `changes` alter it as banks do (e.g. another remittance text). */
    book(bank: FakeBank, entry: FakeEntry, changes: Partial<Transaction> = {}): FakeEntry {
      return world.book(bank, entry.handle, changes);
    },

    /** The entries of an account as the bank holds them (references included, whatever it serves). */
    entries(bank: FakeBank, accountKey: string): Transaction[] {
      return (bank.accounts.find((account) => account.key === accountKey)?.entries ?? []).map((entry) => structuredClone(entry.transaction));
    },

    /** The uids a session gives each account key. */
    sessionAccounts(sessionId: string): Map<string, string> {
      const session = world.sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      return new Map([...session.uids].map(([uid, key]) => [key, uid]));
    },

    /** The sessions opened at a bank, oldest first, with the end of their consent (epoch milliseconds). */
    sessionsAt(bank: FakeBank): { id: string; validUntil: number }[] {
      return [...world.sessions.values()].filter((session) => session.bank === bank).map((session) => ({ id: session.id, validUntil: session.validUntil }));
    },

    /** Whether a session is still open (not deleted by the client). */
    sessionStatus(sessionId: string): 'AUTHORIZED' | 'CLOSED' | undefined {
      return world.sessions.get(sessionId)?.status;
    },

    /** The consent of a session ends now (as at its `valid_until`). */
    expireSession(sessionId: string): void {
      const session = world.sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      session.validUntil = world.now;
    },

    setPageSize(size: number): void {
      pageSize = size;
    },

    /** The end-user at the bank's sign-in page (`signInUrl`, from POST /auth) presses `button`: where the bank sends them back. */
    async atBank(signInUrl: string, button: 'approve' | 'cancel' | 'error'): Promise<URL> {
      const page = await get(signInUrl, ca);
      const href = new RegExp(`id="${button}" role="button" href="([^"]+)"`).exec(page.text)?.[1];
      if (page.status !== 200 || !href) throw new Error(`the sign-in page ${signInUrl} answered ${page.status} without the ${button} link`);
      const back = await get(new URL(href.replaceAll('&amp;', '&'), signInUrl).toString(), ca);
      if (back.status !== 302 || !back.location) throw new Error(`the ${button} link answered ${back.status}, not a redirect`);
      return new URL(back.location);
    },

    stop: () => server.stop(),
  };
}

function get(url: string, ca: string): Promise<{ status: number; location: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    request(url, { ca }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, location: response.headers.location, text: Buffer.concat(chunks).toString('utf8') }));
    })
      .on('error', reject)
      .end();
  });
}
