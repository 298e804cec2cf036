import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  buildSchema,
  getIntrospectionQuery,
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';
import { hostileString, hostileValue } from './hostile-values.ts';
import { anyRealId, idFor, prefixIn, realId } from './id-values.ts';
import { RawJson, toJson } from './json-text.ts';
import { authFor, brokenBody, contentType, percentEncode, type FuzzRequest } from './requests.ts';

/** contracts/schema.graphql: the documents below are built from its types, fields and arguments. */
const schema = buildSchema(readFileSync('contracts/schema.graphql', 'utf8'));

/** Part of a document: its text, the fragment definitions it spreads, the variables it uses. */
interface Piece {
  text: string;
  fragments: string[];
  variables: Variable[];
}

interface Variable {
  name: string;
  type: string;
  value: unknown;
}

/** `arbitrary`'s value one time in `n`, else null. */
const oneIn = <T>(n: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

const piece = (text: string, parts: Piece[] = []): Piece => ({ text, fragments: parts.flatMap((part) => part.fragments), variables: parts.flatMap((part) => part.variables) });

/** A short stable name for generated text, so equal fragments and variables share one definition. */
function nameFor(prefix: string, text: string): string {
  let hash = 2166136261;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619);
  return `${prefix}${(hash >>> 0).toString(36)}`;
}

// ---------------------------------------------------------------------------------------------
// Values for arguments and variables
// ---------------------------------------------------------------------------------------------

const decimal = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.stringMatching(/^-?\d{1,8}(\.\d{1,4})?$/),
  fc.constantFrom('1e5', '-0', '0.1', 'abc', '', '1,000.00', '123456789012345678901234567890.123', '∞', '0x10'),
);

const metadataLike = fc.dictionary(fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('plan', 'email', '__proto__', 'constructor')), fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 4 });

/** Values for the schema's scalars: mostly what each accepts, sometimes near misses. */
const SCALARS: Record<string, fc.Arbitrary<unknown>> = {
  Int: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: -5, max: 150 }) }, { weight: 1, arbitrary: fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 1e21, 1.5) }),
  Float: fc.double({ noNaN: true, noDefaultInfinity: true }),
  String: fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 20 }) }, { weight: 2, arbitrary: realId('cursor') }, { weight: 1, arbitrary: hostileString.filter((text) => text.length < 2_000) }),
  Boolean: fc.boolean(),
  ID: idFor(undefined),
  Date: fc.oneof({ weight: 4, arbitrary: fc.date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)) }, { weight: 1, arbitrary: fc.constantFrom('2026-02-30', '2026-4-1', '0000-01-01', '99999-01-01', '2026-01-01T00:00:00Z', 20260101) }),
  DateTime: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  Decimal: decimal,
  JSONObject: fc.jsonValue({ maxDepth: 2 }),
  Metadata: fc.oneof({ weight: 4, arbitrary: metadataLike }, { weight: 1, arbitrary: fc.constant(null) }),
  MetadataFilter: fc.oneof({ weight: 4, arbitrary: metadataLike }, { weight: 1, arbitrary: fc.constant(null) }),
};

/** A value for an input type: mostly valid for it, sometimes null where null is not allowed, sometimes of another type altogether. */
function inputValue(type: GraphQLInputType, description?: string): fc.Arbitrary<unknown> {
  const choices: Array<fc.WeightedArbitrary<unknown>> = [{ weight: 24, arbitrary: validInput(type, description) }, { weight: 1, arbitrary: hostileValue }];
  if (isNonNullType(type)) choices.push({ weight: 1, arbitrary: fc.constant(null) });
  return fc.oneof(...choices);
}

function validInput(type: GraphQLInputType, description?: string): fc.Arbitrary<unknown> {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return fc.array(inputValue(nullable.ofType, description), { maxLength: 3 });
  if (isEnumType(nullable)) return fc.constantFrom(...nullable.getValues().map((value) => value.name));
  if (isInputObjectType(nullable)) {
    const fields = Object.values(nullable.getFields());
    return fc.record(Object.fromEntries(fields.map((field) => [field.name, inputValue(field.type, field.description ?? undefined)])), {
      requiredKeys: fields.filter((field) => isNonNullType(field.type)).map((field) => field.name),
    });
  }
  if (nullable.name === 'ID') {
    const prefix = prefixIn(description);
    return prefix ? idFor(prefix) : fc.oneof(idFor(undefined), anyRealId);
  }
  return SCALARS[nullable.name] ?? fc.jsonValue({ maxDepth: 2 });
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** `value` as a GraphQL literal written in the document; undefined when it cannot be written inline. */
function literal(value: unknown, enumValues: Set<string>): string | undefined {
  if (value instanceof RawJson || value === undefined) return undefined;
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'string') return enumValues.has(value) ? value : JSON.stringify(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => literal(item, enumValues));
    return items.every((item) => item !== undefined) ? `[${items.join(', ')}]` : undefined;
  }
  const fields = Object.entries(value as object).map(([key, item]) => [key, literal(item, enumValues)] as const);
  return fields.every(([key, item]) => NAME.test(key) && item !== undefined) ? `{${fields.map(([key, item]) => `${key}: ${item}`).join(', ')}}` : undefined;
}

const ENUM_VALUES = new Set(Object.values(schema.getTypeMap()).flatMap((type) => (isEnumType(type) ? type.getValues().map((value) => value.name) : [])));

/** One argument, written inline or passed as a variable (declared with its type, or sometimes a wrong one). */
function argument(argument: GraphQLArgument): fc.Arbitrary<Piece> {
  const declared = fc.oneof({ weight: 20, arbitrary: fc.constant(String(argument.type)) }, { weight: 1, arbitrary: fc.constantFrom('Int', 'String!', '[ID]', 'Boolean', 'Nope', 'JSONObject') });
  return fc.tuple(inputValue(argument.type, argument.description ?? undefined), fc.boolean(), declared).map(([value, inline, type]) => {
    const written = inline ? literal(value, ENUM_VALUES) : undefined;
    if (written !== undefined) return piece(`${argument.name}: ${written}`);
    const name = nameFor('v', `${type}:${fc.stringify(value)}`);
    return { text: `${argument.name}: $${name}`, fragments: [], variables: [{ name, type, value }] };
  });
}

// ---------------------------------------------------------------------------------------------
// Selections
// ---------------------------------------------------------------------------------------------

const DIRECTIVES = fc.oneof({ weight: 25, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(' @include(if: true)', ' @skip(if: false)', ' @skip(if: true)', ' @deprecated', ' @unknown', ' @include') });

const selections = new Map<string, fc.Arbitrary<Piece>>();

/** Below this many levels a selection may branch; deeper ones are a single chain, so documents stay small. */
const BRANCHING_DEPTH = 4;

/** A selection set on `type`: some of its fields (objects down to `depth` more levels), __typename, fragments. */
function selectionSet(type: GraphQLObjectType, depth: number): fc.Arbitrary<Piece> {
  const key = `${type.name}:${depth}`;
  let arbitrary = selections.get(key);
  if (!arbitrary) {
    const fields = Object.values(type.getFields());
    const leaves = fields.filter((field) => !isObjectType(getNamedType(field.type)));
    const objects = depth > 0 ? fields.filter((field) => isObjectType(getNamedType(field.type))) : [];
    const branching = depth <= BRANCHING_DEPTH;
    const chosenLeaves = fc.tuple(...leaves.map((field) => oneIn(Math.max(2, Math.round(leaves.length / 2)), fieldSelection(field, 0))));
    const chosenObjects = fc.subarray(objects, { maxLength: Math.min(objects.length, branching ? 2 : 1) }).chain((picked) => fc.tuple(...picked.map((field) => fieldSelection(field, depth - 1))));
    const fragments = fc.tuple(
      oneIn(6, fc.constantFrom('__typename', 'alias: __typename').map((text) => piece(text))),
      oneIn(8, branching && depth > 0 ? fc.constant(0).chain(() => selectionSet(type, depth - 1)).map((inner) => piece(`... on ${type.name} ${inner.text}`, [inner])) : fc.constant(piece('__typename'))),
      oneIn(8, branching ? fc.constant(0).chain(() => selectionSet(type, Math.max(0, depth - 1))).map((inner) => namedFragment(type, inner)) : fc.constant(piece('__typename'))),
    );
    arbitrary = fc.tuple(chosenLeaves, chosenObjects, fragments).map(([pickedLeaves, pickedObjects, extra]) => {
      const parts = [...pickedLeaves, ...pickedObjects, ...extra].filter((part): part is Piece => part !== null);
      const all = parts.length > 0 ? parts : [piece('__typename')];
      return piece(`{ ${all.map((part) => part.text).join(' ')} }`, all);
    });
    selections.set(key, arbitrary);
  }
  return arbitrary;
}

function namedFragment(type: GraphQLObjectType, inner: Piece): Piece {
  const name = nameFor('F', `${type.name}${inner.text}`);
  return { text: `...${name}`, fragments: [`fragment ${name} on ${type.name} ${inner.text}`, ...inner.fragments], variables: inner.variables };
}

function fieldSelection(field: GraphQLField<unknown, unknown>, depth: number): fc.Arbitrary<Piece> {
  const named = getNamedType(field.type);
  const args = fc.tuple(
    ...field.args.map((arg) => (isNonNullType(arg.type) ? fc.oneof({ weight: 12, arbitrary: argument(arg) }, { weight: 1, arbitrary: fc.constant(null) }) : oneIn(2, argument(arg)))),
    oneIn(60, fc.constant(piece('bogus: 1'))),
  );
  const alias = oneIn(5, fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,5}$/));
  const sub = isObjectType(named) ? fc.constant(0).chain(() => selectionSet(named, Math.max(depth, 0))) : fc.constant(undefined);
  return fc.tuple(alias, args, DIRECTIVES, sub).map(([name, given, directive, inner]) => {
    const present = given.filter((arg): arg is Piece => arg !== null);
    const argsText = present.length > 0 ? `(${present.map((arg) => arg.text).join(', ')})` : '';
    return piece(`${name ? `${name}: ` : ''}${field.name}${argsText}${directive}${inner ? ` ${inner.text}` : ''}`, [...present, ...(inner ? [inner] : [])]);
  });
}

// ---------------------------------------------------------------------------------------------
// Documents and requests
// ---------------------------------------------------------------------------------------------

interface Operation {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** A whole operation: query or mutation, named or not, with its variable and fragment definitions. */
const operation: fc.Arbitrary<Operation> = fc
  .record({
    mutation: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    name: oneIn(2, fc.constantFrom('Q', 'Fuzz', 'op_1')),
    depth: fc.oneof({ weight: 10, arbitrary: fc.integer({ min: 1, max: 4 }) }, { weight: 1, arbitrary: fc.constantFrom(9, 11) }),
    sendName: fc.boolean(),
  })
  .chain(({ mutation, name, depth, sendName }) =>
    selectionSet(mutation ? schema.getMutationType()! : schema.getQueryType()!, depth).map((selection) => {
      const variables = unique(selection.variables, (variable) => variable.name);
      const definitions = variables.length > 0 ? `(${variables.map((variable) => `$${variable.name}: ${variable.type}`).join(', ')})` : '';
      const head = `${mutation ? 'mutation' : 'query'}${name ? ` ${name}` : ''}${definitions}`;
      const query = [`${head} ${selection.text}`, ...new Set(selection.fragments)].join('\n');
      const result: Operation = { query };
      if (variables.length > 0) result.variables = Object.fromEntries(variables.map((variable) => [variable.name, variable.value]));
      if (name && sendName) result.operationName = name;
      return result;
    }),
  );

function unique<T>(items: T[], key: (item: T) => string): T[] {
  return [...new Map(items.map((item) => [key(item), item])).values()];
}

/** Documents aimed at the limits: many tokens, fields, aliases, deep nesting, fragments that multiply. */
const heavyDocument: fc.Arbitrary<Operation> = fc.oneof(
  fc.constantFrom(600, 2_100).map((count) => ({ query: `{ ${'__typename '.repeat(count)}}` })),
  fc.constantFrom(31, 200).map((count) => ({ query: `{ ${Array.from({ length: count }, (_, index) => `a${index}: profile { id }`).join(' ')} }` })),
  fc.constantFrom(12, 40).map((depth) => ({ query: `{ accounts { ${'connection { accounts { '.repeat(depth)}id${' } }'.repeat(depth)} } }` })),
  fc.constantFrom(12, 100).map((depth) => ({ query: `{ profile { ${'... on Profile { '.repeat(depth)}id${' }'.repeat(depth)} } }` })),
  fc.record({ levels: fc.integer({ min: 2, max: 12 }), fanOut: fc.integer({ min: 2, max: 6 }) }).map(({ levels, fanOut }) => {
    const fragments = Array.from({ length: levels }, (_, level) => `fragment L${level} on Profile { ${level === levels - 1 ? 'id' : Array.from({ length: fanOut }, (_, index) => `a${index}: names { first } ...L${level + 1}`).join(' ')} }`);
    return { query: `{ profile { ...L0 } }\n${fragments.join('\n')}` };
  }),
  fc.constant({ query: 'fragment A on Profile { ...B } fragment B on Profile { ...A } { profile { ...A } }' }),
  fc.constant({ query: getIntrospectionQuery() }),
  fc.constantFrom(100, 5_000).map((count) => ({ query: `{ transactions(first: 100) { edges { node { id remoteData account { id name connection { id accounts { id } } } } } } }${' '.repeat(count)}` })),
);

/** A document broken on purpose: cut short, with junk inserted, or replaced by hostile text. */
const brokenDocument: fc.Arbitrary<Operation> = fc.oneof(
  fc.tuple(operation, fc.nat()).map(([op, at]) => ({ ...op, query: op.query.slice(0, at % Math.max(1, op.query.length)) })),
  fc.tuple(operation, fc.nat(), fc.constantFrom('{', '}', '(', '$', '"', '\\', '#', '\u0000', '\ud800', '...', '@', ':')).map(([op, at, junk]) => ({ ...op, query: op.query.slice(0, at % op.query.length) + junk + op.query.slice(at % op.query.length) })),
  hostileString.map((query) => ({ query })),
  fc.constantFrom('query A { profile { id } } query B { profile { id } }', 'query A { profile { id } } query A { profile { id } }', 'subscription { profile { id } }', '{ profile { id } } { profile { id } }').map((query) => ({ query })),
);

/** What goes in a POST body: operations, batches, and bodies that are no GraphQL request at all. */
const postBody = fc.oneof(
  { weight: 12, arbitrary: operation.map((op) => ({ json: op })) },
  { weight: 2, arbitrary: heavyDocument.map((op) => ({ json: op })) },
  { weight: 2, arbitrary: brokenDocument.map((op) => ({ json: op })) },
  { weight: 2, arbitrary: fc.array(fc.oneof({ weight: 5, arbitrary: operation }, { weight: 1, arbitrary: brokenDocument }), { minLength: 1, maxLength: 11 }).map((ops) => ({ json: ops })) },
  { weight: 1, arbitrary: operation.chain((op) => fc.constantFrom<unknown>([], {}, 'x', 1, null, [null], [1], { query: 1 }, { query: null }, { ...op, variables: 'x' }, { ...op, variables: [] }, { ...op, operationName: 5 }, { ...op, operationName: 'Nope' }, { ...op, extensions: { persistedQuery: { sha256Hash: 'x' } } }, Array(12).fill(op))).map((json) => ({ json })) },
  { weight: 1, arbitrary: brokenBody },
);

const ACCEPT = fc.oneof(
  { weight: 12, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constantFrom('application/graphql-response+json', 'application/json', '*/*', 'application/graphql-response+json;q=0.9, application/json;q=0.8') },
  { weight: 1, arbitrary: fc.constantFrom('text/html', 'image/png', 'application/json;q=0') },
);

const credentials = authFor(['basic', 'session']);

/** GraphQL requests: POST (single, batched, heavy or broken) and GET, with credentials mostly acting as a profile. */
export const graphqlRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ body: postBody, auth: credentials, type: contentType, accept: ACCEPT }).map(({ body, auth, type, accept }): FuzzRequest => ({
      method: 'POST',
      path: '/v1/graphql',
      headers: { ...(type ? { 'Content-Type': type } : {}), ...(accept ? { Accept: accept } : {}) },
      auth,
      body,
    })),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.oneof({ weight: 5, arbitrary: operation }, { weight: 1, arbitrary: brokenDocument }), auth: credentials, accept: ACCEPT }).map(({ op, auth, accept }): FuzzRequest => {
      const query = [`query=${percentEncode(op.query)}`, ...(op.variables ? [`variables=${percentEncode(toJson(op.variables))}`] : []), ...(op.operationName ? [`operationName=${percentEncode(op.operationName)}`] : [])];
      return { method: 'GET', path: `/v1/graphql?${query.join('&')}`, headers: accept ? { Accept: accept } : {}, auth };
    }),
  },
);
