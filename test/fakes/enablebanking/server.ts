import { randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { selfSignedLocalhost } from '../tls.ts';
import { verifyApplicationJwt } from './application-jwt.ts';
import { accountOf, entryDay, type FakeBank, type FakeSession, type FakeWorld } from './bank.ts';
import type { AuthorizeSessionResponse, ErrorCode, ErrorResponse, GetSessionResponse, HalTransactions, StartAuthorizationRequest, StartAuthorizationResponse } from './reference.ts';
import { signInPage } from './sign-in-page.ts';

/** One request the fake answered; tokens and codes never appear in it. */
export interface RequestRecord {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  /** EB's `error` code of a failed answer. */
  error: string | null;
  /** An account read with every PSU header its bank requires (the end-user is present). */
  psu: boolean;
  /** The PSU headers as sent (the end-user's address and user agent), null when absent. */
  psuIpAddress: string | null;
  psuUserAgent: string | null;
  /** Every PSU header sent, by lower-case name. */
  psuHeaders: Record<string, string>;
  /** The application whose token authenticated the request. */
  kid: string | null;
}

export interface Application {
  kid: string;
  publicKey: KeyObject;
  redirectUrls: string[];
}

interface Answer {
  status: number;
  body: object | string;
  headers?: Record<string, string>;
}

const MAX_BODY_BYTES = 64_000;
const CODE_MS = 10 * 60_000;
const AUTHORIZATION_MS = 60 * 60_000;
const TRANSACTION_PARAMS = new Set(['date_from', 'date_to', 'continuation_key', 'transaction_status', 'strategy']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** The PSU headers of EB's reference, in lower case, and the one whose form it fixes. */
const PSU_HEADERS = ['psu-ip-address', 'psu-user-agent', 'psu-referer', 'psu-accept', 'psu-accept-charset', 'psu-accept-encoding', 'psu-accept-language', 'psu-geo-location'];
const GEO_LOCATION = /^-?\d{1,2}\.\d{1,6},-?\d{1,3}\.\d{1,6}$/;

/** The HTTPS front of the fake Enable Banking API, and the banks' sign-in pages under `/bank/`. */
export class FakeEnableBankingServer {
  readonly requests: RequestRecord[] = [];
  readonly applications = new Map<string, Application>();
  /** Every distinct application token seen (their rotation is observable). */
  readonly tokensSeen = new Set<string>();
  readonly #world: FakeWorld;
  readonly #pageSize: () => number;
  readonly #continuations = new Map<string, { uid: string; from: string; to: string; status: string | null; offset: number }>();
  #server: Server | undefined;
  #origin = '';

  constructor(world: FakeWorld, pageSize: () => number) {
    this.#world = world;
    this.#pageSize = pageSize;
  }

  async start(tls?: { cert: string; key: string }): Promise<{ url: string; ca: string }> {
    const pems = tls ?? (await selfSignedLocalhost());
    this.#server = createServer({ cert: pems.cert, key: pems.key }, (request, response) => void this.#handle(request, response));
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.#origin = `https://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return { url: this.#origin, ca: pems.cert };
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async #handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', this.#origin);
    const query: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [name, value] of url.searchParams) if (name !== 'code' && name !== 'continuation_key') query[name] = value;
    const psuHeaders: Record<string, string> = {};
    for (const name of PSU_HEADERS) {
      const value = header(request, name);
      if (value !== undefined) psuHeaders[name] = value;
    }
    const record: RequestRecord = {
      method: request.method ?? 'GET',
      path: url.pathname,
      query,
      status: 0,
      error: null,
      psu: false,
      psuIpAddress: psuHeaders['psu-ip-address'] ?? null,
      psuUserAgent: psuHeaders['psu-user-agent'] ?? null,
      psuHeaders,
      kid: null,
    };
    this.requests.push(record);
    let answer: Answer;
    try {
      const body = await readBody(request);
      answer = url.pathname.startsWith('/bank/') ? this.#bankPage(request.method ?? 'GET', url) : await this.#api(request, url, body, record);
    } catch {
      answer = failed(400, 'WRONG_REQUEST_PARAMETERS', 'Request could not be read');
    }
    record.status = answer.status;
    if (typeof answer.body === 'object' && 'error' in answer.body) record.error = String((answer.body as ErrorResponse).error);
    const json = typeof answer.body === 'object';
    response
      .writeHead(answer.status, { 'Content-Type': json ? 'application/json' : 'text/html; charset=utf-8', ...answer.headers })
      .end(json ? JSON.stringify(answer.body) : answer.body);
  }

  async #api(request: IncomingMessage, url: URL, body: string, record: RequestRecord): Promise<Answer> {
    const keys = new Map([...this.applications].map(([kid, application]) => [kid, application.publicKey]));
    const verified = await verifyApplicationJwt(header(request, 'authorization'), keys, this.#world.now);
    if ('problem' in verified) return failed(401, 'UNAUTHORIZED_ACCESS', verified.problem);
    this.tokensSeen.add(header(request, 'authorization')!);
    const application = this.applications.get(verified.kid)!;
    record.kid = application.kid;
    const method = request.method ?? 'GET';
    const path = url.pathname;
    const only = (expected: string, then: () => Answer): Answer => (method === expected ? then() : { status: 405, body: { message: 'Method Not Allowed', code: 405 } });
    if (path === '/aspsps') return only('GET', () => this.#aspsps(url));
    if (path === '/application') return only('GET', () => ({ status: 200, body: { name: 'Tributary test', kid: application.kid, environment: 'SANDBOX', redirect_urls: application.redirectUrls, active: true, countries: [], services: ['AIS'] } }));
    if (path === '/auth') return only('POST', () => this.#startAuthorization(application, parseJson(body)));
    if (path === '/sessions') return only('POST', () => this.#authorizeSession(application, parseJson(body)));
    const sessionMatch = /^\/sessions\/([^/]+)$/.exec(path);
    if (sessionMatch) {
      const session = this.#world.sessions.get(decodeURIComponent(sessionMatch[1]!));
      if (!session || session.kid !== application.kid) return failed(404, 'SESSION_DOES_NOT_EXIST', 'Session does not exist');
      if (method === 'GET') return { status: 200, body: this.#sessionData(session) };
      if (method === 'DELETE') {
        session.status = 'CLOSED';
        return { status: 200, body: { message: 'OK' } };
      }
      return { status: 405, body: { message: 'Method Not Allowed', code: 405 } };
    }
    const accountMatch = /^\/accounts\/([^/]+)\/(details|balances|transactions)$/.exec(path);
    if (accountMatch) return only('GET', () => this.#account(application, decodeURIComponent(accountMatch[1]!), accountMatch[2]!, url, record));
    return failed(404, 'WRONG_REQUEST_PARAMETERS', 'Not Found');
  }

  #aspsps(url: URL): Answer {
    const country = url.searchParams.get('country');
    const psuType = url.searchParams.get('psu_type');
    if (psuType !== null && psuType !== 'personal' && psuType !== 'business') return failed(422, 'WRONG_REQUEST_PARAMETERS', 'psu_type must be personal or business');
    const aspsps = this.#world.banks.filter((bank) => country === null || bank.country === country).map((bank) => this.#world.aspspData(bank));
    return { status: 200, body: { aspsps } };
  }

  #startAuthorization(application: Application, input: unknown): Answer {
    const request = input as Partial<StartAuthorizationRequest> | null;
    if (!request || typeof request.state !== 'string' || typeof request.redirect_url !== 'string' || !request.aspsp || !request.access) {
      return failed(422, 'WRONG_REQUEST_PARAMETERS', 'access, aspsp, state and redirect_url are required');
    }
    if (request.psu_type !== undefined && request.psu_type !== 'personal' && request.psu_type !== 'business') return failed(422, 'WRONG_REQUEST_PARAMETERS', 'psu_type must be personal or business');
    const bank = this.#world.bank(String(request.aspsp.name), String(request.aspsp.country));
    if (!bank) return failed(422, 'WRONG_ASPSP_PROVIDED', 'No such ASPSP');
    if (!application.redirectUrls.includes(request.redirect_url)) return failed(422, 'REDIRECT_URI_NOT_ALLOWED', 'Redirect URI not allowed');
    const validUntil = rfc3339(request.access.valid_until);
    if (validUntil === null) return failed(422, 'WRONG_REQUEST_PARAMETERS', 'access.valid_until must be an RFC3339 date-time with a timezone');
    if (validUntil <= this.#world.now || validUntil > this.#world.now + bank.behaviour.maximumConsentValidity * 1000 + 60_000) {
      return failed(422, 'WRONG_REQUEST_PARAMETERS', 'access.valid_until must be in the future and within the maximum consent validity of the ASPSP');
    }
    const id = randomUUID();
    this.#world.authorizations.set(id, { id, kid: application.kid, created: this.#world.now, bank, state: request.state, redirectUrl: request.redirect_url, validUntil, code: null, codeIssuedAt: 0 });
    const started: StartAuthorizationResponse = { url: `${this.#origin}/bank/authorize?authorization_id=${id}`, authorization_id: id, psu_id_hash: randomBytes(16).toString('hex') };
    return { status: 200, body: started };
  }

  #authorizeSession(application: Application, input: unknown): Answer {
    const code = (input as { code?: unknown } | null)?.code;
    if (typeof code !== 'string') return failed(422, 'WRONG_REQUEST_PARAMETERS', 'code is required');
    const authorization = [...this.#world.authorizations.values()].find((candidate) => candidate.code === code);
    if (!authorization || authorization.kid !== application.kid) return failed(422, 'WRONG_AUTHORIZATION_CODE', 'Wrong authorization code');
    authorization.code = null;
    if (this.#world.now - authorization.codeIssuedAt > CODE_MS) return failed(422, 'EXPIRED_AUTHORIZATION_CODE', 'Authorization code expired');
    const session = this.#world.openSession(authorization.bank, authorization.validUntil, application.kid);
    const authorized: AuthorizeSessionResponse = {
      session_id: session.id,
      accounts: [...session.uids].map(([uid, key]) => this.#world.details(accountOf(session.bank, key), uid)),
      aspsp: { name: session.bank.name, country: session.bank.country },
      psu_type: 'personal',
      access: { valid_until: new Date(session.validUntil).toISOString(), balances: true, transactions: true },
    };
    return { status: 200, body: authorized };
  }

  #sessionData(session: FakeSession): GetSessionResponse {
    const expired = session.status === 'AUTHORIZED' && session.validUntil <= this.#world.now;
    return {
      status: expired ? 'EXPIRED' : session.status,
      accounts: [...session.uids.keys()],
      accounts_data: [...session.uids].map(([uid, key]) => {
        const hash = accountOf(session.bank, key).identificationHash;
        return { uid, identification_hash: hash, identification_hashes: [hash] };
      }),
      aspsp: { name: session.bank.name, country: session.bank.country },
      psu_type: 'personal',
      psu_id_hash: 'f'.repeat(32),
      access: { valid_until: new Date(session.validUntil).toISOString(), balances: true, transactions: true },
      created: new Date(session.created).toISOString(),
      authorized: new Date(session.created).toISOString(),
    };
  }

  #account(application: Application, uid: string, resource: string, url: URL, record: RequestRecord): Answer {
    // A bank that keeps uids across sessions: the newest session of the application answers for them.
    const session = [...this.#world.sessions.values()].reverse().find((candidate) => candidate.uids.has(uid) && candidate.kid === application.kid);
    if (!session) return failed(404, 'INVALID_ACCOUNT_ID', 'Account does not exist');
    if (session.status === 'CLOSED') return failed(401, 'CLOSED_SESSION', 'Session is closed');
    if (session.validUntil <= this.#world.now) return failed(401, 'EXPIRED_SESSION', 'Session is expired');
    const bank = session.bank;
    // The reference: either all the required PSU headers or none of them; then the PSU is online.
    const sent = Object.keys(record.psuHeaders);
    if (sent.length > 0 && !bank.behaviour.requiredPsuHeaders.every((name) => sent.includes(name.toLowerCase()))) {
      return failed(422, 'PSU_HEADER_NOT_PROVIDED', 'Required PSU header is not provided');
    }
    const geoLocation = record.psuHeaders['psu-geo-location'];
    if (geoLocation !== undefined && !GEO_LOCATION.test(geoLocation)) return failed(422, 'PSU_HEADER_INVALID', 'Provided PSU header contains invalid value');
    const psu = sent.length > 0;
    record.psu = psu;
    const account = accountOf(bank, session.uids.get(uid)!);
    if (resource === 'transactions') {
      for (const name of url.searchParams.keys()) if (!TRANSACTION_PARAMS.has(name)) return failed(422, 'WRONG_REQUEST_PARAMETERS', `Unknown parameter ${name}`);
    }
    const continuation = url.searchParams.get('continuation_key');
    if (!psu && !(resource === 'transactions' && continuation) && !this.#world.countRead(bank, account.key, resource)) {
      return { ...failed(429, 'ASPSP_RATE_LIMIT_EXCEEDED', 'ASPSP rate limit exceeded: at most 4 reads a day without the PSU present'), headers: { 'Retry-After': String(secondsUntilTomorrow(this.#world.now)) } };
    }
    if (resource === 'details') return { status: 200, body: this.#world.details(account, uid) };
    if (resource === 'balances') return { status: 200, body: { balances: this.#world.balances(account) } };
    return this.#transactions(bank, uid, account.key, url.searchParams);
  }

  #transactions(bank: FakeBank, uid: string, accountKey: string, params: URLSearchParams): Answer {
    const today = this.#world.today();
    let page: { from: string; to: string; status: string | null; offset: number };
    const key = params.get('continuation_key');
    if (key) {
      const saved = this.#continuations.get(key);
      if (!saved || saved.uid !== uid) return failed(422, 'WRONG_CONTINUATION_KEY', 'Wrong continuation key');
      this.#continuations.delete(key);
      page = saved;
    } else {
      const from = params.get('date_from');
      const to = params.get('date_to');
      if ((from !== null && !DATE.test(from)) || (to !== null && !DATE.test(to))) return failed(422, 'WRONG_REQUEST_PARAMETERS', 'Dates must be YYYY-MM-DD');
      if (to !== null && from === null) return failed(422, 'DATE_TO_WITHOUT_DATE_FROM', 'date_to requires date_from');
      if (from !== null && from > today) return failed(422, 'DATE_FROM_IN_FUTURE', 'date_from is in the future');
      page = { from: from ?? '0000-01-01', to: to ?? today, status: params.get('transaction_status'), offset: 0 };
    }
    const account = accountOf(bank, accountKey);
    const matching = account.entries.filter((entry) => {
      const day = entryDay(entry.transaction);
      return day >= page.from && day <= page.to && (page.status === null || entry.transaction.status === page.status);
    });
    const size = this.#pageSize();
    const slice = matching.slice(page.offset, page.offset + size);
    const body: HalTransactions = { transactions: slice.map((entry) => this.#world.served(bank, entry)) };
    if (page.offset + size < matching.length) {
      const next = randomBytes(12).toString('base64url');
      this.#continuations.set(next, { uid, from: page.from, to: page.to, status: page.status, offset: page.offset + size });
      body.continuation_key = next;
    }
    return { status: 200, body };
  }

  /** The bank's sign-in: the page with its three buttons, and where each sends the end-user. */
  #bankPage(method: string, url: URL): Answer {
    if (method !== 'GET') return { status: 405, body: 'Method Not Allowed' };
    const authorization = this.#world.authorizations.get(url.searchParams.get('authorization_id') ?? '');
    if (!authorization || authorization.validUntil <= this.#world.now || this.#world.now - authorization.created > AUTHORIZATION_MS) {
      return { status: 404, body: '<!doctype html><title>Expired</title><p>This sign-in link is not valid.</p>' };
    }
    const back = new URL(authorization.redirectUrl);
    const action = url.pathname.slice('/bank/authorize'.length);
    if (action === '') return { status: 200, body: signInPage(authorization.bank.name, `/bank/authorize/approve?authorization_id=${authorization.id}`, `/bank/authorize/cancel?authorization_id=${authorization.id}`, `/bank/authorize/fail?authorization_id=${authorization.id}`) };
    if (action === '/approve') {
      authorization.code = randomUUID();
      authorization.codeIssuedAt = this.#world.now;
      back.searchParams.set('code', authorization.code);
    } else if (action === '/cancel') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user cancelled the authorization');
    } else if (action === '/fail') {
      back.searchParams.set('error', 'server_error');
      back.searchParams.set('error_description', 'The bank could not complete the authorization');
    } else {
      return { status: 404, body: 'Not Found' };
    }
    back.searchParams.set('state', authorization.state);
    return { status: 302, body: '', headers: { Location: back.toString() } };
  }
}

function failed(status: number, error: ErrorCode, message: string): Answer {
  const body: ErrorResponse = { message, code: status, error };
  return { status, body };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parseJson(body: string): unknown {
  return JSON.parse(body) as unknown;
}

/** RFC3339 with a timezone (`Z` or an offset), as EB requires; null otherwise. */
function rfc3339(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

function secondsUntilTomorrow(now: number): number {
  return Math.max(1, Math.ceil((Math.floor(now / 86_400_000 + 1) * 86_400_000 - now) / 1000));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
