import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/** A resolver's view of what its document selects below it. */
export type SelectionInfo = Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>;

const remembered = new WeakMap<FieldNode, ReadonlySet<string>>();

/**
 * The names of the fields a document selects on the objects reached from the resolved field by one
 * of `paths` (for a Relay page: `[['edges', 'node'], ['nodes']]`), through fragments and inline
 * fragments. `@skip` and `@include` are not evaluated, so the set may hold more than a request reads,
 * never less. Remembered per field node: a cached document's nodes are the same objects on every
 * request, and one field node is resolved by one resolver, always with the same paths.
 */
export function selectedFields(info: SelectionInfo, paths: ReadonlyArray<readonly string[]>): ReadonlySet<string> {
  const key = info.fieldNodes[0]!;
  let names = remembered.get(key);
  if (!names) {
    const found = new Set<string>();
    for (const path of paths) for (const node of info.fieldNodes) collect(node.selectionSet, path, info.fragments, found);
    names = found;
    remembered.set(key, names);
  }
  return names;
}

/** Adds to `found` the names selected at the end of `path` below `selectionSet`. */
function collect(selectionSet: SelectionSetNode | undefined, path: readonly string[], fragments: SelectionInfo['fragments'], found: Set<string>): void {
  if (!selectionSet) return;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      if (path.length === 0) found.add(name);
      else if (name === path[0]) collect(selection.selectionSet, path.slice(1), fragments, found);
    } else {
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments[selection.name.value];
      collect(fragment?.selectionSet, path, fragments, found);
    }
  }
}
