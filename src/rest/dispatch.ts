import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';
import { OpenAPIBackend, type Context, type Document } from 'openapi-backend';
import { parse } from 'yaml';
import { createRequire } from 'node:module';

/** ajv-formats (CommonJS): date, date-time, uuid, uri… checked as the contract says. */
const addFormats: <T>(ajv: T) => T = createRequire(import.meta.url)('ajv-formats');
import { badRequest, forbidden, notFound, unauthorized, ValidationError } from '../errors.ts';
import { WWW_AUTHENTICATE, type Credential } from '../http/credentials.ts';
import { toAppError } from '../http/errors.ts';
import type { AppContext, AppState } from '../http/state.ts';
import { unstorableText } from '../lib/storable-text.ts';
import { mostLiteralFirst, templatePattern } from './routes.ts';
import type { Handler, OperationId } from './types.ts';
import { toIssue } from './validation-issues.ts';

export const REST_CONTRACT_PATH = fileURLToPath(new URL('../../contracts/rest.yaml', import.meta.url));

/** One entry per operationId, so an operation added to the contract fails to compile until it is handled. */
export type HandlerTable = { [K in OperationId]: Handler<K> };

const SECURITY: Record<string, Credential['kind'] | 'session'> = { apiKey: 'apiKey', basicAuth: 'basic', sessionToken: 'session' };

/**
 * The REST front door: openapi-backend matches the request to an operation of contracts/rest.yaml,
 * checks the credential against the operation's `security`, validates parameters and body, and calls
 * the operation's handler. Everything here is wiring; rules live in the modules' services.
 */
export function restApi(table: HandlerTable): Middleware<AppState> {
  const definition = parse(readFileSync(REST_CONTRACT_PATH, 'utf8')) as Document;
  const api = new OpenAPIBackend({
    definition,
    strict: true,
    // The contract is OpenAPI 3.1, which openapi-backend's own 3.0 document check rejects;
    // `npm run lint:contracts` (Redocly) validates the document instead.
    quick: true,
    coerceTypes: true,
    ajvOpts: { allErrors: true },
    customizeAjv: (ajv) => addFormats(ajv),
    handlers: {
      notFound: () => {
        throw notFound('Route');
      },
      methodNotAllowed: (c: Context) => {
        throw notFound(`Route ${c.request.method.toUpperCase()} ${c.request.path}`);
      },
      unauthorizedHandler: (c: Context, ctx: AppContext) => {
        if (!ctx.state.credential) {
          throw unauthorized('This operation needs credentials', {
            instruction: 'Send an Authorization header; see the operation\'s security in /latest/rest.yaml.',
            headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
          });
        }
        // SPEC §7: without a valid API secret key, a server-to-server operation answers 401; a session
        // token or Basic credentials are valid, but not that.
        if (acceptsOnlyApiKeys(c.operation.security ?? definition.security)) {
          throw unauthorized('This operation needs an API secret key', {
            instruction: 'Call it from your server with Authorization: Bearer <API secret key>; session tokens and Basic credentials act as one profile and cannot.',
            headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
          });
        }
        throw forbidden('This credential cannot be used for this operation', {
          instruction: 'API keys administer the environment; Basic Auth and session tokens act as one profile. Use the kind this operation lists.',
        });
      },
      validationFail: (c: Context) => {
        throw new ValidationError((c.validation.errors ?? []).map(toIssue));
      },
    },
  });
  for (const [scheme, kind] of Object.entries(SECURITY)) {
    api.registerSecurityHandler(scheme, (_c: Context, ctx: AppContext) => ctx.state.credential?.kind === kind);
  }
  for (const [operationId, handler] of Object.entries(table)) {
    api.register(operationId, async (c: Context, ctx: AppContext) => {
      const run = handler as (input: unknown) => Promise<{ status: number; body?: unknown; headers?: Record<string, string | number> }>;
      // Path parameters are ids, only ever decoded (a malformed one is a 404); the rest may be stored.
      const unstorable = [c.request.query, c.request.requestBody].flatMap((part) => unstorableText(part));
      if (unstorable.length > 0) throw new ValidationError(unstorable);
      const call = () => run({ params: c.request.params, query: c.request.query, body: c.request.requestBody, ctx });
      const result = c.operation.method === 'get' && !PRIMARY_GETS.has(operationId as OperationId) ? await onReplica(ctx, call) : await call();
      ctx.status = result.status;
      if (result.headers) ctx.set(Object.fromEntries(Object.entries(result.headers).map(([name, value]) => [name, String(value)])));
      if (result.body !== undefined) ctx.body = result.body;
    });
  }
  const ready = api.init().then(() => precompileRouting(api));
  return async (ctx) => {
    await ready;
    assertDecodable(ctx.path);
    await api.handleRequest(
      { method: ctx.method, path: ctx.path, query: ctx.querystring, headers: ctx.headers as Record<string, string>, body: ctx.state.body },
      ctx,
    );
  };
}

/** The contract's path templates, to label requests by route (metrics). */
export function contractPaths(): string[] {
  return Object.keys((parse(readFileSync(REST_CONTRACT_PATH, 'utf8')) as Document).paths ?? {});
}

/**
 * GETs served by the primary even when a read replica is configured: a session's liveness (a revoked
 * token stays revoked), ACH numbers (fetched upstream with the connection's current credential, once
 * the account.verified event said so), and readiness (which reports on the primary).
 */
const PRIMARY_GETS: ReadonlySet<OperationId> = new Set(['getSession', 'getAchNumbers', 'getReadiness']);

/**
 * Runs a GET handler on `ctx.state.reads` (the read replica, when one is configured), which may lag
 * the primary a moment. A 404 is confirmed on the primary before it is answered: a record created a
 * moment ago may not have reached the replica yet, and a client just given an id must not be told
 * it does not exist.
 */
async function onReplica<T>(ctx: AppContext, call: () => Promise<T>): Promise<T> {
  const primary = ctx.state.em;
  if (ctx.state.reads === primary) return call();
  ctx.state.em = ctx.state.reads;
  try {
    return await call();
  } catch (error) {
    if (toAppError(error).status !== 404) throw error;
    ctx.state.em = primary;
    return await call();
  } finally {
    ctx.state.em = primary;
  }
}

/** Whether every security requirement of an operation is the API key alone. */
function acceptsOnlyApiKeys(security: Document['security']): boolean {
  const requirements = security ?? [];
  return requirements.length > 0 && requirements.every((requirement) => Object.keys(requirement).join() === 'apiKey');
}

/** Path parameters are percent-decoded as UTF-8; a path that cannot be is the client's mistake, not a URIError. */
function assertDecodable(path: string): void {
  try {
    decodeURIComponent(path);
  } catch {
    throw badRequest('The request path is not valid percent-encoded UTF-8', { instruction: 'Percent-encode each byte of a UTF-8 path segment, e.g. %C3%A9 for é.' });
  }
}

/**
 * openapi-backend rebuilds its flattened operation list (a lodash chain over the whole document) and
 * compiles a RegExp per templated path for every request it routes. The document never changes after
 * init, so the list, an exact-path index and the compiled templates are built once; anything they do
 * not match (404, 405) still goes through openapi-backend's own matcher for its answer.
 */
function precompileRouting(api: OpenAPIBackend): void {
  const router = api.router;
  const operations = router.getOperations();
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
  const exact = new Map(operations.filter((operation) => !operation.path.includes('{')).map((operation) => [`${operation.method} ${operation.path}`, operation]));
  const templated = operations
    .filter((operation) => operation.path.includes('{'))
    .sort((a, b) => mostLiteralFirst(a.path, b.path))
    .map((operation) => ({ operation, pattern: templatePattern(operation.path) }));
  const matchOperation = router.matchOperation.bind(router);
  router.getOperations = () => operations;
  router.getOperation = (operationId: string) => byId.get(operationId);
  router.matchOperation = ((request: Parameters<typeof matchOperation>[0], strict?: boolean) => {
    const normalized = router.normalizeRequest(request);
    const path = router.normalizePath(normalized.path);
    const found =
      exact.get(`${normalized.method} ${path}`) ?? templated.find(({ operation, pattern }) => operation.method === normalized.method && pattern.test(path))?.operation;
    return found ?? matchOperation(request, strict as true);
  }) as typeof router.matchOperation;
}
