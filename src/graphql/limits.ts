import { Kind, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLSchema, type SelectionSetNode, getNamedType, isListType, isNonNullType, isObjectType, isInterfaceType, type GraphQLOutputType, type GraphQLField, type GraphQLNamedType } from 'graphql';

/** The limits the schema's description promises; a document over any of them is refused before it runs. */
export const LIMITS = { depth: 10, aliases: 30, tokens: 2000, cost: 5000 } as const;

const LIST_FACTOR = 10;
const DEFAULT_PAGE = 25;
const MAX_PAGE = 100;

/**
 * Checks depth, aliases and cost as contracts/schema.graphql describes them and returns what is
 * wrong, or undefined. Tokens are limited by the parser (`maxTokens`). Introspection fields do not
 * count. Cost: every field that returns an object costs 1, times how often it can run: inside
 * `transactions` the page size asked for, inside other lists 10.
 */
export function checkLimits(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | null | undefined): string | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const root = definition.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
    if (!root) continue;
    const walk = { aliases: 0, depth: 0, cost: 0 };
    visit(definition.selectionSet, root, 1, 1, walk, fragments, variables ?? {}, new Set());
    if (walk.depth > LIMITS.depth) return `Query depth ${walk.depth} exceeds the limit of ${LIMITS.depth} nested selection levels`;
    if (walk.aliases > LIMITS.aliases) return `The operation uses ${walk.aliases} aliases; at most ${LIMITS.aliases} are allowed`;
    if (walk.cost > LIMITS.cost) return `Query cost ${walk.cost} exceeds the limit of ${LIMITS.cost} (see the Limits section of the schema description)`;
  }
  return undefined;
}

function visit(
  selectionSet: SelectionSetNode,
  parent: GraphQLNamedType,
  level: number,
  multiplier: number,
  walk: { aliases: number; depth: number; cost: number },
  fragments: Map<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  visiting: Set<string>,
): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = fragments.get(selection.name.value);
      // A cycle is a validation error reported elsewhere; stop here rather than loop.
      if (!fragment || visiting.has(fragment.name.value)) continue;
      visiting.add(fragment.name.value);
      visit(fragment.selectionSet, parent, level, multiplier, walk, fragments, variables, visiting);
      visiting.delete(fragment.name.value);
      continue;
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      visit(selection.selectionSet, parent, level, multiplier, walk, fragments, variables, visiting);
      continue;
    }
    if (selection.name.value.startsWith('__')) continue;
    if (selection.alias) walk.aliases++;
    walk.depth = Math.max(walk.depth, level);
    const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
    if (!field || !selection.selectionSet) continue;
    walk.cost += multiplier;
    const inner = multiplier * timesRun(parent, field, selection, variables);
    visit(selection.selectionSet, getNamedType(field.type), level + 1, inner, walk, fragments, variables, visiting);
  }
}

/** How many times the selections under a field can run for each time the field runs. */
function timesRun(parent: GraphQLNamedType, field: GraphQLField<unknown, unknown>, node: FieldNode, variables: Record<string, unknown>): number {
  // A page's `edges` and `nodes` are the page itself, already counted by `transactions`.
  if (parent.name === 'TransactionConnection') return 1;
  if (field.name === 'transactions') {
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
