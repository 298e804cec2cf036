import { getNamedType, isObjectType, type GraphQLFieldResolver, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import type { PlainFields } from '../api-kit/plain-fields.ts';

/** Where a presented object keeps the source it was made from. */
const SOURCE = Symbol('source');
/** A plain field's slot before its first read (null and undefined are values a field may have). */
const UNSET = Symbol('unset');

type Present = (value: unknown) => unknown;

/**
 * Serves cheap fields computed from their source alone (public ids, display names, signs) as plain
 * properties instead of resolvers. graphql-jit compiles a field without a resolver into a property
 * read; a resolver costs a resolve-info object, a response path and three closures per call, and a
 * page of 100 transactions with their accounts made six such calls per edge (most of a page's
 * allocation). Objects of a type with plain fields are therefore *presented* on their way into the
 * response: wrapped in an object of one class per type, whose getters compute the plain fields (once,
 * when first read) and read the type's other fields from the source. A wrapper holds nothing but its source, and every
 * wrapper of a type has the same shape, so the compiled reads stay monomorphic.
 *
 * A type whose objects reach a presented type through a plain property (an edge's `node`) is
 * presented too, its getter presenting what it reads, so no resolver is added on the way. Root types
 * cannot be (nothing hands them over): their property fields present through a resolver.
 *
 * Changes `schema` in place and returns it: plain fields have no resolvers; a presented type's other
 * resolvers still receive the stored source; every resolver returning a presented type (a value, a
 * list or a promise) hands on the presented object. A new field of these types needs nothing of
 * this: a property of the source is read through, a resolver gets the source.
 */
export function withPlainFields(schema: GraphQLSchema, plainFields: Record<string, PlainFields<never>>): GraphQLSchema {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(Boolean));
  const objectTypes = Object.values(schema.getTypeMap()).filter((type) => isObjectType(type) && !type.name.startsWith('__')) as GraphQLObjectType[];
  const presented = presentedTypes(objectTypes, roots, plainFields);
  const presenters = new Map<string, Present>();
  const presenterOf = (typeName: string) => (value: unknown) => presenters.get(typeName)!(value);
  for (const type of objectTypes) {
    if (!presented.has(type.name)) continue;
    const plain = (plainFields[type.name] ?? {}) as PlainFields<object>;
    const fields = type.getFields();
    const unknown = Object.keys(plain).filter((name) => !(name in fields));
    if (unknown.length > 0) throw new Error(`${type.name} has no field ${unknown.join(', ')} to serve as a plain property`);
    const readThrough = new Map<string, Present | undefined>();
    for (const field of Object.values(fields)) {
      if (field.name in plain) {
        if (field.resolve) throw new Error(`${type.name}.${field.name} has both a resolver and a plain property`);
      } else if (!field.resolve) {
        const name = field.name;
        const target = getNamedType(field.type).name;
        readThrough.set(name, presented.has(target) ? presenterOf(target) : undefined);
      }
    }
    presenters.set(type.name, presenter(type.name, plain, readThrough));
  }
  for (const type of objectTypes) {
    for (const field of Object.values(type.getFields())) {
      if (presented.has(type.name) && field.resolve) field.resolve = fromSource(field.resolve);
      const target = getNamedType(field.type).name;
      if (!presented.has(target)) continue;
      if (field.resolve) field.resolve = presenting(field.resolve, presenterOf(target));
      else if (!presented.has(type.name)) field.resolve = readPresenting(field.name, presenterOf(target));
    }
  }
  return schema;
}

/** The types with plain fields, and (until none is added) every non-root type with a property field of one of them. */
function presentedTypes(objectTypes: GraphQLObjectType[], roots: Set<unknown>, plainFields: Record<string, unknown>): Set<string> {
  const presented = new Set(Object.keys(plainFields));
  for (const name of presented) if (!objectTypes.some((type) => type.name === name)) throw new Error(`${name} is not an object type of the schema`);
  let added = true;
  while (added) {
    added = false;
    for (const type of objectTypes) {
      if (presented.has(type.name) || roots.has(type)) continue;
      if (Object.values(type.getFields()).some((field) => !field.resolve && presented.has(getNamedType(field.type).name))) {
        presented.add(type.name);
        added = true;
      }
    }
  }
  return presented;
}

/**
 * Presents sources of one type: each source object once, the presented object kept on the source
 * itself (a symbol property of its own: a page's accounts are presented once, however many edges
 * share them); lists item by item, promises when they settle.
 */
function presenter(typeName: string, plain: PlainFields<object>, readThrough: Map<string, Present | undefined>): Present {
  const PresentedObject = presentedClass(plain, readThrough);
  const presentedAs = Symbol(`presented as ${typeName}`);
  const present: Present = (value) => {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(present);
    if (value instanceof Promise) return value.then(present);
    if (value instanceof PresentedObject) return value;
    const source = value as { [presentedAs]?: object };
    return (source[presentedAs] ??= new PresentedObject(source));
  };
  return present;
}

/**
 * The class of a type's presented objects. A plain field is computed on its first read and kept in a
 * slot of its own (graphql-jit reads a non-null field twice), so a document computes only the fields
 * it selects: a page that selects no `merchant` builds no merchant object, and a read that selected
 * only some columns (src/graphql/selection.ts) never computes a field from a column it left out. The
 * other property fields are read off the source (presenting those of a presented type). Every slot is
 * set in the constructor, so all objects of the class share one shape. The source text is generated,
 * like graphql-jit's own code, so that each field is read by code of its own with a constant name:
 * made as closures of one function, they shared its inline caches, which went megamorphic.
 */
function presentedClass(plain: PlainFields<object>, readThrough: Map<string, Present | undefined>): new (source: object) => object {
  const computed = Object.keys(plain);
  const presents = [...readThrough.values()].filter((present) => present !== undefined);
  for (const name of [...computed, ...readThrough.keys()]) if (!/^[_A-Za-z][_0-9A-Za-z]*$/.test(name)) throw new Error(`${name} is not a GraphQL field name`);
  let presenting = 0;
  const getters = [
    ...computed.map((name, index) => `get ${name}() { const value = this.$${index}; return value === UNSET ? (this.$${index} = compute${index}(this[SOURCE])) : value; }`),
    ...[...readThrough].map(([name, present]) => `get ${name}() { return ${present ? `present${presenting++}(this[SOURCE].${name})` : `this[SOURCE].${name}`}; }`),
  ];
  const source = `return class PresentedObject {
    constructor(source) { this[SOURCE] = source; ${computed.map((_, index) => `this.$${index} = UNSET;`).join(' ')} }
    ${getters.join('\n    ')}
  }`;
  const parameters = ['SOURCE', 'UNSET', ...computed.map((_, index) => `compute${index}`), ...presents.map((_, index) => `present${index}`)];
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- built from the schema's field names, checked above
  const make = new Function(...parameters, source) as (...values: unknown[]) => new (source: object) => object;
  return make(SOURCE, UNSET, ...Object.values(plain), ...presents);
}

/** A resolver of a presented type, handed the stored source rather than its presented object. */
function fromSource(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => resolve((source as { [SOURCE]?: unknown })[SOURCE] ?? source, args, context, info);
}

/** A resolver whose value is of a presented type: the value, presented. */
function presenting(resolve: GraphQLFieldResolver<unknown, unknown>, present: Present): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => present(resolve(source, args, context, info));
}

/** A property field of a root type whose value is of a presented type: the property, presented. */
function readPresenting(name: string, present: Present): GraphQLFieldResolver<unknown, unknown> {
  return (source) => present((source as Record<string, unknown>)[name]);
}
