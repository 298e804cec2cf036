import fc from 'fast-check';

/**
 * JSON text spliced verbatim into a generated value: numbers JavaScript cannot hold (`1e400`), and
 * bulk (deep nesting, huge arrays) built only when sent, so a counterexample prints as its label
 * rather than as a megabyte of brackets.
 */
export class RawJson {
  readonly label: string;
  readonly #build: () => string;

  constructor(label: string, build: () => string) {
    this.label = label;
    this.#build = build;
  }

  text(): string {
    return this.#build();
  }

  [fc.toStringMethod](): string {
    return `raw(${this.label})`;
  }
}

/** Serialises a generated value: like JSON.stringify, with RawJson spliced in and own `__proto__` keys kept. */
export function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.text();
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** An object with exactly these own properties, even one named `__proto__` (a literal would set the prototype). */
export function ownObject(entries: Array<[string, unknown]>): Record<string, unknown> {
  return Object.fromEntries(entries);
}
