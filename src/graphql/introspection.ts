import { getOperationAST, Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

const INTROSPECTION_FIELDS = new Set(['__schema', '__type', '__typename']);

/**
 * Whether the operation a request runs (the one `operationName` names, or the document's only one)
 * selects nothing but introspection fields at its root, through fragments too. Only that operation
 * runs, so the document's other operations do not matter. When no operation can be selected, false.
 * For a validated document (fragment cycles are refused by validation).
 */
export function selectsOnlyIntrospection(document: DocumentNode, operationName: string | null | undefined): boolean {
  const operation = getOperationAST(document, operationName);
  if (!operation) return false;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  // Each fragment is judged once, however often it is spread.
  const judged = new Map<string, boolean>();
  const onlyIntrospection = (selectionSet: SelectionSetNode): boolean =>
    selectionSet.selections.every((selection) => {
      if (selection.kind === Kind.FIELD) return INTROSPECTION_FIELDS.has(selection.name.value);
      if (selection.kind === Kind.INLINE_FRAGMENT) return onlyIntrospection(selection.selectionSet);
      const name = selection.name.value;
      if (!judged.has(name)) {
        const fragment = fragments.get(name);
        judged.set(name, fragment !== undefined && onlyIntrospection(fragment.selectionSet));
      }
      return judged.get(name)!;
    });
  return onlyIntrospection(operation.selectionSet);
}
