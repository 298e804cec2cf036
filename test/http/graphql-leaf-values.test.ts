import {
  buildSchema,
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from 'graphql';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncedSandboxProfile } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The GraphQL front door runs graphql-jit without serializing the values of enums and of GraphQL's
 * own scalars (src/graphql/documents.ts): what the resolvers and rows hand over is written as it is.
 * These tests read every field a profile can reach and check that each such value is already what
 * serializing would have made of it, so that a resolver handing over a number for a String, or a
 * value outside an enum, fails here instead of reaching a client.
 */
const schema = buildSchema(readFileSync('contracts/schema.graphql', 'utf8'));
const DEPTH = 4;
const now = new Date('2026-05-20T12:00:00Z');
let app: TestApp;
let auth: string;

beforeAll(async () => {
  app = await startTestApp({}, { sandboxNow: () => now });
  auth = (await syncedSandboxProfile(app, ['ins_first_platypus', 'ins_tattersall_fcu'])).auth;
});
afterAll(() => app?.stop());

/** Whether a field can be selected without arguments (every argument optional). */
const selectable = (field: GraphQLField<unknown, unknown>) => field.args.every((arg) => !isNonNullType(arg.type) || arg.defaultValue !== undefined);

/**
 * JSON objects are written as stored, with nothing to serialize, and each costs what a list of
 * records does (src/graphql/limits.ts): leaving them out keeps the whole document within the cost limit.
 */
const JSON_OBJECTS = new Set(['Metadata', 'JSONObject']);

/**
 * Fields read from the root that returns their type, not below another list: an account's owners
 * (lists in a list) under `connections` would take the document past the cost limit, and
 * `accounts` reads them with the same resolvers.
 */
const ROOT_LEVEL_ONLY = new Set(['Account.owners', 'Account.ownerMatch']);

/** Every selectable field of `type` but JSON objects, down to `depth` levels of objects (leaves only at the last). */
function selection(type: GraphQLObjectType, depth: number): string {
  const fields = Object.values(type.getFields()).filter(
    (field) => selectable(field) && !JSON_OBJECTS.has(getNamedType(field.type).name) && (depth === DEPTH || !ROOT_LEVEL_ONLY.has(`${type.name}.${field.name}`)),
  );
  return fields
    .map((field) => {
      const named = getNamedType(field.type);
      if (!isObjectType(named)) return field.name;
      return depth > 1 ? `${field.name} { ${selection(named, depth - 1)} }` : '';
    })
    .filter(Boolean)
    .concat('__typename')
    .join(' ');
}

/** Every value below `value` whose type is an enum or a specified scalar, with its path, that serializing would change. */
function unserialized(value: unknown, type: GraphQLOutputType, path: string): string[] {
  if (value === null) return isNonNullType(type) ? [`${path}: null`] : [];
  const inner = getNullableType(type);
  if (isListType(inner)) return Array.isArray(value) ? value.flatMap((item, index) => unserialized(item, inner.ofType, `${path}.${index}`)) : [`${path}: not a list`];
  if (isObjectType(inner)) {
    const fields = inner.getFields();
    return Object.entries(value as Record<string, unknown>).flatMap(([name, item]) =>
      name === '__typename' ? (item === inner.name ? [] : [`${path}.__typename: ${String(item)}`]) : unserialized(item, fields[name]!.type, `${path}.${name}`),
    );
  }
  if (isEnumType(inner)) return inner.getValues().some((enumValue) => enumValue.name === value) ? [] : [`${path}: ${JSON.stringify(value)} is not a ${inner.name}`];
  if (isScalarType(inner)) {
    const ok = { ID: typeof value === 'string', String: typeof value === 'string', Boolean: typeof value === 'boolean', Int: Number.isInteger(value), Float: typeof value === 'number' }[inner.name];
    return ok === false ? [`${path}: ${JSON.stringify(value)} is not a ${inner.name}`] : [];
  }
  return [];
}

describe('values written without serialization', () => {
  const query = schema.getQueryType()!;
  const roots = Object.values(query.getFields()).filter((field) => selectable(field) && isObjectType(getNamedType(field.type)) && field.name !== 'node');

  it('reach every root field a profile can read without arguments', () => {
    expect(roots.map((field) => field.name)).toEqual(expect.arrayContaining(['profile', 'connections', 'accounts', 'transactions', 'recurringStreams']));
  });

  it.each(roots.map((field) => [field.name, field] as const))('are what serializing would give, in everything %s reaches', async (_name, field) => {
    const response = await app.http.post('/v1/graphql', { auth, json: { query: `{ ${field.name} { ${selection(getNamedType(field.type) as GraphQLObjectType, DEPTH)} } }` } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
    const value = response.body.data[field.name];
    expect(value === null || (Array.isArray(value) && value.length === 0), `${field.name} reads nothing to check`).toBe(false);
    expect(unserialized(value, field.type, field.name)).toEqual([]);
  });
});
