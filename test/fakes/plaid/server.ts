import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { selfSignedLocalhost } from '../tls.ts';
import { errors, FakePlaidError, newRequestId } from './errors.ts';
import type { FakeItem } from './item.ts';
import { handlers } from './routes.ts';
import { requestShapes, type Endpoint } from './schemas.ts';
import type { FakePlaidState } from './state.ts';
import { validateBody } from './validation.ts';
import { PdfAnswer } from './statements.ts';

/** One request the fake answered, with secrets and tokens redacted. */
export interface RequestRecord {
  endpoint: string;
  body: Record<string, unknown> | null;
  /** The Item the request concerned, once its token was recognised. */
  itemId: string | null;
  status: number;
  errorCode: string | null;
  requestId: string;
  at: Date;
  /** Set when the fake itself failed (a bug in the fake, answered as Plaid's 500). */
  crash?: string;
}

/** Failures a test can make the next matching call answer with. */
export type FailureKind = 'RATE_LIMIT_EXCEEDED' | 'INTERNAL_SERVER_ERROR' | 'INSTITUTION_DOWN' | 'INVALID_REQUEST';

const PLANNED: Record<Exclude<FailureKind, 'RATE_LIMIT_EXCEEDED'>, () => FakePlaidError> = {
  INTERNAL_SERVER_ERROR: errors.internalServerError,
  INSTITUTION_DOWN: errors.institutionDown,
  // What Plaid answers a request it refuses as malformed (a field out of range, say): the client's own mistake.
  INVALID_REQUEST: () => errors.invalidField('options.account_ids must be a non-empty list of account ids'),
};

interface PlannedFailure {
  kind: FailureKind;
  endpoint: Endpoint | undefined;
  remaining: number;
}

/** Plaid's rate-limit error codes per endpoint; other endpoints answer RATE_LIMIT. */
const RATE_LIMIT_CODES: Partial<Record<Endpoint, string>> = {
  '/transactions/sync': 'TRANSACTIONS_SYNC_LIMIT',
  '/transactions/refresh': 'TRANSACTIONS_LIMIT',
  '/accounts/get': 'ACCOUNTS_LIMIT',
  '/accounts/balance/get': 'ACCOUNTS_BALANCE_GET_LIMIT',
  '/auth/get': 'AUTH_LIMIT',
  '/item/get': 'ITEM_GET_LIMIT',
};

const REDACTED = new Set(['secret', 'access_token', 'public_token', 'access_tokens']);
const MAX_BODY_BYTES = 1_000_000;

export interface ServerOptions {
  clientId: string;
  secret: string;
  tls: { cert: string; key: string } | undefined;
}

/** The HTTPS front of the fake: Plaid's request checks in Plaid's order, then the endpoint's handler. */
export class FakePlaidServer {
  readonly requests: RequestRecord[] = [];
  readonly #failures: PlannedFailure[] = [];
  readonly #state: FakePlaidState;
  readonly #options: ServerOptions;
  #server: Server | undefined;

  constructor(state: FakePlaidState, options: ServerOptions) {
    this.#state = state;
    this.#options = options;
  }

  /** Listens on 127.0.0.1 on a free port; resolves to the base URL and the certificate to trust. */
  async start(): Promise<{ url: string; ca: string }> {
    const tls = this.#options.tls ?? (await selfSignedLocalhost());
    this.#server = createServer({ cert: tls.cert, key: tls.key }, (request, response) => void this.#handle(request, response));
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    return { url: `https://127.0.0.1:${port}`, ca: tls.cert };
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  failNext(kind: FailureKind, options: { endpoint?: Endpoint; times?: number } = {}): void {
    this.#failures.push({ kind, endpoint: options.endpoint, remaining: options.times ?? 1 });
  }

  async #handle(request: IncomingMessage, response: ServerResponse) {
    const requestId = newRequestId();
    const endpoint = new URL(request.url ?? '/', 'https://fake').pathname;
    const record: RequestRecord = { endpoint, body: null, itemId: null, status: 200, errorCode: null, requestId, at: new Date() };
    this.requests.push(record);
    let answer: object;
    try {
      const raw = await readBody(request);
      if (request.method !== 'POST' || !(endpoint in handlers)) throw errors.notFound();
      const body = parseBody(request, raw);
      record.body = redact(body);
      answer = await this.#dispatch(endpoint as Endpoint, body, request, (item) => (record.itemId = item.itemId));
    } catch (error) {
      const failure = error instanceof FakePlaidError ? error : errors.internalServerError();
      if (!(error instanceof FakePlaidError)) record.crash = error instanceof Error ? error.message : String(error);
      record.status = failure.status;
      record.errorCode = failure.body.error_code;
      answer = failure.body;
    }
    // /statements/download answers the document itself, its digest in a header, as Plaid does.
    if (answer instanceof PdfAnswer) response.writeHead(200, { 'Content-Type': 'application/pdf', 'Plaid-Content-Hash': answer.contentHash, 'Plaid-Request-Id': requestId }).end(answer.bytes);
    else response.writeHead(record.status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify({ ...answer, request_id: requestId }));
  }

  #dispatch(endpoint: Endpoint, body: Record<string, unknown>, request: IncomingMessage, onItem: (item: FakeItem) => void): object | Promise<object> {
    const invalid = validateBody(requestShapes[endpoint], body);
    if (invalid) throw invalid;
    this.#authenticate(body, request);
    this.#plannedFailure(endpoint);
    const handler = handlers[endpoint] as (request: unknown, state: FakePlaidState, onItem: (item: FakeItem) => void) => object | Promise<object>;
    return handler(body, this.#state, onItem);
  }

  /** Keys in the body win; the SDK sends them as PLAID-CLIENT-ID / PLAID-SECRET headers instead. */
  #authenticate(body: Record<string, unknown>, request: IncomingMessage) {
    const clientId = (body.client_id as string | undefined) ?? request.headers['plaid-client-id'];
    const secret = (body.secret as string | undefined) ?? request.headers['plaid-secret'];
    const missing = [clientId === undefined && 'client_id', secret === undefined && 'secret'].filter((field) => field !== false);
    if (missing.length > 0) throw errors.missingFields(missing);
    if (clientId !== this.#options.clientId || secret !== this.#options.secret) throw errors.invalidApiKeys();
  }

  #plannedFailure(endpoint: Endpoint) {
    const planned = this.#failures.find((failure) => failure.endpoint === undefined || failure.endpoint === endpoint);
    if (!planned) return;
    if (--planned.remaining === 0) this.#failures.splice(this.#failures.indexOf(planned), 1);
    throw planned.kind === 'RATE_LIMIT_EXCEEDED' ? errors.rateLimit(RATE_LIMIT_CODES[endpoint] ?? 'RATE_LIMIT') : PLANNED[planned.kind]();
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw errors.invalidBody();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function parseBody(request: IncomingMessage, raw: Buffer): Record<string, unknown> {
  const contentType = request.headers['content-type'];
  if (contentType === undefined) throw errors.invalidHeaders('the Content-Type header is missing; the Plaid API only accepts application/json');
  if (!/^application\/json\b/i.test(contentType)) throw errors.invalidBody();
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw errors.invalidBody();
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw errors.invalidBody();
  return body as Record<string, unknown>;
}

function redact(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, REDACTED.has(key) ? '[redacted]' : structuredClone(value)]));
}
