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

/** A response path, as resolvers read it in their resolve info. */
type Path = GraphQLResolveInfo['path'];

/**
 * A query's answer written as JSON text while its document runs: the exact text `JSON.stringify`
 * writes of the general executor's result (`{"data":{…}}`), or `tooLarge` when the text passed
 * LIMITS.responseBytes characters (it is then not written further).
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
 * Compiles a query into a function that resolves it and writes its JSON answer in one walk, with no
 * result object in between (graphql-jit builds the result, then `result-size.ts` walks it, then
 * `JSON.stringify` walks it again). Each selection is planned once: response keys written ahead of
 * time, fragments and aliases merged as graphql-js's field collection merges them, a leaf's writer
 * chosen by its type. Fields are read exactly as the general executor reads them: the schema's own
 * resolvers with coerced arguments and a resolve info, property reads for fields without one
 * (presented objects' getters included, src/graphql/plain-fields.ts); enums and GraphQL's own
 * scalars written as handed over, the service's scalars through their `serialize`.
 *
 * It covers what it can answer exactly and declines everything else, for the general executor:
 * - when compiling (undefined): mutations and subscriptions, `@skip`/`@include`, introspection
 *   other than `__typename`, interfaces and unions, types with `isTypeOf`, root fields without a resolver;
 * - when running: variables or arguments that do not coerce, any error (a resolver's, a scalar's,
 *   null in a non-null position), a value of no JSON form. A resolver below the root that hands
 *   over a promise declines too, and its document is left to the general executor from then on:
 *   awaiting field by field would split the batch loads the general executor makes in one go.
 *
 * Running a query twice is harmless (queries only read); the second run reuses the request's
 * loaders, so what the first loaded is not read again.
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
  let covered = true;

  return async (contextValue, variables) => {
    if (!covered) return undefined;
    const coerced = getVariableValues(schema, variableDefinitions, variables ?? {});
    if (coerced.errors) return undefined;
    const run: Run = { contextValue, variableValues: coerced.coerced, text: '', promised: false };
    try {
      // Every root field starts before any is awaited, as the general executor runs a query's fields.
      const paths = fields.map((field): Path => ({ prev: undefined, key: field.responseName, typename: queryType.name }));
      const values = fields.map((field, index) => (field.resolve ? field.resolve(undefined, run, paths[index]!) : undefined));
      const settled = await Promise.all(values);
      run.text = '{"data":{';
      fields.forEach((field, index) => {
        run.text += field.key;
        field.write(run, settled[index], paths[index]!);
        if (run.text.length > LIMITS.responseBytes) throw TOO_LARGE;
      });
      run.text += '}}';
    } catch (error) {
      if (error === TOO_LARGE) return new WrittenAnswer('', true);
      if (run.promised) covered = false;
      return undefined;
    }
    return new WrittenAnswer(run.text, false);
  };
}

/** One run's state: its context and coerced variables, the text written so far. */
interface Run {
  readonly contextValue: unknown;
  readonly variableValues: Record<string, unknown>;
  text: string;
  /** A resolver below the root handed over a promise. */
  promised: boolean;
}

/**
 * Writes `value` (of the planned type) onto the run's text. `path` is the value's response path
 * where a resolver below reads it (`usesPath`), else the nearest one above that is kept.
 */
type Write = (run: Run, value: unknown, path: Path) => void;
interface Writer {
  readonly write: Write;
  readonly usesPath: boolean;
}

/** A planned field of an object type: its response key, how it is read, how its value is written. */
interface PlannedField {
  readonly responseName: string;
  readonly fieldName: string;
  /** `"responseName":`, with the comma before it for all fields but an object's first. */
  readonly key: string;
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
      const field = this.#field(type, responseName, nodes, planned.length === 0);
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

  #field(parentType: GraphQLObjectType, responseName: string, nodes: FieldNode[], first: boolean): PlannedField | undefined {
    const fieldName = nodes[0]!.name.value;
    const key = `${first ? '' : ','}${JSON.stringify(responseName)}:`;
    if (fieldName === '__typename') {
      const typename = JSON.stringify(parentType.name);
      return { responseName, fieldName, key, resolve: undefined, usesPath: false, write: (run) => (run.text += typename) };
    }
    const definition = parentType.getFields()[fieldName];
    if (!definition) return undefined;
    const writer = this.#writer(definition.type, nodes);
    if (!writer) return undefined;
    const resolve = definition.resolve && this.#resolver(parentType, definition, nodes);
    return { responseName, fieldName, key, resolve, usesPath: resolve !== undefined || writer.usesPath, write: writer.write };
  }

  /** Calls the field's resolver with its coerced arguments and a resolve info, as the general executor does. */
  #resolver(parentType: GraphQLObjectType, definition: GraphQLField<unknown, unknown>, fieldNodes: FieldNode[]): PlannedField['resolve'] {
    const resolve = definition.resolve!;
    const schema = this.#schema;
    const fragments = this.#fragments;
    const operation = this.#operation;
    const atRoot = parentType === schema.getQueryType();
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
      const value = resolve(source, args, run.contextValue, info);
      if (!atRoot && isThenable(value)) {
        run.promised = true;
        decline();
      }
      return value;
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
          run.text += 'null';
        } else if (value instanceof Error || isThenable(value)) {
          decline();
        } else {
          write(run, value, path);
        }
      },
    };
  }

  /** How a value (neither null nor an error) of a nullable type is written. */
  #valueWriter(type: GraphQLOutputType, nodes: FieldNode[]): Writer | undefined {
    if (isEnumType(type) || (isScalarType(type) && isSpecifiedScalarType(type))) return { usesPath: false, write: writeAsHanded };
    if (isScalarType(type)) {
      const write: Write = (run, value, path) => {
        let serialized: unknown;
        try {
          serialized = type.serialize(value);
        } catch {
          decline();
        }
        writeAsHanded(run, serialized, path);
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
          run.text += '[';
          for (let index = 0; index < items.length; index++) {
            if (index > 0) run.text += ',';
            write(run, items[index], usesPath ? { prev: path, key: index, typename: undefined } : path);
          }
          run.text += ']';
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
      const typename = type.name;
      const write: Write = (run, value, path) => {
        const source = value as Record<string, unknown>;
        run.text += '{';
        for (const field of fields) {
          run.text += field.key;
          const fieldPath = field.usesPath ? { prev: path, key: field.responseName, typename } : path;
          const read = field.resolve ? field.resolve(source, run, fieldPath) : field.fieldName === '__typename' ? undefined : source[field.fieldName];
          if (typeof read === 'function') decline();
          field.write(run, read, fieldPath);
          // The text is given up once past the limit: a record's metadata selected under many aliases would otherwise be written whole first.
          if (run.text.length > LIMITS.responseBytes) throw TOO_LARGE;
        }
        run.text += '}';
      };
      return { usesPath: fields.some((field) => field.usesPath), write };
    }
    return undefined;
  }
}

/** An enum's or built-in scalar's value (or a serialized one) as `JSON.stringify` writes it inside a result. */
const writeAsHanded: Write = (run, value) => {
  if (value === undefined || (typeof value === 'number' && Number.isNaN(value))) decline();
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) decline();
  run.text += text;
};

function operationOf(document: DocumentNode, operationName: string | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  if (operationName === undefined) return operations.length === 1 ? operations[0] : undefined;
  return operations.find((operation) => operation.name?.value === operationName);
}
