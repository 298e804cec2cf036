import { readFileSync } from 'node:fs';
import { buildSchema, Kind, parse, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { LIMITS, checkCost, checkShape, documentCost, measureCosts, measureShapes } from '../../src/graphql/limits.ts';
import { bombFields, fragmentBomb } from '../support/fragment-bomb.ts';

const schema = buildSchema(readFileSync(new URL('../../contracts/schema.graphql', import.meta.url), 'utf8'));

/** The document with every selection set counting how often its `selections` are read. */
function countingReads(query: string): { document: DocumentNode; reads: () => number } {
  let reads = 0;
  const wrap = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(wrap);
    if (typeof value !== 'object' || value === null) return value;
    const copy: Record<string, unknown> = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, wrap(inner)]));
    if (copy.kind !== Kind.SELECTION_SET) return copy;
    return new Proxy(copy, { get: (target, key) => (key === 'selections' && reads++, target[key as string]) });
  };
  return { document: wrap(parse(query, { noLocation: true })) as DocumentNode, reads: () => reads };
}

/** `levels` selections nested in one another, the innermost a scalar: `{ a { a { … id } } }`. */
const nested = (levels: number) => `${'{ a '.repeat(levels - 1)}{ id }${' }'.repeat(levels - 1)}`;
const aliased = (count: number) => `{ profile { ${Array.from({ length: count }, (_, i) => `x${i}: id`).join(' ')} } }`;

describe('the shape walker (fields, depth, aliases)', () => {
  it.each([4, 7, 9])('measures a 10^%i fragment bomb by reading each selection set once', (levels) => {
    const { document, reads } = countingReads(fragmentBomb(levels));
    expect(measureShapes(document)).toEqual([{ fields: bombFields(levels), depth: 2, aliases: 0 }]);
    // The operation, `profile`, and each fragment once (the unmemoised walk read 10^levels of them).
    expect(reads()).toBe(levels + 3);
    expect(checkShape(document)).toBe(`The operation selects ${bombFields(levels)} fields once its fragments are expanded; at most ${LIMITS.fields} are allowed`);
  });

  it('allows 400 fields, as the schema description says, and refuses 401', () => {
    expect(checkShape(parse(`{ profile { ${'id '.repeat(399)}} }`))).toBeUndefined();
    expect(checkShape(parse(`{ profile { ${'id '.repeat(400)}} }`))).toBe('The operation selects 401 fields once its fragments are expanded; at most 400 are allowed');
  });

  it('allows 10 nested levels and refuses 11', () => {
    expect(measureShapes(parse(nested(10)))).toEqual([{ fields: 10, depth: 10, aliases: 0 }]);
    expect(checkShape(parse(nested(10)))).toBeUndefined();
    expect(checkShape(parse(nested(11)))).toBe('Query depth 11 exceeds the limit of 10 nested selection levels');
  });

  it('measures the example of the schema description at depth 7', () => {
    const [shape] = measureShapes(parse('{ transactions { edges { node { account { connection { institution { name } } } } } } }'));
    expect(shape!.depth).toBe(7);
  });

  it('adds a fragment\'s depth at each spread, and an inline fragment adds no level of its own', () => {
    const query = `{ a { ...F } } fragment F on T { b { ... on T { c { ...G } } } } fragment G on T { d { id } }`;
    expect(measureShapes(parse(query))).toEqual([{ fields: 5, depth: 5, aliases: 0 }]);
    // Spread again inside the deepest level, the same fragment makes the document deeper.
    expect(checkShape(parse(`{ a { a { a { a { a { a { ...F } } } } } } } fragment F on T { b { c { d { e { id } } } } }`))).toBe(
      'Query depth 11 exceeds the limit of 10 nested selection levels',
    );
  });

  it('allows 30 aliases and refuses 31, counting an aliased field once per spread of its fragment', () => {
    expect(checkShape(parse(aliased(30)))).toBeUndefined();
    expect(checkShape(parse(aliased(31)))).toBe('The operation uses 31 aliases; at most 30 are allowed');
    const spreads = (count: number) => `{ profile { ${'...F '.repeat(count)}} } fragment F on Profile { a: id b: name c: email }`;
    expect(measureShapes(parse(spreads(10)))).toEqual([{ fields: 31, depth: 2, aliases: 30 }]);
    expect(checkShape(parse(spreads(11)))).toBe('The operation uses 33 aliases; at most 30 are allowed');
  });

  it('counts introspection fields and their aliases, not their depth', () => {
    const [shape] = measureShapes(parse('{ a: __typename b: __schema { types { fields { type { ofType { ofType { name } } } } } } profile { id } }'));
    expect(shape).toEqual({ fields: 10, depth: 2, aliases: 2 });
    const manyAliased = `{ ${Array.from({ length: 31 }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    expect(checkShape(parse(manyAliased))).toBe('The operation uses 31 aliases; at most 30 are allowed');
  });

  it('counts every operation and inline fragment, and gives a fragment cycle or an unknown fragment no size', () => {
    expect(measureShapes(parse('query A { profile { id } } query B { profile { ... on Profile { x: id names { first } } } }'))).toEqual([
      { fields: 2, depth: 2, aliases: 0 },
      { fields: 4, depth: 3, aliases: 1 },
    ]);
    expect(measureShapes(parse('{ profile { ...A ...Missing } } fragment A on Profile { id ...B } fragment B on Profile { id ...A }'))).toEqual([{ fields: 3, depth: 2, aliases: 0 }]);
  });

  it('refuses a document when any one of its operations is over a limit', () => {
    expect(checkShape(parse(`query Small { profile { id } } query Deep ${nested(11)}`))).toBe('Query depth 11 exceeds the limit of 10 nested selection levels');
  });
});

describe('the cost walker', () => {
  it('prices a fragment once and scales it at every spread', () => {
    const fragments = Array.from({ length: 6 }, (_, i) => `fragment A${i} on Account { connection { id } ${`...A${i + 1} `.repeat(10)}}`);
    const query = `{ accounts { ...A0 } } ${fragments.join(' ')} fragment A6 on Account { connection { id } }`;
    const { document, reads } = countingReads(query);
    // Each A_i costs 1 (connection) plus ten A_{i+1}: A6 = 1, A0 = 1111111; `accounts` is a list (×10).
    expect(measureCosts(schema, document, {})).toEqual([1 + 10 * 1111111]);
    // The operation, `accounts`, and each fragment with its `connection` once.
    expect(reads()).toBe(2 + 7 * 2);
  });

  it.each([
    ['{ profile { id names { first } } }', 1 + 1],
    ['{ profile { id email } }', 1],
    // A JSON object (metadata: up to 50 values of 500 characters) costs what a list of records does.
    ['{ profile { metadata } }', 1 + 10],
    ['{ accounts { metadata a: metadata } }', 1 + 10 * (10 + 10)],
    ['{ transactions(first: 100) { nodes { remoteData } } }', 1 + 100 * (1 + 10)],
    ['{ accounts { connection { institution { name } } } }', 1 + 10 * (1 + 1)],
    ['{ connections { accounts { balance { current } } } }', 1 + 10 * (1 + 10 * 1)],
    ['{ transactions(first: 100) { nodes { account { id } } } }', 1 + 100 * (1 + 1)],
    ['{ transactions(first: 250) { nodes { account { id } } } }', 1 + 100 * (1 + 1)],
    ['{ transactions(last: 3) { nodes { account { id } } } }', 1 + 3 * (1 + 1)],
    ['{ transactions(first: 0) { nodes { account { id } } pageInfo { hasNextPage } } }', 1],
    ['query($n: Int) { transactions(first: $n) { edges { node { account { id } } } } }', 1 + 7 * (1 + 1 + 1)],
    ['query($missing: Int) { transactions(first: $missing) { nodes { account { id } } } }', 1 + 25 * (1 + 1)],
    ['{ transactions { nodes { ...T } } } fragment T on Transaction { account { ... on Account { connection { id } } } }', 1 + 25 * (1 + 1 + 1)],
    ['{ __schema { types { fields { name } } } profile { id } }', 1],
    ['mutation { profileUpdate(input: { name: "x" }) { success record { id } errors { path } } }', 1 + 1 + 1],
  ])('prices %s at %i', (query, cost) => {
    expect(measureCosts(schema, parse(query), { n: 7 })).toEqual([cost]);
  });

  it("prices the outside probe's subscription (30 aliases of metadata three lists of accounts deep) far over the limit, where it cost 223", () => {
    const metadata = Array.from({ length: 30 }, (_, i) => `m${i}: metadata`).join(' ');
    const probe = parse(`subscription { connectionSynced { connection { accounts { connection { accounts { connection { accounts { ${metadata} } } } } } } } }`);
    // connectionSynced 1 + connection 1 + accounts (1 + 10 × (connection 1 + accounts (1 + 10 × (connection 1 + accounts (1 + 10 × 300))))).
    expect(measureCosts(schema, probe, {})).toEqual([1 + 1 + 1 + 10 * (1 + 1 + 10 * (1 + 1 + 10 * 300))]);
    expect(checkShape(probe)).toBeUndefined();
  });

  it('limits the costliest operation of a document, with the variables of the request', () => {
    const document = parse('query Cheap { profile { id } } query Pricey($n: Int) { transactions(first: $n) { nodes { account { connection { accounts { id } } } } } }');
    // `transactions` 1 + n × (nodes 1 + account 1 + connection 1 + accounts 1).
    expect(measureCosts(schema, document, { n: 100 })).toEqual([1, 1 + 100 * 4]);
    expect(documentCost(schema, document, { n: 100 })).toBe(401);
    expect(documentCost(schema, document, { n: 2 })).toBe(9);
    expect(documentCost(schema, parse('fragment F on Profile { id }'), {})).toBe(0);
  });

  it('allows a cost of 5000 and refuses 5001', () => {
    // 24 full pages at 1 + 100 × (nodes 1 + account 1) each, one page of 87, and a profile costing 1 or 2.
    const pages = Array.from({ length: 24 }, (_, i) => `p${i}: transactions(first: 100) { nodes { account { id } } }`).join(' ');
    const query = (profile: string) => `{ ${pages} last: transactions(first: 87) { nodes { account { id } } } ${profile} }`;
    const atLimit = documentCost(schema, parse(query('profile { id }')), {});
    const overLimit = documentCost(schema, parse(query('profile { names { first } }')), {});
    expect([atLimit, overLimit]).toEqual([LIMITS.cost, LIMITS.cost + 1]);
    expect(checkCost(atLimit)).toBeUndefined();
    expect(checkCost(overLimit)).toBe('Query cost 5001 exceeds the limit of 5000 (see the Limits section of the schema description)');
  });
});
