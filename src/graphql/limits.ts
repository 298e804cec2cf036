import { Kind, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLSchema, type SelectionSetNode, getNamedType, isListType, isNonNullType, isObjectType, isInterfaceType, type GraphQLOutputType, type GraphQLField, type GraphQLNamedType, type OperationDefinitionNode } from 'graphql';

/**
 * The limits the schema's description promises. A document over `tokens`, `fields`, `depth` or
 * `aliases` is refused before it is validated or compiled, over `cost` before it runs; a response
 * (or a subscription's event) over `responseBytes` is refused instead of sent, measured before its
 * text is written (src/graphql/result-size.ts).
 */
export const LIMITS = { depth: 10, aliases: 30, tokens: 2000, fields: 400, cost: 5000, responseBytes: 1024 * 1024 } as const;

const LIST_FACTOR = 10;
/**
 * Scalars whose value is a JSON object of many entries (metadata holds up to 50 values of 500
 * characters): each costs LIST_FACTOR, like the list of records it is as large as, where the other
 * scalars are free.
 */
const JSON_OBJECTS = new Set(['Metadata', 'JSONObject']);
/** The Relay pages: a field returning one runs what is inside it once per record of the page asked for. */
const PAGES = new Set(['TransactionConnection', 'HoldingConnection', 'InvestmentTransactionConnection', 'RecurringStreamConnection', 'StatementConnection']);
const DEFAULT_PAGE = 25;
const MAX_PAGE = 100;

/** What one operation selects once every fragment spread is replaced by the fragment's selections. */
export interface Shape {
  /** Field selections, introspection fields included. */
  fields: number;
  /** Nested selection levels, introspection fields not included. */
  depth: number;
  /** Aliased field selections, introspection fields included. */
  aliases: number;
}

const EMPTY: Shape = { fields: 0, depth: 0, aliases: 0 };

/**
 * The shape of each operation of a document, in document order. Each fragment is measured once and
 * its shape reused at every spread, so the walk is linear in the document's size, not in its
 * expansion (ten fragments each spreading the next ten times expand to ten billion fields). Needs
 * no schema, so it runs before validation (quadratic in the expanded fields) and compilation
 * (linear in them).
 */
export function measureShapes(document: DocumentNode): Shape[] {
  const spread = memoisedFragments(document, EMPTY, (fragment, spread) => shapeOf(fragment.selectionSet, spread));
  return operationsOf(document).map((operation) => shapeOf(operation.selectionSet, spread));
}

function shapeOf(selectionSet: SelectionSetNode, spread: (name: string) => Shape): Shape {
  const shape = { ...EMPTY };
  for (const selection of selectionSet.selections) {
    const inner = selection.kind === Kind.FRAGMENT_SPREAD ? spread(selection.name.value) : selection.selectionSet ? shapeOf(selection.selectionSet, spread) : EMPTY;
    shape.fields += inner.fields;
    shape.aliases += inner.aliases;
    if (selection.kind !== Kind.FIELD) {
      shape.depth = Math.max(shape.depth, inner.depth);
      continue;
    }
    shape.fields += 1;
    if (selection.alias) shape.aliases += 1;
    // Introspection's own nesting is bounded by graphql's MaxIntrospectionDepthRule.
    if (!selection.name.value.startsWith('__')) shape.depth = Math.max(shape.depth, 1 + inner.depth);
  }
  return shape;
}

/** Fields, depth and aliases as contracts/schema.graphql describes them: what is wrong, or undefined. */
export function checkShape(document: DocumentNode): string | undefined {
  for (const shape of measureShapes(document)) {
    if (shape.fields > LIMITS.fields) return `The operation selects ${shape.fields} fields once its fragments are expanded; at most ${LIMITS.fields} are allowed`;
    if (shape.depth > LIMITS.depth) return `Query depth ${shape.depth} exceeds the limit of ${LIMITS.depth} nested selection levels`;
    if (shape.aliases > LIMITS.aliases) return `The operation uses ${shape.aliases} aliases; at most ${LIMITS.aliases} are allowed`;
  }
  return undefined;
}

/**
 * The cost of each operation of a validated document, in document order: every field that returns
 * an object costs 1 and every `Metadata` or `JSONObject` field 10, times how often it can run
 * (inside a page, such as `transactions`, the page size asked for, inside other lists 10): a list
 * costs what its records can hold, not only the fields it names. Introspection fields are free
 * (their size is bounded by `fields`, `aliases` and the response size). A fragment's cost is
 * measured once, for one run of it, and scaled by the multiplier at each spread.
 */
export function measureCosts(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | null | undefined): number[] {
  const values = variables ?? {};
  const costOf = (selectionSet: SelectionSetNode, parent: GraphQLNamedType | undefined, spread: (name: string) => number): number => {
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        cost += spread(selection.name.value);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        cost += costOf(selection.selectionSet, selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent, spread);
      } else if (!selection.name.value.startsWith('__') && (isObjectType(parent) || isInterfaceType(parent))) {
        const field = parent.getFields()[selection.name.value];
        if (!field) continue;
        if (selection.selectionSet) cost += 1 + timesRun(parent, field, selection, values) * costOf(selection.selectionSet, getNamedType(field.type), spread);
        else if (JSON_OBJECTS.has(getNamedType(field.type).name)) cost += LIST_FACTOR;
      }
    }
    return cost;
  };
  const spread = memoisedFragments(document, 0, (fragment, spread) => costOf(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value), spread));
  return operationsOf(document).map((operation) => {
    const root = schema.getRootType(operation.operation);
    return root ? costOf(operation.selectionSet, root, spread) : 0;
  });
}

/** The cost the limit applies to, which depends on variables (`first: $n`): the costliest operation's. */
export function documentCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | null | undefined): number {
  return Math.max(0, ...measureCosts(schema, document, variables));
}

/** The cost limit: what is wrong with a document of this cost, or undefined. */
export function checkCost(cost: number): string | undefined {
  return cost > LIMITS.cost ? `Query cost ${cost} exceeds the limit of ${LIMITS.cost} (see the Limits section of the schema description)` : undefined;
}

function operationsOf(document: DocumentNode): OperationDefinitionNode[] {
  return document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
}

/**
 * A lookup of each fragment's measure by name, measured on first use and remembered. An unknown
 * fragment, or one spread inside its own expansion (both refused by validation), measures `empty`.
 */
function memoisedFragments<T>(document: DocumentNode, empty: T, measure: (fragment: FragmentDefinitionNode, spread: (name: string) => T) => T): (name: string) => T {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const measured = new Map<string, T>();
  const spread = (name: string): T => {
    const known = measured.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    if (!fragment) return empty;
    measured.set(name, empty);
    const value = measure(fragment, spread);
    measured.set(name, value);
    return value;
  };
  return spread;
}

/** How many times the selections under a field can run for each time the field runs. */
function timesRun(parent: GraphQLNamedType, field: GraphQLField<unknown, unknown>, node: FieldNode, variables: Record<string, unknown>): number {
  // A page's `edges` and `nodes` are the page itself, already counted by the field that returned it.
  if (PAGES.has(parent.name)) return 1;
  if (PAGES.has(getNamedType(field.type).name)) {
    const size = (name: string) => {
      const argument = node.arguments?.find((candidate) => candidate.name.value === name);
      if (!argument) return undefined;
      const value = argument.value.kind === Kind.VARIABLE ? variables[argument.value.name.value] : argument.value.kind === Kind.INT ? Number(argument.value.value) : undefined;
      return typeof value === 'number' ? value : undefined;
    };
    return Math.max(0, Math.min(MAX_PAGE, size('first') ?? size('last') ?? DEFAULT_PAGE));
  }
  return isList(field.type) ? LIST_FACTOR : 1;
}

function isList(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}
