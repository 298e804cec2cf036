/**
 * GraphQL fields of a type computed from its stored source alone (a row, a view, an entity): public
 * ids, display names, signs. The GraphQL front door serves them as plain properties of a presented
 * copy of the source instead of as resolvers (src/graphql/plain-fields.ts). Cheap and synchronous
 * only: anything that loads or awaits stays a resolver.
 */
export type PlainFields<S = never> = Record<string, (source: S) => unknown>;
