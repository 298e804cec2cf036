import fc from 'fast-check';
import { anyRealId } from './id-values.ts';
import { ownObject, RawJson } from './json-text.ts';

/** Keys that mean something to JavaScript objects. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf'];

/** Text PostgreSQL cannot store or that trips naive code: NUL, unpaired surrogates, controls, odd Unicode, dates at the edges of what PostgreSQL holds. */
const NASTY_TEXT = [
  '', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\udc00\ud800', '\ud83d', '\u2028\u2029', '\u202e', '\ufeff', '\uffff', '\u{10ffff}',
  '%00', '%', '%zz', '%ff', '%ED%A0%80', '..', '../../etc/passwd', "' OR 1=1 --", '"; drop table profile; --', '<script>alert(1)</script>',
  '${jndi:ldap://x}', '{{7*7}}', 'null', 'undefined', 'true', 'NaN', '-0', '1e400', '0x10', '٣', '2026-02-30', '2026-4-1', '0000-00-00T00:00:00Z',
  '9999-12-31T23:59:59.999Z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59-23:59', '2016-12-31T23:59:60Z', '0000-01-01', '0001-01-01', 'Ω≈ç√∫', '👩‍👩‍👧‍👦', 'a\r\nb', '\t', '\\', '"', 'sk_live_0000000000000000000000', 'whsec_AAAA',
];

/**
 * Any code point, lone surrogates included. Built from an integer rather than fast-check's `binary` and
 * `grapheme` units, whose lookup tables take seconds to build.
 */
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code));

/** Well-formed text beyond ASCII: no controls, no surrogates. */
export const unicodeText = (constraints: { minLength?: number; maxLength?: number }) =>
  fc.string({ ...constraints, unit: fc.integer({ min: 0x20, max: 0x10ffff - 0x800 }).map((code) => String.fromCodePoint(code < 0xd800 ? code : code + 0x800)) });

const longString = fc.constantFrom(101, 201, 1_001, 10_000, 100_000).chain((length) =>
  fc.constantFrom('a', 'é', '\u0000', '😀').map((unit) => unit.repeat(length)),
);

/** Strings meant to break a field: nasty text, long text, any Unicode, and real ids of any kind. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  { weight: 2, arbitrary: fc.string({ unit: anyCodePoint, maxLength: 40 }) },
  { weight: 1, arbitrary: unicodeText({ maxLength: 40 }) },
  { weight: 1, arbitrary: longString },
  { weight: 1, arbitrary: anyRealId },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 5 }), fc.constantFrom('\u0000', '\ud800', '\udfff')).map(([text, bad]) => text + bad) },
);

const NUMBERS = [0, -1, 1.5, -0.5, 0.1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e21, 1e308, -1e308, Number.MIN_VALUE, 1_000_001, 123456.789];

/** Deeply nested or huge JSON, each within the 1 MiB body limit. */
const bulkJson: fc.Arbitrary<RawJson> = fc.oneof(
  fc.constantFrom(100, 1_000, 10_000, 100_000).map((depth) => new RawJson(`array nested ${depth} deep`, () => '['.repeat(depth) + ']'.repeat(depth))),
  fc.constantFrom(100, 1_000, 10_000, 100_000).map((depth) => new RawJson(`object nested ${depth} deep`, () => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth))),
  fc.constantFrom(1_000, 100_000, 300_000).map((size) => new RawJson(`array of ${size} zeros`, () => `[${Array(size).fill('0').join(',')}]`)),
  fc.constantFrom(1_000, 20_000).map((size) => new RawJson(`object of ${size} keys`, () => `{${Array.from({ length: size }, (_, index) => `"k${index}":${index}`).join(',')}}`)),
  fc.constantFrom(1_000, 20_000).map((size) => new RawJson(`array of ${size} objects`, () => `[${Array(size).fill('{"a":{"b":[1,"x",null]}}').join(',')}]`)),
);

/** Numbers as JSON text that JavaScript would round: only the server's parser sees them. */
const rawNumber = fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '0.000000000000000000000000001', '1E+2', '-0', '1.0', '9007199254740993').map((text) => new RawJson(text, () => text));

/** An object whose keys are prototype-named, nasty or long. */
const hostileObject: fc.Arbitrary<Record<string, unknown>> = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), hostileString.filter((key) => key.length < 200)), fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostileString)), { minLength: 1, maxLength: 4 })
  .map(ownObject);

/** A value of any type, likely not the one a field wants, or out of its range. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBERS) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: rawNumber },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], [[]], ['x'], { a: 1 }) },
  { weight: 2, arbitrary: hostileObject },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: bulkJson },
);

/** How one part of a valid value is broken. */
type Mutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'addKey'; at: number; key: string; value: unknown }
  | { kind: 'remove'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: hostileValue }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('addKey' as const),
      at: fc.nat(),
      key: fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), hostileString.filter((key) => key.length < 200), fc.string({ minLength: 1, maxLength: 12 })),
      value: fc.oneof(hostileValue, fc.jsonValue({ maxDepth: 1 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }) },
);

/** A valid value with exactly one place broken: a field of the wrong type or range, an extra key, a missing key. */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, mutation).map(([value, change]) => applyMutation(value, change));
}

function applyMutation(value: unknown, change: Mutation): unknown {
  const places = placesIn(value);
  const place = places[change.at % places.length];
  switch (change.kind) {
    case 'replace':
      return setAt(value, place, change.value);
    case 'remove':
      return place.length === 0 ? undefined : setAt(value, place, undefined);
    case 'addKey': {
      const objects = places.filter((path) => isObject(getAt(value, path)));
      if (objects.length === 0) return setAt(value, place, ownObject([[change.key, change.value]]));
      const target = objects[change.at % objects.length];
      return setAt(value, target, ownObject([...Object.entries(getAt(value, target) as object), [change.key, change.value]]));
    }
  }
}

type Path = Array<string | number>;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof RawJson);

/** Every path in a value, the root (`[]`) first. */
function placesIn(value: unknown, path: Path = []): Path[] {
  const children = Array.isArray(value) ? value.map((item, index) => placesIn(item, [...path, index])) : isObject(value) ? Object.entries(value).map(([key, item]) => placesIn(item, [...path, key])) : [];
  return [path, ...children.flat()];
}

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | null | undefined)?.[key], value);
}

/** A copy of `value` with `replacement` at `path` (undefined removes an object key). */
function setAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? setAt(item, rest, replacement) : item));
  const entries = Object.entries(value as object).map(([key, item]): [string, unknown] => [key, key === head ? setAt(item, rest, replacement) : item]);
  return ownObject(entries.filter(([, item]) => item !== undefined));
}
