import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { parse } from 'yaml';
import { REST_OPERATIONS } from '../../generated/rest-operations.ts';
import { REST_CONTRACT_PATH } from '../api-kit/contract-paths.ts';
import { badRequest, notFound, ValidationError } from '../errors.ts';
import { toAppError } from '../http/errors.ts';
import type { AppState } from '../http/state.ts';
import { unstorableText } from '../lib/storable-text.ts';
import { admittedCredential } from './security.ts';
import type { Handler, OperationId } from '../api-kit/rest-handler.ts';
import { toIssue } from './validation-issues.ts';

/** ajv-formats (CommonJS): date, date-time, uuid, uri… checked as the contract says. */
const addFormats = createRequire(import.meta.url)('ajv-formats') as <T>(ajv: T) => T;

/** One entry per operationId, so an operation added to the contract fails to compile until it is handled. */
export type HandlerTable = { [K in OperationId]: Handler<K> };

type Run = (input: unknown) => Promise<{ status: number; body?: unknown; headers?: Record<string, string | number> }>;

/**
 * The REST front door, for the operation of contracts/rest.yaml the request was matched to on arrival
 * (`ctx.state.route`, see src/rest/routes.ts): it checks the credential against the operation's
 * `security`, validates the request with openapi-backend's compiled schemas in one pass (coercing
 * query parameters to their types), and calls the operation's handler. Everything here is wiring; rules live in the modules' services.
 */
export function restApi(table: HandlerTable): Middleware<AppState> {
  const api = new OpenAPIBackend({
    definition: parse(readFileSync(REST_CONTRACT_PATH, 'utf8')) as Document,
    strict: true,
    // The contract is OpenAPI 3.1, which openapi-backend's own 3.0 document check rejects;
    // `npm run lint:contracts` (Redocly) validates the document instead.
    quick: true,
    coerceTypes: true,
    ajvOpts: { allErrors: true },
    customizeAjv: (ajv) => addFormats(ajv),
  });
  const ready = api.init().then(() => requestValidator(api));
  return async (ctx) => {
    const validate = await ready;
    assertDecodable(ctx.path);
    const route = ctx.state.route;
    if (!route) throw notFound('Route');
    const { operationId, params } = route;
    if (!operationId) throw notFound(`Route ${ctx.method.toUpperCase()} ${ctx.path}`);
    const credential = admittedCredential(operationId, ctx.state.credential);
    const body = ctx.state.body;
    const query = validate(operationId, { params, querystring: ctx.querystring, headers: ctx.headers, body });
    // Path parameters are ids, only ever decoded (a malformed one is a 404); the rest may be stored.
    const unstorable = [query, body].flatMap((part) => unstorableText(part));
    if (unstorable.length > 0) throw new ValidationError(unstorable);
    const run = table[operationId] as Run;
    const { state } = ctx;
    const { em, reads } = PLAIN_SQL.has(operationId) ? state.unforked : state;
    const call = (on: EntityManager) => run(new HandlerCall({ params, query, body, credential, em: on, headers: ctx.headers, clientAddress: ctx.ip }, state));
    const result = REST_OPERATIONS[operationId].method === 'get' && !PRIMARY_GETS.has(operationId) ? await onReplica(em, reads, call) : await call(em);
    ctx.status = result.status;
    if (result.headers) ctx.set(Object.fromEntries(Object.entries(result.headers).map(([name, value]) => [name, String(value)])));
    if (result.body !== undefined) ctx.body = result.body;
  };
}

/**
 * What a handler receives (HandlerInput). A class, so that `log` is a getter on the prototype, read
 * from the request (whose child logger is made on first use) only when a handler logs: a getter in an
 * object literal is made anew with each object and costs more (~1 KB a request) than the logger it spares.
 */
class HandlerCall {
  readonly params: Record<string, string>;
  readonly query: unknown;
  readonly body: unknown;
  readonly credential: unknown;
  readonly em: EntityManager;
  readonly headers: IncomingHttpHeaders;
  readonly clientAddress: string;
  readonly requestId: string;
  readonly version: string;
  readonly rawBody: Buffer | undefined;
  readonly #state: AppState;
  constructor(parts: Pick<HandlerCall, 'params' | 'query' | 'body' | 'credential' | 'em' | 'headers' | 'clientAddress'>, state: AppState) {
    ({ params: this.params, query: this.query, body: this.body, credential: this.credential, em: this.em, headers: this.headers, clientAddress: this.clientAddress } = parts);
    this.requestId = state.requestId;
    this.version = state.version;
    this.rawBody = state.rawBody;
    this.#state = state;
  }
  get log(): Logger {
    return this.#state.log;
  }
}

/** What a request is validated on: its route's path parameters, and the parts of the request itself. */
interface RequestParts {
  params: Record<string, string>;
  querystring: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (src/http/json-body.ts), when one was sent. */
  body: unknown;
}

/**
 * Validates a request with openapi-backend's compiled schemas for its operation, and returns its
 * query parameters coerced to their types (in place: ajv's `coerceTypes`); throws a ValidationError
 * listing every problem. It builds the object those schemas check the way openapi-backend's
 * `validateRequest` does, from what the pipeline has already parsed: the route (matched once on
 * arrival) gives the path parameters, the body is JSON parsed already, header names are lower case
 * already (Node), and the contract has no cookie parameters. Only the query string is parsed here,
 * by openapi-backend's own parser, so `?page=1&page=2` is refused as before. `validateRequest`
 * re-parsed all of it, cookies too, and compiled the path template to a RegExp on every request.
 */
function requestValidator(api: OpenAPIBackend): (operationId: OperationId, request: RequestParts) => unknown {
  return (operationId, { params, querystring, headers, body }) => {
    const parameters: Record<string, unknown> = { path: { ...params }, query: api.router.parseRequestQuery({ method: '', path: '', headers: {}, query: querystring }), header: headers, cookie: {} };
    // As openapi-backend: a body is checked when one was sent, or when the request says it is JSON.
    if (typeof body === 'object' || mediaType(headers['content-type']) === 'application/json') parameters.requestBody = body;
    const errors = api.validator.getRequestValidatorsForOperation(operationId).flatMap((check) => (check(parameters) ? [] : (check.errors ?? [])));
    if (errors.length > 0) throw new ValidationError(errors.map(toIssue));
    return parameters.query;
  };
}

/** The media type of a Content-Type header, without parameters such as charset. */
function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * GETs served by the primary even when a read replica is configured: a session's liveness (a revoked
 * token stays revoked), ACH numbers (fetched upstream with the connection's current credential, once
 * the account.verified event said so), readiness (which reports on the primary), the two steps of
 * a redirect link that read the state startLink wrote a moment ago (the callback also writes), and
 * the OpenID Connect callback (it opens a console session and writes the audit log).
 */
const PRIMARY_GETS: ReadonlySet<OperationId> = new Set(['getSession', 'getAchNumbers', 'getReadiness', 'completeLinkRedirect', 'getSandboxBank', 'completeOidcSignIn']);

/**
 * Operations whose handlers only send a store's plain statements (src/db/statement.ts `run`): they
 * work through the ORM's unforked EntityManagers, which hand out pool connections like a fork and
 * save forking one per request. An identity-map call on one throws (MikroORM refuses the global
 * context), so a handler that comes to need the ORM fails its tests until it leaves this list.
 */
const PLAIN_SQL: ReadonlySet<OperationId> = new Set(['getProfile']);

/**
 * Runs a GET handler on `reads` (the read replica, when one is configured), which may lag the
 * primary a moment. A 404 is confirmed on the primary before it is answered: a record created a
 * moment ago may not have reached the replica yet, and a client just given an id must not be told
 * it does not exist.
 */
async function onReplica<T>(primary: EntityManager, reads: EntityManager, call: (em: EntityManager) => Promise<T>): Promise<T> {
  if (reads === primary) return call(primary);
  try {
    return await call(reads);
  } catch (error) {
    if (toAppError(error).status !== 404) throw error;
    return await call(primary);
  }
}

/** Path parameters are percent-decoded as UTF-8; a path that cannot be is the client's mistake, not a URIError. */
function assertDecodable(path: string): void {
  try {
    decodeURIComponent(path);
  } catch {
    throw badRequest('The request path is not valid percent-encoded UTF-8', { instruction: 'Percent-encode each byte of a UTF-8 path segment, e.g. %C3%A9 for é.' });
  }
}
