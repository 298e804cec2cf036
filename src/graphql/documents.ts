import { GraphQLError, parse, specifiedRules, validate, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { compileDirectAnswer, type DirectAnswer, type WrittenAnswer } from './direct-answers.ts';
import { requestError } from './errors.ts';
import { checkCost, checkShape, documentCost, LIMITS } from './limits.ts';

/**
 * What a query text turned into: a valid document, or why it cannot run. `cost` is remembered once
 * it was measured without reading a variable (`first: 100`, not `first: $n`): it is then the same
 * for every request.
 */
type Parsed = { document: DocumentNode; cost?: number } | { errors: GraphQLError[] };
/** A runnable document and its cost with the request's variables, or why it cannot run. */
export type Prepared = { document: DocumentNode; cost: number } | { errors: GraphQLError[] };

const CACHE_ENTRIES = 1000;

/** A (document, operation) compiled: graphql-jit's function (or why it cannot run), and its direct answer when covered. */
interface Compiled {
  jit: CompiledQuery | ExecutionResult;
  direct: DirectAnswer | undefined;
}

/**
 * Parses, checks and validates query texts once: for small queries validation costs more than
 * execution, and clients send the same few texts again and again. Bounded (least recently used out).
 * The cost limit may depend on variables (`first: $n`): it is checked on every request, measured again
 * only for documents whose cost read a variable.
 */
export class DocumentCache {
  readonly #schema: GraphQLSchema;
  readonly #hideSuggestions: boolean;
  readonly #directAnswers: boolean;
  readonly #entries = new Map<string, Parsed>();
  readonly #compiled = new WeakMap<DocumentNode, Map<string, Compiled>>();

  /** `directAnswers: false` runs every document through graphql-jit (the tests compare both ways). */
  constructor(schema: GraphQLSchema, options: { hideSuggestions: boolean; directAnswers?: boolean }) {
    this.#schema = schema;
    this.#hideSuggestions = options.hideSuggestions;
    this.#directAnswers = options.directAnswers ?? true;
  }

  prepare(query: string, variables: Record<string, unknown> | null | undefined): Prepared {
    let prepared = this.#entries.get(query);
    if (prepared) {
      this.#entries.delete(query);
    } else {
      prepared = this.#prepare(query);
      if (this.#entries.size >= CACHE_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(query, prepared);
    if (!('document' in prepared)) return prepared;
    const cost = prepared.cost ?? this.#measure(prepared, variables);
    const problem = checkCost(cost);
    return problem ? { errors: [overLimit(problem)] } : { document: prepared.document, cost };
  }

  /**
   * Runs a prepared document. A query that `direct-answers.ts` covers is answered as JSON text
   * written while it runs; every other document, and a covered one it declines (an error, a value
   * of no JSON form), runs with graphql-jit: each (document, operation) is compiled once into a
   * plain function, which executes a page of a hundred transactions several times faster than
   * graphql-js's generic walk. Same semantics (it reuses graphql-js's coercion and errors).
   */
  async execute(args: ExecutionArgs): Promise<ExecutionResult | WrittenAnswer> {
    const compiled = this.#compile(args);
    const written = await compiled.direct?.(args.contextValue, args.variableValues);
    if (written) return written;
    const { jit } = compiled;
    return isCompiledQuery(jit) ? jit.query(args.rootValue, args.contextValue, args.variableValues) : jit;
  }

  #compile(args: ExecutionArgs): Compiled {
    let byOperation = this.#compiled.get(args.document);
    if (!byOperation) {
      byOperation = new Map();
      this.#compiled.set(args.document, byOperation);
    }
    const key = args.operationName ?? '';
    let compiled = byOperation.get(key);
    if (!compiled) {
      // Values of enums and of GraphQL's own scalars are written as handed over, not serialized: serializing
      // passed each one, with a new error location and path array, to a runtime check per field and
      // edge (~80 KB of a 100-transaction page). Resolvers and rows hand over exactly those values (typed
      // by generated/graphql.ts; test/http/graphql-leaf-values.test.ts reads every field to prove it).
      // The service's own scalars (Decimal, Date, DateTime, …) are still serialized.
      const jit = compileQuery(this.#schema, args.document, args.operationName ?? undefined, { disableLeafSerialization: true });
      const direct = this.#directAnswers && isCompiledQuery(jit) ? compileDirectAnswer(this.#schema, args.document, args.operationName ?? undefined) : undefined;
      compiled = { jit, direct };
      byOperation.set(key, compiled);
    }
    return compiled;
  }

  /** The document's cost with these variables; remembered on `prepared` when no variable was read. */
  #measure(prepared: { document: DocumentNode; cost?: number }, variables: Record<string, unknown> | null | undefined): number {
    let read = false;
    const watched = new Proxy(variables ?? {}, {
      get: (target, name) => {
        read = true;
        return Reflect.get(target, name) as unknown;
      },
    });
    const cost = documentCost(this.#schema, prepared.document, watched);
    if (!read) prepared.cost = cost;
    return cost;
  }

  #prepare(query: string): Parsed {
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: LIMITS.tokens });
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      return { errors: [/tokens/.test(error.message) ? overLimit(`The document has more than ${LIMITS.tokens} tokens, the limit`) : error] };
    }
    // Before validation: its OverlappingFieldsCanBeMerged rule is quadratic in the expanded fields, and
    // graphql-jit's compiler (after it) walks every fragment expansion.
    const problem = checkShape(document);
    if (problem) return { errors: [overLimit(problem)] };
    const errors = validate(this.#schema, document, specifiedRules);
    if (errors.length === 0) return { document };
    return { errors: this.#hideSuggestions ? errors.map(withoutSuggestions) : [...errors] };
  }
}

/** A document over one of the limits in contracts/schema.graphql: it never runs. */
const overLimit = (problem: string) => requestError(problem, 'QUERY_TOO_COMPLEX');

/** "Cannot query field x. Did you mean y?" tells a stranger the schema's names; outside development, drop the hint. */
function withoutSuggestions(error: GraphQLError): GraphQLError {
  const message = error.message.replace(/ Did you mean .*\?$/, '');
  return message === error.message ? error : new GraphQLError(message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path });
}
