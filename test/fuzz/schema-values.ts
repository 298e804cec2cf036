import fc from 'fast-check';
import { unicodeText } from './hostile-values.ts';
import { anyRealId, idFor, prefixIn } from './id-values.ts';
import { resolve, type Schema } from './rest-contract.ts';

/** Where generated webhook targets point: the fuzz world's receiver, loopback, private, unresolvable and documentation addresses (never a real host). */
const URIS = ['⟪receiver⟫', 'https://localhost:1/hook', 'https://127.0.0.1/x', 'https://[::1]/x', 'http://10.0.0.1/x', 'https://192.0.2.1/x', 'https://hooks.invalid/x', 'https://user:pass@localhost/x', 'ftp://localhost/x', 'https://localhost/x?a=%00'];

const recentDate = fc.date({ min: new Date('1900-01-01'), max: new Date(), noInvalidDate: true });
/** Any date with a four-digit year. */
const anyDate = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });

/** RFC 3339 date-times, in UTC or at any offset (which can carry them past 0001 or 9999 in UTC). */
const instant = fc.tuple(fc.oneof(recentDate, anyDate), fc.integer({ min: -1439, max: 1439 })).map(([date, offset]) => {
  const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 23);
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0');
  return offset === 0 ? `${local}Z` : `${local}${offset < 0 ? '-' : '+'}${hours}:${minutes}`;
});

/** Cap for generated collections: valid bodies stay small; the bulk comes from hostile values. */
const MAX_ITEMS = 5;

const cache = new WeakMap<Schema, fc.Arbitrary<unknown>>();

/** Values valid for a contract schema (the `$ref`s resolved), mixed with its examples and the world's real ids. */
export function validValue(schema: Schema): fc.Arbitrary<unknown> {
  const resolved = resolve(schema);
  let arbitrary = cache.get(resolved);
  if (!arbitrary) {
    arbitrary = build(resolved);
    cache.set(resolved, arbitrary);
  }
  return arbitrary;
}

function build(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.allOf) return validValue(Object.assign({}, ...schema.allOf.map((part: Schema) => resolve(part)), { ...schema, allOf: undefined }));
  if (schema.anyOf || schema.oneOf) return fc.oneof(...(schema.anyOf ?? schema.oneOf).map(validValue));
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['object'];
  const generated = fc.oneof(...types.map((type) => ofType(type, schema)));
  return schema.examples?.length ? fc.oneof({ weight: 3, arbitrary: generated }, { weight: 1, arbitrary: fc.constantFrom(...schema.examples) }) : generated;
}

function ofType(type: string, schema: Schema): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }));
    case 'string':
      return string(schema);
    case 'array':
      return array(schema);
    default:
      return object(schema);
  }
}

function string(schema: Schema): fc.Arbitrary<string> {
  const minLength: number = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, 40);
  // An id slot, by its pattern or by the prefix its description names (`The profile to connect (\`p_…\`)`).
  const prefix = prefixIn(schema.pattern) ?? prefixIn(schema.description);
  if (prefix) return idFor(prefix);
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= (schema.maxLength ?? Infinity));
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress().filter((email) => email.length <= (schema.maxLength ?? 254));
    case 'date':
      return fc.oneof(recentDate, anyDate).map((date) => date.toISOString().slice(0, 10));
    case 'date-time':
      return instant;
    case 'uri':
      return fc.constantFrom(...URIS);
  }
  // Free text: often an id, so fields naming a record (`profileId`, `userId`) reach real ones.
  const text = fc.oneof(fc.string({ minLength, maxLength }), unicodeText({ minLength, maxLength }));
  return fc.oneof({ weight: 3, arbitrary: text }, { weight: 1, arbitrary: anyRealId });
}

function array(schema: Schema): fc.Arbitrary<unknown[]> {
  const items = resolve(schema.items ?? {});
  const maxLength = Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS, items.enum?.length ?? Infinity);
  const constraints = { minLength: schema.minItems ?? 0, maxLength };
  return schema.uniqueItems ? fc.uniqueArray(validValue(items), { ...constraints, selector: (item) => JSON.stringify(item) }) : fc.array(validValue(items), constraints);
}

function object(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, Schema> = schema.properties ?? {};
  const minKeys: number = schema.minProperties ?? 0;
  if (Object.keys(properties).length === 0) {
    const values = typeof schema.additionalProperties === 'object' ? validValue(schema.additionalProperties) : fc.jsonValue({ maxDepth: 1 });
    const keys = fc.string({ minLength: schema.propertyNames?.minLength ?? 0, maxLength: Math.min(schema.propertyNames?.maxLength ?? 20, 20) });
    return fc.dictionary(keys, values, { minKeys, maxKeys: Math.max(minKeys, Math.min(schema.maxProperties ?? MAX_ITEMS, MAX_ITEMS)) });
  }
  const record = fc.record(Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, validValue(property)])), { requiredKeys: schema.required ?? [] });
  return minKeys > 0 ? record.filter((value) => Object.keys(value).length >= minKeys) : record;
}
