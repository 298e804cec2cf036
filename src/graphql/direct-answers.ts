import {
  getArgumentValues,
  getVariableValues,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { LIMITS } from './limits.ts';
import { jsonLength } from './result-size.ts';

/** A response path, as resolvers read it in their resolve info. */
type Path = GraphQLResolveInfo['path'];

/**
 * A query's answer as JSON text: the exact text `JSON.stringify` writes of the general executor's
 * result (`{"data":{…}}`), or `tooLarge` when the answer was found past LIMITS.responseBytes
 * while it was made (it is then neither made further nor written).
 */
export class WrittenAnswer {
  readonly text: string;
  readonly tooLarge: boolean;
  constructor(text: string, tooLarge: boolean) {
    this.text = text;
    this.tooLarge = tooLarge;
  }
}

/**
 * Runs a compiled document and writes its answer, or declines (undefined) whenever the answer
 * would differ from a plain success: the general executor then runs the document again and
 * answers, errors and all.
 */
export type DirectAnswer = (contextValue: unknown, variables: Record<string, unknown> | null | undefined) => Promise<WrittenAnswer | undefined>;

/**
 * Compiles a query into a function that resolves it straight into the answer's shape: one plain
 * object per selected object, made by a function generated per selection (an object literal of its
 * response keys, in response order), its size counted as it is made; `JSON.stringify` then writes
 * it in one native pass. The general executor (graphql-jit) builds its result through per-field
 * code with its own error and path bookkeeping, `result-size.ts` walks that result once more, and
 * then it is written. Each selection is planned once: fragments and aliases merged as graphql-js's
 * field collection merges them, a leaf's handling chosen by its type, so that the objects hold the
 * very values the general executor's result holds. Fields are read exactly as it reads them: the schema's own
 * resolvers with coerced arguments and a resolve info, property reads for fields without one
 * (presented objects' getters included, src/graphql/plain-fields.ts); enums and GraphQL's own
 * scalars written as handed over, the service's scalars through their `serialize`.
 *
 * It covers what it can answer exactly and declines everything else, for the general executor:
 * - when compiling (undefined): mutations and subscriptions, `@skip`/`@include`, introspection
 *   other than `__typename`, interfaces and unions, types with `isTypeOf`, root fields without a
 *   resolver, the alias `__proto__`;
 * - when running: variables or arguments that do not coerce, any error (a resolver's, a scalar's,
 *   null in a non-null position, a promise that rejects), a function value.
 *
 * A field whose resolver hands over a promise is made when it settles: every such field of one
 * depth is awaited at once after the walk that started them, so the loads they started are batched
 * as the general executor batches them, and its key keeps its place in its object. Running a query
 * twice after an error is harmless (queries only read); the second run reuses the request's loaders.
 */
export function compileDirectAnswer(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): DirectAnswer | undefined {
  const operation = operationOf(document, operationName);
  const queryType = schema.getQueryType();
  if (!operation || operation.operation !== OperationTypeNode.QUERY || !queryType) return undefined;
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null) as Record<string, FragmentDefinitionNode>;
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  const planner = new Planner(schema, fragments, operation);
  const fields = planner.fields(queryType, [operation.selectionSet]);
  if (!fields || fields.some((field) => !field.resolve && field.fieldName !== '__typename')) return undefined;
  const variableDefinitions = operation.variableDefinitions ?? [];

  return async (contextValue, variables) => {
    const coerced = getVariableValues(schema, variableDefinitions, variables ?? {});
    if (coerced.errors) return undefined;
    const run: Run = { contextValue, variableValues: coerced.coerced, counted: 0, pending: [] };
    let data: unknown;
    try {
      // Every root field starts before any is awaited, as the general executor runs a query's fields.
      const paths = fields.map((field): Path => ({ prev: undefined, key: field.responseName, typename: queryType.name }));
      const values = fields.map((field, index) => (field.resolve ? field.resolve(undefined, run, paths[index]!) : undefined));
      const settled = await Promise.all(values);
      data = rootObject(fields, settled, run, paths);
      // Promised fields, all of one depth at once (the loads they started are batched as the general executor's are).
      while (run.pending.length > 0) {
        const pending = run.pending;
        run.pending = [];
        const values = await Promise.all(pending.map((entry) => entry.promise));
        pending.forEach((entry, index) => (entry.holder![entry.field.responseName] = madeValue(entry.field, values[index], run, entry.path)));
      }
    } catch (error) {
      // The general executor reads them again (from the loaders' caches); a rejection no one awaits would reach the process.
      for (const entry of run.pending) Promise.resolve(entry.promise).catch(() => undefined);
      if (error === TOO_LARGE) return new WrittenAnswer('', true);
      return undefined;
    }
    return new WrittenAnswer(JSON.stringify({ data }), false);
  };
}

/** One run's state: its context and coerced variables, the JSON characters of the answer made so far (at most its UTF-8 bytes). */
interface Run {
  readonly contextValue: unknown;
  readonly variableValues: Record<string, unknown>;
  counted: number;
  /** Fields whose resolvers handed over promises, to be made when they settle; `holder` is the object they go in, set once it is made. */
  pending: Pending[];
}

interface Pending {
  readonly promise: unknown;
  readonly field: PlannedField;
  readonly path: Path;
  holder: Record<string, unknown> | undefined;
}

/**
 * Makes the answer's value of `value` (of the planned type) and counts it. `path` is the value's
 * response path where a resolver below reads it (`usesPath`), else the nearest one above that is kept.
 */
type Write = (run: Run, value: unknown, path: Path) => unknown;
interface Writer {
  readonly write: Write;
  readonly usesPath: boolean;
}

/** A planned field of an object type: its response key, how it is read, how its value is written. */
interface PlannedField {
  readonly responseName: string;
  readonly fieldName: string;
  /** What its key adds to the text: `"responseName":` and a comma or brace. */
  readonly keyLength: number;
  /** The field's resolver called as the general executor calls it; absent for a property read. */
  readonly resolve: ((source: unknown, run: Run, path: Path) => unknown) | undefined;
  /** Whether its resolver, or one below it, reads the response path. */
  readonly usesPath: boolean;
  readonly write: Write;
}

/** Thrown through the walk when the text passes the response limit (one object, made once: no stack to capture per throw). */
const TOO_LARGE = new Error('The answer passes the response limit');
/** Thrown through the walk for anything only the general executor answers exactly. */
const DECLINED = new Error('Declined: the general executor answers this');

const decline = (): never => {
  throw DECLINED;
};

const isThenable = (value: unknown): boolean => typeof (value as { then?: unknown } | null)?.then === 'function';

class Planner {
  readonly #schema: GraphQLSchema;
  readonly #fragments: Record<string, FragmentDefinitionNode>;
  readonly #operation: OperationDefinitionNode;

  constructor(schema: GraphQLSchema, fragments: Record<string, FragmentDefinitionNode>, operation: OperationDefinitionNode) {
    this.#schema = schema;
    this.#fragments = fragments;
    this.#operation = operation;
  }

  /**
   * The fields selected on `type` by these selection sets, in response order; undefined when not
   * covered. Planning ends: every field below has a selection set of its own in the document, and
   * validation refused fragment cycles.
   */
  fields(type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[]): PlannedField[] | undefined {
    const grouped = new Map<string, FieldNode[]>();
    const visited = new Set<string>();
    for (const selectionSet of selectionSets) if (!this.#collect(type, selectionSet, grouped, visited)) return undefined;
    const planned: PlannedField[] = [];
    for (const [responseName, nodes] of grouped) {
      const field = this.#field(type, responseName, nodes);
      if (!field) return undefined;
      planned.push(field);
    }
    return planned;
  }

  /** graphql-js's field collection (CollectFields) for an object type, declining directives. */
  #collect(type: GraphQLObjectType, selectionSet: SelectionSetNode, grouped: Map<string, FieldNode[]>, visited: Set<string>): boolean {
    for (const selection of selectionSet.selections) {
      if (selection.directives?.length) return false;
      if (selection.kind === Kind.FIELD) {
        const name = selection.alias?.value ?? selection.name.value;
        const nodes = grouped.get(name);
        if (nodes) nodes.push(selection);
        else grouped.set(name, [selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (selection.typeCondition && selection.typeCondition.name.value !== type.name) return false;
        if (!this.#collect(type, selection.selectionSet, grouped, visited)) return false;
      } else {
        const name = selection.name.value;
        if (visited.has(name)) continue;
        visited.add(name);
        const fragment = this.#fragments[name];
        if (!fragment || fragment.directives?.length || fragment.typeCondition.name.value !== type.name) return false;
        if (!this.#collect(type, fragment.selectionSet, grouped, visited)) return false;
      }
    }
    return true;
  }

  #field(parentType: GraphQLObjectType, responseName: string, nodes: FieldNode[]): PlannedField | undefined {
    const fieldName = nodes[0]!.name.value;
    // An object literal's `__proto__` key would set its prototype, not a property.
    if (responseName === '__proto__') return undefined;
    const keyLength = responseName.length + 4;
    if (fieldName === '__typename') {
      const typename = parentType.name;
      return {
        responseName,
        fieldName,
        keyLength,
        resolve: undefined,
        usesPath: false,
        write: (run) => {
          run.counted += typename.length + 2;
          return typename;
        },
      };
    }
    const definition = parentType.getFields()[fieldName];
    if (!definition) return undefined;
    const writer = this.#writer(definition.type, nodes);
    if (!writer) return undefined;
    const resolve = definition.resolve && this.#resolver(parentType, definition, nodes);
    return { responseName, fieldName, keyLength, resolve, usesPath: resolve !== undefined || writer.usesPath, write: writer.write };
  }

  /** Calls the field's resolver with its coerced arguments and a resolve info, as the general executor does. */
  #resolver(parentType: GraphQLObjectType, definition: GraphQLField<unknown, unknown>, fieldNodes: FieldNode[]): PlannedField['resolve'] {
    const resolve = definition.resolve!;
    const schema = this.#schema;
    const fragments = this.#fragments;
    const operation = this.#operation;
    const withoutArguments = definition.args.length === 0 ? {} : undefined;
    return (source, run, path) => {
      const info: GraphQLResolveInfo = {
        fieldName: definition.name,
        fieldNodes,
        returnType: definition.type,
        parentType,
        path,
        schema,
        fragments,
        rootValue: undefined,
        operation,
        variableValues: run.variableValues,
      };
      const args = withoutArguments ?? getArgumentValues(definition, fieldNodes[0]!, run.variableValues);
      return resolve(source, args, run.contextValue, info);
    };
  }

  /** How a value of `type` selected by `nodes` is written; undefined when not covered. */
  #writer(type: GraphQLOutputType, nodes: FieldNode[]): Writer | undefined {
    const nonNull = isNonNullType(type);
    const writer = this.#valueWriter(nonNull ? type.ofType : type, nodes);
    if (!writer) return undefined;
    const write = writer.write;
    return {
      usesPath: writer.usesPath,
      write: (run, value, path) => {
        if (value == null) {
          if (nonNull) decline();
          run.counted += 4;
          return null;
        }
        if (value instanceof Error || isThenable(value)) decline();
        return write(run, value, path);
      },
    };
  }

  /** How a value (neither null nor an error) of a nullable type is written. */
  #valueWriter(type: GraphQLOutputType, nodes: FieldNode[]): Writer | undefined {
    if (isEnumType(type) || (isScalarType(type) && isSpecifiedScalarType(type))) return { usesPath: false, write: asHanded };
    if (isScalarType(type)) {
      const write: Write = (run, value, path) => {
        let serialized: unknown;
        try {
          serialized = type.serialize(value);
        } catch {
          decline();
        }
        // As graphql-jit's leaf serializer: no value is an error.
        if (serialized === undefined || Number.isNaN(serialized)) decline();
        return asHanded(run, serialized, path);
      };
      return { usesPath: false, write };
    }
    if (isListType(type)) {
      const item = this.#writer(type.ofType, nodes);
      if (!item) return undefined;
      const { usesPath, write } = item;
      return {
        usesPath,
        write: (run, value, path) => {
          if (!Array.isArray(value)) decline();
          const items = value as unknown[];
          const made = new Array<unknown>(items.length);
          run.counted += 2 + items.length;
          for (let index = 0; index < items.length; index++) made[index] = write(run, items[index], usesPath ? { prev: path, key: index, typename: undefined } : path);
          return made;
        },
      };
    }
    if (isObjectType(type)) {
      if (type.isTypeOf) return undefined;
      const fields = this.fields(
        type,
        nodes.map((node) => node.selectionSet).filter((set) => set !== undefined),
      );
      if (!fields) return undefined;
      const make = objectMaker(fields);
      const typename = type.name;
      return { usesPath: fields.some((field) => field.usesPath), write: (run, value, path) => made(make, fields, value, run, path, typename) };
    }
    return undefined;
  }
}

/**
 * A leaf's value as the general executor's result holds it: an enum's or built-in scalar's value as
 * handed over, a service scalar's serialized. Counted as `result-size.ts` counts it.
 */
const asHanded: Write = (run, value) => {
  run.counted = typeof value === 'string' ? run.counted + value.length + 2 : jsonLength(value, LIMITS.responseBytes - run.counted) + run.counted;
  return value;
};

/**
 * One field's value in the answer: read as the general executor reads it (its resolver, else the
 * source's property), made, counted. The answer is given up once past the limit: a record's
 * metadata selected under many aliases would otherwise be made whole first.
 */
function answerOf(field: PlannedField, source: Record<string, unknown>, run: Run, path: Path, typename: string): unknown {
  const fieldPath = field.usesPath ? { prev: path, key: field.responseName, typename } : path;
  const read = field.resolve ? field.resolve(source, run, fieldPath) : field.fieldName === '__typename' ? undefined : source[field.fieldName];
  run.counted += field.keyLength;
  if (field.resolve && isThenable(read)) {
    run.pending.push({ promise: read, field, path: fieldPath, holder: undefined });
    return undefined;
  }
  return madeValue(field, read, run, fieldPath);
}

/** A field's value (read or settled) made into the answer's. */
function madeValue(field: PlannedField, read: unknown, run: Run, path: Path): unknown {
  if (typeof read === 'function') decline();
  const made = field.write(run, read, path);
  if (run.counted > LIMITS.responseBytes) throw TOO_LARGE;
  return made;
}

type MakeObject = (fields: readonly PlannedField[], answer: typeof answerOf, source: unknown, run: Run, path: Path, typename: string) => Record<string, unknown>;

/**
 * Makes one object of a selection; its promised fields (pending since `from`, not claimed by an
 * object made inside it) will go in it. Fields are made in order, so those objects claimed theirs first.
 */
function made(make: MakeObject, fields: readonly PlannedField[], source: unknown, run: Run, path: Path, typename: string): Record<string, unknown> {
  const from = run.pending.length;
  const object = make(fields, answerOf, source, run, path, typename);
  for (let index = from; index < run.pending.length; index++) run.pending[index]!.holder ??= object;
  return object;
}

/**
 * A function making one selection's objects: an object literal of its response keys in response
 * order, so that every object of the selection has one shape (as graphql-jit's generated code makes
 * them). Response names are GraphQL names (the parser accepts nothing else), written as JSON strings.
 */
function objectMaker(fields: readonly PlannedField[]): MakeObject {
  const entries = fields.map((field, index) => `${JSON.stringify(field.responseName)}: answer(fields[${index}], source, run, path, typename)`);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- built from the document's response names, GraphQL names
  return new Function('fields', 'answer', 'source', 'run', 'path', 'typename', `run.counted += 2; return { ${entries.join(', ')} };`) as MakeObject;
}

/** The root's object: its fields' values already settled. */
function rootObject(fields: readonly PlannedField[], settled: unknown[], run: Run, paths: Path[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  run.counted += 10;
  fields.forEach((field, index) => {
    data[field.responseName] = field.write(run, settled[index], paths[index]!);
    run.counted += field.keyLength;
    if (run.counted > LIMITS.responseBytes) throw TOO_LARGE;
  });
  return data;
}

function operationOf(document: DocumentNode, operationName: string | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  if (operationName === undefined) return operations.length === 1 ? operations[0] : undefined;
  return operations.find((operation) => operation.name?.value === operationName);
}
