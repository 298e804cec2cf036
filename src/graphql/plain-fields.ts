import { getNamedType, isObjectType, type GraphQLField, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { PlainFields } from '../api-kit/plain-fields.ts';

/** Where a presented object keeps the source it was made from. */
const SOURCE = Symbol('source');

type Presented = Record<string | symbol, unknown>;
type Present = (value: unknown) => unknown;

/**
 * Serves cheap fields computed from their source alone (public ids, display names, signs) as plain
 * properties instead of resolvers. graphql-jit compiles a field without a resolver into a property
 * read; a resolver costs a resolve-info object, a response path and three closures per call, and a
 * page of 100 transactions with their accounts made six such calls per edge (most of a page's
 * allocation). Objects of a type with plain fields are therefore *presented* on their way into the
 * response: a copy of the source with the plain fields computed onto it, made once per source object
 * (the accounts of a page are presented once, however many edges share them).
 *
 * Changes `schema` in place and returns it: the plain fields have no resolvers; the type's other
 * resolvers still receive the stored source; every field returning such a type (its resolver's value,
 * list or promise, or a property read) hands on the presented object. A new field of these types
 * needs nothing of this: a plain property of the source is copied, a resolver gets the source.
 */
export function withPlainFields(schema: GraphQLSchema, plainFields: Record<string, PlainFields<never>>): GraphQLSchema {
  const presenters = new Map(Object.entries(plainFields).map(([typeName, fields]) => [typeName, presenter(fields as PlainFields<object>)]));
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const plain = plainFields[type.name];
    const unknown = Object.keys(plain ?? {}).filter((name) => !(name in type.getFields()));
    if (unknown.length > 0) throw new Error(`${type.name} has no field ${unknown.join(', ')} to serve as a plain property`);
    for (const field of Object.values(type.getFields())) {
      if (plain && field.name in plain) {
        if (field.resolve) throw new Error(`${type.name}.${field.name} has both a resolver and a plain property`);
        continue;
      }
      if (plain && field.resolve) field.resolve = fromSource(field.resolve);
      const present = presenters.get(getNamedType(field.type).name);
      if (present) field.resolve = presenting(field, present);
    }
  }
  return schema;
}

/** Makes presented copies of sources, each once (a source object is never presented twice). */
function presenter(fields: PlainFields<object>): Present {
  const names = Object.keys(fields);
  const computes = Object.values(fields);
  const made = new WeakMap<object, unknown>();
  const present: Present = (value) => {
    if (value === null || typeof value !== 'object' || SOURCE in value) return value;
    const known = made.get(value);
    if (known !== undefined) return known;
    let presented: unknown;
    if (Array.isArray(value)) return value.map(present);
    if (value instanceof Promise) {
      presented = value.then(present);
    } else {
      const copy: Presented = { ...value, [SOURCE]: value };
      for (let i = 0; i < names.length; i++) copy[names[i]!] = computes[i]!(value);
      presented = copy;
    }
    made.set(value, presented);
    return presented;
  };
  return present;
}

/** A resolver of a type with plain fields, handed the stored source rather than its presented copy. */
function fromSource(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => resolve((source as Presented)[SOURCE] ?? source, args, context, info);
}

/** A field whose value is of a type with plain fields: the value, presented. */
function presenting(field: GraphQLField<unknown, unknown>, present: Present): GraphQLFieldResolver<unknown, unknown> {
  const resolve = field.resolve;
  const name = field.name;
  return resolve ? (source, args, context, info) => present(resolve(source, args, context, info)) : (source) => present((source as Record<string, unknown>)[name]);
}
