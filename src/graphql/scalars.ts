import { GraphQLScalarType, Kind, type GraphQLScalarTypeConfig, type ValueNode } from 'graphql';
import { isRealDate } from '../lib/dates.ts';
import { unstorableText } from '../lib/storable-text.ts';


/** A JSON literal from the query text, with variables resolved. */
function literal(node: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((value) => literal(value, variables));
    case Kind.OBJECT:
      // graphql-jit compiles inline argument values into JavaScript object literals, where this key
      // would set the prototype: refused rather than silently lost.
      if (node.fields.some((field) => field.name.value === '__proto__')) throw new TypeError('"__proto__" cannot be a key');
      return Object.fromEntries(node.fields.map((field) => [field.name.value, literal(field.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
    default:
      return undefined;
  }
}

/** A JSON object, or a TypeError naming the scalar. */
function jsonObject(name: string, value: unknown): object {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new TypeError(`${name} must be a JSON object`);
  return value;
}

/**
 * A scalar's coercion; its description is contracts/schema.graphql's. graphql-tools copies every own
 * property of a scalar resolver onto the schema's type, an unset `description` included, which would
 * hide the SDL's description from introspection: so the property is removed.
 */
function coercion(config: GraphQLScalarTypeConfig<unknown, unknown>): GraphQLScalarType {
  const scalar = new GraphQLScalarType(config);
  delete (scalar as { description?: unknown }).description;
  return scalar;
}

/** A JSON object scalar; `checkInput` adds rules for values coming in (variables and literals). */
function jsonObjectScalar(name: string, checkInput?: (value: object) => void) {
  const parse = (value: unknown) => {
    const object = jsonObject(name, value);
    checkInput?.(object);
    return object;
  };
  return coercion({ name, serialize: (value) => jsonObject(name, value), parseValue: parse, parseLiteral: (node, variables) => parse(literal(node, variables)) });
}

/**
 * Metadata goes out as a JSON object and comes in (only in mutation inputs) as any JSON value:
 * whether a value is an acceptable update is a rule of the service, which a mutation reports as
 * data (`success: false` at `["attributes", "metadata"]`) like every other rule. Failing coercion
 * instead would refuse the whole request with a top-level error and no payload.
 */
const metadataScalar = coercion({
  name: 'Metadata',
  serialize: (value) => jsonObject('Metadata', value),
  parseValue: (value) => value,
  parseLiteral: (node, variables) => literal(node, variables),
});

/** Transaction filters are compared in SQL, where text PostgreSQL cannot hold fails the query: refused as bad input (in every filter alike). */
function refuseUnstorableText(filter: object): void {
  const [issue] = unstorableText(filter);
  if (issue) throw new TypeError(`MetadataFilter${issue.path.length > 0 ? ` value "${issue.path.join('.')}"` : ''} ${issue.message}`);
}

const DECIMAL = /^-?\d{1,15}(\.\d{1,4})?$/;

/** Exact decimals travel as strings inside the service and as JSON numbers on the wire. */
function parseDecimal(value: unknown): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !DECIMAL.test(text)) throw new TypeError('Decimal must be a number with at most 15 integer and 4 fraction digits');
  return text;
}

/** ES2025's JSON.rawJSON (Node 24), not yet in TypeScript's es2024 lib: a value JSON.stringify writes as the given text. */
const rawJSON = (text: string): unknown => (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(text);

/**
 * An exact decimal as the JSON number the contract promises: the stored digits (a quantity of 10
 * fraction digits too), without trailing fraction zeros, exponent or negative zero; never a float.
 */
function decimalNumber(value: unknown): unknown {
  const text = String(value);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return Number(value);
  // Trailing fraction zeros cut by scanning (every stored amount has four fraction digits: one slice, no regex replace).
  let end = text.length;
  if (text.includes('.')) {
    while (text.charCodeAt(end - 1) === 48) end -= 1;
    if (text.charCodeAt(end - 1) === 46) end -= 1;
  }
  const trimmed = end === text.length ? text : text.slice(0, end);
  // Leading zeros and negative zero (never from PostgreSQL, possible from a provider's text).
  if (!/^-?0\d|^-0$/.test(trimmed)) return rawJSON(trimmed);
  return rawJSON(/^-0+$/.test(trimmed) ? '0' : trimmed.replace(/^(-?)0+(?=\d)/, '$1'));
}

/** The coercion of every custom scalar of the schema. */
export const scalars = {
  Decimal: coercion({
    name: 'Decimal',
    serialize: decimalNumber,
    parseValue: parseDecimal,
    parseLiteral: (node) => parseDecimal(node.kind === Kind.INT || node.kind === Kind.FLOAT || node.kind === Kind.STRING ? node.value : undefined),
  }),
  Date: coercion({
    name: 'Date',
    serialize: (value) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value)),
    parseValue: (value) => {
      if (typeof value !== 'string' || !isRealDate(value)) throw new TypeError('Date must be a real date as YYYY-MM-DD');
      return value;
    },
    parseLiteral: (node) => {
      if (node.kind !== Kind.STRING || !isRealDate(node.value)) throw new TypeError('Date must be a real date as YYYY-MM-DD');
      return node.value;
    },
  }),
  DateTime: coercion({
    name: 'DateTime',
    serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
    parseValue: (value) => new Date(String(value)).toISOString(),
    parseLiteral: (node) => (node.kind === Kind.STRING ? new Date(node.value).toISOString() : undefined),
  }),
  JSONObject: jsonObjectScalar('JSONObject'),
  Metadata: metadataScalar,
  MetadataFilter: jsonObjectScalar('MetadataFilter', refuseUnstorableText),
};
