import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Middleware } from 'koa';
import { OpenAPIBackend, type Document, type Request } from 'openapi-backend';
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
 * `security`, has openapi-backend parse and validate the request in one pass (coercing query
 * parameters to their types), and calls the operation's handler. Everything here is wiring; rules live in the modules' services.
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
  // The validator's view of each operation, looked up once: openapi-backend rebuilds it on every lookup by id.
  const ready = api.init().then(() => new Map(api.getOperations().map((operation) => [operation.operationId, operation])));
  return async (ctx) => {
    const operations = await ready;
    assertDecodable(ctx.path);
    const route = ctx.state.route;
    if (!route) throw notFound('Route');
    const { operationId, params } = route;
    if (!operationId) throw notFound(`Route ${ctx.method.toUpperCase()} ${ctx.path}`);
    const credential = admittedCredential(operationId, ctx.state.credential);
    const operation = operations.get(operationId);
    // The body is JSON, parsed already (src/http/json-body.ts). openapi-backend takes a body that is
    // not an object for JSON text and parses it: a JSON string goes back as its text, so that what is
    // validated is what the handler gets.
    const body = ctx.state.body;
    const request = { method: ctx.method, path: ctx.path, query: ctx.querystring, headers: ctx.headers as Record<string, string>, body: typeof body === 'string' ? JSON.stringify(body) : body };
    // openapi-backend's one pass over the request: it parses it, validates it, and coerces the query
    // parameters to their types in place.
    const validation = api.validateRequest(request, operation);
    if (validation.errors) throw new ValidationError(validation.errors.map(toIssue));
    const query: unknown = (validation.coerced as Request).query;
    // Path parameters are ids, only ever decoded (a malformed one is a 404); the rest may be stored.
    const unstorable = [query, body].flatMap((part) => unstorableText(part));
    if (unstorable.length > 0) throw new ValidationError(unstorable);
    const run = table[operationId] as Run;
    const { em, reads, log, requestId, version, rawBody } = ctx.state;
    const call = (on: EntityManager) => run({ params, query, body, credential, em: on, log, requestId, version, headers: ctx.headers, clientAddress: ctx.ip, rawBody });
    const result = REST_OPERATIONS[operationId].method === 'get' && !PRIMARY_GETS.has(operationId) ? await onReplica(em, reads, call) : await call(em);
    ctx.status = result.status;
    if (result.headers) ctx.set(Object.fromEntries(Object.entries(result.headers).map(([name, value]) => [name, String(value)])));
    if (result.body !== undefined) ctx.body = result.body;
  };
}

/**
 * GETs served by the primary even when a read replica is configured: a session's liveness (a revoked
 * token stays revoked), ACH numbers (fetched upstream with the connection's current credential, once
 * the account.verified event said so), readiness (which reports on the primary), and the two steps of
 * a redirect link that read the state startLink wrote a moment ago (the callback also writes).
 */
const PRIMARY_GETS: ReadonlySet<OperationId> = new Set(['getSession', 'getAchNumbers', 'getReadiness', 'completeLinkRedirect', 'getSandboxBank']);

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
