import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { accountSet, errorSet, parseAccountsQuery } from './account-set.ts';
import type { FakeBridge } from './bridge.ts';
import { budgetWarning, spend } from './budget.ts';
import { selfSignedLocalhost } from '../tls.ts';

/** One request the fake answered; claim codes and credentials never appear in it. */
export interface RequestRecord {
  method: string;
  /** The path, with a claim code replaced by `[redacted]`. */
  path: string;
  query: Record<string, string[]>;
  status: number;
  /** The connection whose access token authenticated the request. */
  connectionId: string | null;
  /** The bridge's clock (unix seconds) when it was answered. */
  clock: number;
  /** The `errors` / `errlist` messages the answer carried. */
  messages: string[];
}

/** Root of the protocol's resources, as in `https://bridge.simplefin.org/simplefin`. */
export const ROOT = '/simplefin';
const CLAIM_PREFIX = `${ROOT}/claim/`;
const MAX_BODY_BYTES = 64_000;

interface Answer {
  status: number;
  body: object | string;
  headers?: Record<string, string>;
}

/** The HTTPS front of the fake: `GET /info`, `POST /claim/:token`, `GET /accounts` under `/simplefin`. */
export class FakeSimplefinServer {
  readonly requests: RequestRecord[] = [];
  readonly #bridge: FakeBridge;
  readonly #tls: { cert: string; key: string } | undefined;
  #server: Server | undefined;
  #origin = '';

  constructor(bridge: FakeBridge, tls: { cert: string; key: string } | undefined) {
    this.#bridge = bridge;
    this.#tls = tls;
  }

  /** Listens on 127.0.0.1 on a free port; resolves to the origin and the certificate to trust. */
  async start(): Promise<{ url: string; ca: string }> {
    const tls = this.#tls ?? (await selfSignedLocalhost());
    this.#server = createServer({ cert: tls.cert, key: tls.key }, (request, response) => void this.#handle(request, response));
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.#origin = `https://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return { url: this.#origin, ca: tls.cert };
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The claim URL a setup token encodes. */
  claimUrl(code: string): string {
    return `${this.#origin}${CLAIM_PREFIX}${code}`;
  }

  async #handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', this.#origin);
    const record: RequestRecord = {
      method: request.method ?? 'GET',
      path: url.pathname.startsWith(CLAIM_PREFIX) ? `${CLAIM_PREFIX}[redacted]` : url.pathname,
      query: queryOf(url.searchParams),
      status: 0,
      connectionId: null,
      clock: this.#bridge.now,
      messages: [],
    };
    this.requests.push(record);
    let answer: Answer;
    try {
      await drain(request);
      answer = this.#route(request, url, record);
    } catch {
      answer = { status: 400, body: 'Bad Request' };
    }
    record.status = answer.status;
    if (typeof answer.body === 'object') record.messages = messagesOf(answer.body);
    const json = typeof answer.body === 'object';
    response
      .writeHead(answer.status, { 'Content-Type': json ? 'application/json' : 'text/plain; charset=utf-8', ...answer.headers })
      .end(json ? JSON.stringify(answer.body) : answer.body);
  }

  #route(request: IncomingMessage, url: URL, record: RequestRecord): Answer {
    const method = request.method ?? 'GET';
    const allow = (expected: string) => (method === expected ? null : { status: 405, body: 'Method Not Allowed', headers: { Allow: expected } });
    if (url.pathname === `${ROOT}/info`) return allow('GET') ?? { status: 200, body: { versions: ['1.0'] } };
    if (url.pathname.startsWith(CLAIM_PREFIX)) return allow('POST') ?? this.#claim(url.pathname.slice(CLAIM_PREFIX.length));
    if (url.pathname === `${ROOT}/accounts`) return allow('GET') ?? this.#accounts(request, url, record);
    return { status: 404, body: 'Not Found' };
  }

  #claim(code: string): Answer {
    const token = this.#bridge.claim(decodeURIComponent(code));
    if (!token) return { status: 403, body: 'Forbidden (was it already claimed?)' };
    const userinfo = `${encodeURIComponent(token.username)}:${encodeURIComponent(token.password)}`;
    return { status: 200, body: `${this.#origin.replace('https://', `https://${userinfo}@`)}${ROOT}` };
  }

  #accounts(request: IncomingMessage, url: URL, record: RequestRecord): Answer {
    const query = parseAccountsQuery(url.searchParams);
    const version = url.searchParams.get('version') === '2' ? 2 : 1;
    const credentials = basicCredentials(request.headers.authorization);
    if (!credentials) return { status: 403, body: errorSet(version, { code: 'gen.auth', msg: 'No credentials provided' }) };
    const token = this.#bridge.authenticate(credentials.username, credentials.password);
    const forbidden = { status: 403, body: errorSet(version, { code: 'gen.auth', msg: 'Forbidden' }) };
    if (!token || token.revoked || token.disabled) return forbidden;
    const { connection } = token;
    record.connectionId = connection.id;
    if ('invalid' in query) return { status: 400, body: errorSet(version, { code: 'gen.api', msg: query.invalid }) };
    if (connection.lapsed) return { status: 402, body: errorSet(version, { code: 'gen.', msg: 'Payment required: renew your SimpleFIN Bridge subscription.' }) };
    const verdict = spend(token.requestTimes, this.#bridge.budget, this.#bridge.now);
    if (verdict.kind === 'rejected') return { status: 429, body: 'Too Many Requests', headers: { 'Retry-After': String(verdict.retryAfterSeconds) } };
    if (verdict.kind === 'disabled') {
      token.disabled = true;
      return forbidden;
    }
    const warnings = verdict.kind === 'warn' ? [budgetWarning(verdict.count, this.#bridge.budget.perDay)] : [];
    return { status: 200, body: accountSet(connection, query, this.#bridge.now, `${this.#origin}${ROOT}`, warnings) };
  }
}

/** The username and password of a Basic `Authorization` header (the password may contain colons). */
function basicCredentials(header: string | undefined): { username: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

async function drain(request: IncomingMessage) {
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
  }
}

function queryOf(params: URLSearchParams): Record<string, string[]> {
  // No prototype: a parameter named __proto__ is just a name.
  const query: Record<string, string[]> = Object.create(null);
  for (const [name, value] of params) (query[name] ??= []).push(value);
  return query;
}

function messagesOf(body: object): string[] {
  const { errors, errlist } = body as { errors?: string[]; errlist?: { msg: string }[] };
  return errors ?? errlist?.map((error) => error.msg) ?? [];
}
