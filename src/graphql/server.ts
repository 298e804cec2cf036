import type { CorrectionJobs } from '../modules/categorization/categorization.jobs.ts';
import { readFileSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { getOperationAST, GraphQLError, OperationTypeNode, type DocumentNode, type ExecutionResult, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { createHandler, type Request as GraphQLRequest, type Response as Answer } from 'graphql-http';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { AppError, forbidden, unauthorized, type ErrorCode } from '../errors.ts';
import { GRAPHQL_SCHEMA_PATH } from '../api-kit/contract-paths.ts';
import { WWW_AUTHENTICATE } from '../api-kit/credential.ts';
import type { DatabaseOutage } from '../db/database-outage.ts';
import type { AppContext, AppState } from '../http/state.ts';
import type { FieldCipher } from '../lib/field-cipher.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { GraphQLContext } from './context.ts';
import { WrittenAnswer } from './direct-answers.ts';
import { DocumentCache } from './documents.ts';
import { formatGraphQLError, requestError } from './errors.ts';
import { selectsOnlyIntrospection } from './introspection.ts';
import { LIMITS } from './limits.ts';
import { jsonLength } from './result-size.ts';
import { createLoaders } from './loaders.ts';
import { publicOrigin } from '../lib/public-origin.ts';
import { plainFields, resolvers } from './resolvers.ts';
import { withPlainFields } from './plain-fields.ts';

/** Operations per batched request (a JSON array body, as Apollo's BatchHttpLink sends). */
const MAX_BATCH = 10;

export interface GraphQLOptions {
  cipher: FieldCipher;
  /** PUBLIC_URL, where the links resolvers hand out point (else the request's own origin). */
  publicUrl: string | undefined;
  logger: Logger;
  /** Outside development, validation messages do not suggest field names ("Did you mean …?"). */
  hideSuggestions: boolean;
  metrics: Metrics;
  schema: GraphQLSchema;
  corrections: CorrectionJobs;
  outage: DatabaseOutage;
}

/** The executable schema: contracts/schema.graphql with its resolvers. */
export function buildSchema(): GraphQLSchema {
  return withPlainFields(makeExecutableSchema({ typeDefs: readFileSync(GRAPHQL_SCHEMA_PATH, 'utf8'), resolvers }), plainFields);
}

/**
 * The GraphQL front door (GraphQL over HTTP via graphql-http). A request needs a credential (none →
 * 401). A credential that acts as a profile may run any operation; an API key acts as none, so it
 * may run only introspection, and any other operation it sends is refused with 403 before it runs.
 * Documents are parsed and validated once per query text; a document over a limit never runs. A
 * request's response body holds at most `LIMITS.responseBytes` (the operations of a batch share it);
 * a result past it is refused, never truncated, and found past it before its text is written. An
 * answer without `data` (a request error, a limit, a refused result) is HTTP 200 as
 * `application/json` and 400 as `application/graphql-response+json`, as GraphQL over HTTP has it.
 */
export function graphqlApi({ cipher, publicUrl, logger, hideSuggestions, metrics, schema, corrections, outage }: GraphQLOptions): Middleware<AppState> {
  const documents = new DocumentCache(schema, { hideSuggestions });
  const formatError = errorFormatter(logger, outage);
  const answers = refusalAnswers(formatError);
  const budgets: Budgets = new WeakMap();
  const handler = exchangeHandler({ schema, documents, formatError, answers, metrics, budgets, contextFor: contextFactory(cipher, corrections, publicUrl) });
  /** Runs one operation; a response body longer than `budget` bytes is refused instead. */
  const run = async (ctx: AppContext, body: unknown, budget: number): Promise<{ answer: Answer; bytes: number } | undefined> => {
    budgets.set(ctx, budget);
    const [responseBody, init] = await handler({
      method: ctx.method,
      url: ctx.url,
      headers: { get: (name) => ctx.get(name) || null },
      body: body as GraphQLRequest<unknown, AppContext>['body'],
      raw: ctx.req,
      context: ctx,
    });
    const refused = HTTP_REFUSALS[init.status];
    if (refused) throw httpRefusal(init.status, refused, responseBody, init.headers);
    const text = responseBody ?? '';
    const bytes = Buffer.byteLength(text);
    // The handler leaves no budget to a result it found past it before writing it.
    return bytes > budgets.get(ctx)! ? undefined : { answer: [text, init], bytes };
  };

  return async (ctx) => {
    const credential = ctx.state.credential;
    if (!credential) {
      throw unauthorized('GraphQL needs a credential that acts as a profile', {
        instruction: 'Send Basic base64(<profile id>:<API secret key>) or Bearer <session token>.',
        headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
      });
    }
    const body = ctx.state.body ?? null;
    if (ctx.method === 'POST' && Array.isArray(body)) return runBatch(ctx, body);
    const [responseBody, init] = (await run(ctx, body, LIMITS.responseBytes))?.answer ?? answers.tooLarge(ctx);
    ctx.status = init.status;
    for (const [name, value] of Object.entries(init.headers ?? {})) ctx.set(name, value);
    // As bytes: Node sends a string body with its headers by joining the two into one more string,
    // a copy of the whole answer on the heap (about 40 KB of a 100-row page's 280); bytes go out beside them.
    ctx.body = responseBody === null ? null : Buffer.from(responseBody);
  };

  /**
   * Each operation runs on its own (its own limits, its own errors); the answer lists the results in
   * order. The results share one response budget: the operation that would pass it, and every one
   * after it, is answered with RESPONSE_TOO_LARGE (the later ones without running).
   */
  async function runBatch(ctx: AppContext, operations: unknown[]) {
    if (operations.length === 0 || operations.length > MAX_BATCH) {
      ctx.status = 400;
      ctx.body = { errors: [formatError(requestError(`A batch holds 1 to ${MAX_BATCH} operations, not ${operations.length}`, 'BAD_REQUEST')).toJSON()] };
      return;
    }
    const results: string[] = [];
    let budget = LIMITS.responseBytes;
    for (const operation of operations) {
      // Operations that need no I/O (introspection, cached refusals) would otherwise run back to back without letting other requests in.
      if (results.length > 0) await nextTurn();
      const ran = budget > 0 ? await run(ctx, operation, budget) : undefined;
      budget = ran ? budget - ran.bytes : 0;
      results.push((ran?.answer ?? answers.tooLarge(ctx))[0] || 'null');
    }
    ctx.status = 200;
    ctx.type = 'application/json';
    ctx.body = `[${results.join(',')}]`;
  }
}

type FormatError = (error: Error) => GraphQLError;

/** Errors as the contract shapes them (codes, requestId, errorId), logged by `formatGraphQLError`. */
function errorFormatter(logger: Logger, outage: DatabaseOutage): FormatError {
  return (error) => {
    // Duck-typed: graphql-http and the schema may hold different copies of graphql's classes. Its
    // other errors refuse a request that is no GraphQL request (no query, a body that is no object).
    const graphqlError = 'locations' in error ? (error as GraphQLError) : requestError(error.message, 'BAD_REQUEST');
    const formatted = formatGraphQLError(graphqlError, logger, outage);
    return new GraphQLError(formatted.message, { path: formatted.path, extensions: formatted.extensions, nodes: graphqlError.nodes });
  };
}

interface RefusalAnswers {
  /** Errors and no `data`, in the media type the client accepts: 200 as application/json, 400 as application/graphql-response+json. */
  withoutData(ctx: AppContext, errors: readonly GraphQLError[]): Answer;
  /** RESPONSE_TOO_LARGE, in place of a result past the response budget. */
  tooLarge(ctx: AppContext): Answer;
}

function refusalAnswers(formatError: FormatError): RefusalAnswers {
  const withoutData = (ctx: AppContext, errors: readonly GraphQLError[]): Answer => {
    const mediaType = negotiatedMediaType(ctx.get('Accept'));
    const body: { errors: GraphQLFormattedError[] } = { errors: errors.map((error) => formatError(error).toJSON()) };
    const status = mediaType === 'application/json' ? { status: 200, statusText: 'OK' } : { status: 400, statusText: 'Bad Request' };
    return [JSON.stringify(body), { ...status, headers: { 'content-type': `${mediaType}; charset=utf-8` } }];
  };
  const tooLarge = (ctx: AppContext) =>
    withoutData(ctx, [
      requestError(
        `The response would pass ${LIMITS.responseBytes} bytes, the limit per request (the operations of a batch share it): select fewer fields or smaller pages, or send the operations separately`,
        'RESPONSE_TOO_LARGE',
      ),
    ]);
  return { withoutData, tooLarge };
}

type ContextFor = (ctx: AppContext, document: DocumentNode, operationName: string | null | undefined) => GraphQLContext;

/** The bytes each request's operation being run may still answer with (a batch's operations share them). */
type Budgets = WeakMap<AppContext, number>;

/**
 * An HTTP request's GraphQL context. A class, so that `log` and `em` are getters on the prototype:
 * the request's child logger is made only when a resolver logs, its EntityManager forked only when a
 * resolver or loader needs the ORM (a page of transactions with their accounts sends plain
 * statements through `sql` and forks none: ~4.5 KB and ~30 µs a page). A getter in an object literal
 * is made anew with each object and costs more (~1 KB a request) than the logger it spares.
 */
class RequestContext implements GraphQLContext {
  readonly profileId: string;
  readonly environmentId: string;
  readonly requestId: string;
  readonly cipher: FieldCipher;
  readonly corrections: CorrectionJobs;
  readonly sql: EntityManager;
  loaders: GraphQLContext['loaders'];
  readonly #state: AppState;
  readonly #primary: boolean;
  #em: EntityManager | undefined;
  readonly #publicUrl: string | undefined;
  readonly #host: string;
  /** `primary`: the operation works on the primary (a mutation, or an operation after one), else on the replica. */
  constructor(state: AppState, primary: boolean, cipher: FieldCipher, corrections: CorrectionJobs, link: { publicUrl: string | undefined; host: string }) {
    this.#state = state;
    this.#primary = primary;
    this.#publicUrl = link.publicUrl;
    this.#host = link.host;
    this.sql = primary ? state.unforked.em : state.unforked.reads;
    this.cipher = cipher;
    this.corrections = corrections;
    this.profileId = (state.credential as { profileId: string }).profileId;
    this.environmentId = state.credential!.environmentId;
    this.requestId = state.requestId;
    this.loaders = createLoaders(this, this, cipher);
  }
  get em(): EntityManager {
    return (this.#em ??= this.#primary ? this.#state.em : this.#state.reads);
  }
  get log(): Logger {
    return this.#state.log;
  }
  get origin(): string {
    return publicOrigin(this.#publicUrl, this.#host);
  }
}

/** A query reads the replica (it may lag a moment); a mutation, and what it returns, works on the primary. */
function contextFactory(cipher: FieldCipher, corrections: CorrectionJobs, publicUrl: string | undefined): ContextFor {
  /** Requests that ran a mutation: the operations after it in a batch read the primary, to see what it wrote. */
  const wrote = new WeakSet<AppContext>();
  return (ctx, document, operationName) => {
    const { state } = ctx;
    if (getOperationAST(document, operationName)?.operation !== OperationTypeNode.QUERY) wrote.add(ctx);
    return new RequestContext(state, wrote.has(ctx), cipher, corrections, { publicUrl, host: ctx.host });
  };
}

/**
 * graphql-http's handler for one operation: documents prepared once per text (limits included), an
 * API key's operations limited to introspection, successful results serialized directly.
 */
function exchangeHandler(deps: { schema: GraphQLSchema; documents: DocumentCache; formatError: FormatError; answers: RefusalAnswers; metrics: Metrics; budgets: Budgets; contextFor: ContextFor }) {
  const { schema, documents, formatError, answers, metrics, budgets, contextFor } = deps;
  return createHandler<unknown, AppContext, GraphQLContext | undefined>({
    schema,
    formatError,
    // A written answer (direct-answers.ts) reaches onOperation as it came: its text is the answer.
    execute: (args) => documents.execute(args) as Promise<ExecutionResult>,
    // Successful results skip graphql-http's serializer, whose replacer function visits every value.
    onOperation: (req, _args, executed) => {
      if (executed instanceof WrittenAnswer) {
        if (!executed.tooLarge) return [executed.text, { status: 200, statusText: 'OK', headers: { 'content-type': `${negotiatedMediaType(req.context.get('Accept'))}; charset=utf-8` } }];
        budgets.set(req.context, 0);
        return answers.tooLarge(req.context);
      }
      const result = executed;
      // No `data` at all (variables that do not coerce) is a request error, which graphql-http would answer 200
      // in either media type; `data: null` (a failed non-null root field) is a field error, answered 200.
      if (result.data === undefined) return answers.withoutData(req.context, result.errors ?? []);
      // Measured before it is written: its text could be many times the budget (a record's metadata
      // is one object in the result, however often it is selected). Errors are measured once written.
      const budget = budgets.get(req.context)!;
      if (jsonLength(result.data, budget) > budget) {
        budgets.set(req.context, 0);
        return answers.tooLarge(req.context);
      }
      if (result.errors) return undefined;
      const mediaType = negotiatedMediaType(req.context.get('Accept'));
      return [JSON.stringify(result), { status: 200, statusText: 'OK', headers: { 'content-type': `${mediaType}; charset=utf-8` } }];
    },
    onSubscribe: (req, params) => {
      const prepared = documents.prepare(params.query, params.variables);
      // graphql-http answers errors by the media type, as withoutData does.
      if (!('document' in prepared)) {
        metrics.graphqlRefusal();
        return prepared.errors;
      }
      const { document } = prepared;
      const kind = req.context.state.credential?.kind;
      const actsAsProfile = kind !== 'apiKey' && kind !== 'operator';
      if (!actsAsProfile && !selectsOnlyIntrospection(document, params.operationName)) {
        throw forbidden(`An ${kind === 'operator' ? 'operator\'s console session' : 'API key'} can only run introspection (__schema, __type, __typename): it acts as no profile`, {
          instruction: 'Use Basic Auth with a profile id and your API key, or a session token from POST /v1/users/sessions.',
        });
      }
      const operation = getOperationAST(document, params.operationName);
      if (operation) metrics.graphqlOperation(operation.operation, operation.name?.value, prepared.cost);
      else metrics.graphqlRefusal();
      // An API key's introspection runs without a context: no resolver could reach a profile's data through it.
      const contextValue = actsAsProfile ? contextFor(req.context, document, params.operationName) : undefined;
      return { schema, document, variableValues: params.variables, operationName: params.operationName, contextValue };
    },
  });
}

/**
 * graphql-http's refusals of the HTTP exchange itself (not GraphQL results): answered like every other
 * refusal, in the contract's error body with requestId and errorId, for the whole request.
 */
const HTTP_REFUSALS: Record<number, { code: ErrorCode; message: string; instruction: string }> = {
  405: { code: 'METHOD_NOT_ALLOWED', message: 'This operation cannot run over this method', instruction: 'Send mutations with POST; GET runs queries only.' },
  406: { code: 'NOT_ACCEPTABLE', message: 'No acceptable response media type', instruction: 'Accept application/graphql-response+json or application/json (UTF-8).' },
  415: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported request media type', instruction: 'Send the body as JSON with Content-Type: application/json (UTF-8).' },
};

function httpRefusal(status: number, refused: { code: ErrorCode; message: string; instruction: string }, body: string | null | undefined, headers: Record<string, string> | undefined): AppError {
  let message = refused.message;
  try {
    message = (JSON.parse(body ?? '') as { errors?: Array<{ message?: string }> }).errors?.[0]?.message ?? message;
  } catch {
    // graphql-http sent no body: keep ours
  }
  const allow = headers?.allow ?? headers?.Allow;
  return new AppError(status, refused.code, message, { instruction: refused.instruction, headers: allow ? { Allow: allow } : {} });
}

/** The media type graphql-http answers with for this Accept header: the first acceptable entry (it refuses a request with none, 406). */
function negotiatedMediaType(accept: string): 'application/json' | 'application/graphql-response+json' {
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType, ...parameters] = entry.split(';');
    const charset = parameters.find((parameter) => parameter.startsWith('charset=')) ?? 'charset=utf-8';
    if (mediaType === 'application/graphql-response+json' && charset === 'charset=utf-8') return mediaType;
    if ((mediaType === 'application/json' || mediaType === 'application/*' || mediaType === '*/*') && (charset === 'charset=utf-8' || charset === 'charset=utf8')) return 'application/json';
  }
  return 'application/json';
}
