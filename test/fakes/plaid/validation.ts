import { errors, type FakePlaidError } from './errors.ts';

/** What is wrong with a request body, by kind, as dotted field paths (`options.count`). */
interface Problems {
  unknown: string[];
  missing: string[];
  invalid: string[];
}

/**
 * How one field is checked. `required` is part of the type so that a shape can be checked against
 * the SDK's request type: a field the SDK declares required must be `required(...)`, and no other.
 */
export interface Rule<Required extends boolean = boolean> {
  readonly required: Required;
  /** Records the problems of a present, non-null value found at `path`. */
  check: (value: unknown, path: string, problems: Problems) => void;
}

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** One rule per field of the SDK request type `T`: a field missing here, or an extra one, fails to compile. */
export type Shape<T> = { [K in keyof T]-?: K extends RequiredKeys<T> ? Rule<true> : Rule<false> };

const rule = (check: Rule['check']): Rule<false> => ({ required: false, check });

/** Marks a field the request type requires. */
export function required(inner: Rule<false>): Rule<true> {
  return { required: true, check: inner.check };
}

export function string(options: { minLength?: number; oneOf?: readonly string[]; url?: boolean } = {}): Rule<false> {
  return rule((value, path, problems) => {
    if (typeof value !== 'string') problems.invalid.push(`${path} must be a string`);
    else if (options.minLength !== undefined && value.length < options.minLength) problems.invalid.push(`${path} must be at least ${options.minLength} characters long`);
    else if (options.oneOf && !options.oneOf.includes(value)) problems.invalid.push(`${path} must be one of [${options.oneOf.join(', ')}]`);
    else if (options.url && !URL.canParse(value)) problems.invalid.push(`${path} must be a valid URL`);
  });
}

/** A day as Plaid writes it, `YYYY-MM-DD`, that exists in the calendar. */
export function date(): Rule<false> {
  return rule((value, path, problems) => {
    const valid = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
    if (!valid) problems.invalid.push(`${path} must be a valid date in YYYY-MM-DD format`);
  });
}

export function integer(min: number, max: number): Rule<false> {
  return rule((value, path, problems) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) problems.invalid.push(`${path} must be an integer`);
    else if (value < min || value > max) problems.invalid.push(`${path} must be between ${min} and ${max}`);
  });
}

export function boolean(): Rule<false> {
  return rule((value, path, problems) => {
    if (typeof value !== 'boolean') problems.invalid.push(`${path} must be a boolean`);
  });
}

export function arrayOf(item: Rule, options: { minItems?: number } = {}): Rule<false> {
  return rule((value, path, problems) => {
    if (!Array.isArray(value)) return void problems.invalid.push(`${path} must be an array`);
    if (options.minItems !== undefined && value.length < options.minItems) problems.invalid.push(`${path} must contain at least ${options.minItems} item(s)`);
    value.forEach((element, index) => {
      if (element === null || element === undefined) problems.invalid.push(`${path}[${index}] must not be null`);
      else item.check(element, `${path}[${index}]`, problems);
    });
  });
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A nested object checked field by field, like the request itself; name its SDK type: `object<Options>({...})`. */
export function object<T = never>(shape: Shape<NoInfer<T>>): Rule<false> {
  return rule((value, path, problems) => {
    if (!isPlainObject(value)) problems.invalid.push(`${path} must be an object`);
    else checkFields(shape as Record<string, Rule>, value, `${path}.`, problems);
  });
}

/** A configuration object the fake does not interpret (Link customisation and the like): any JSON object. */
export function anyObject(): Rule<false> {
  return rule((value, path, problems) => {
    if (!isPlainObject(value)) problems.invalid.push(`${path} must be an object`);
  });
}

function checkFields(shape: Readonly<Record<string, Rule>>, body: Record<string, unknown>, prefix: string, problems: Problems) {
  for (const key of Object.keys(body)) if (!(key in shape)) problems.unknown.push(prefix + key);
  for (const [key, fieldRule] of Object.entries(shape)) {
    const value = body[key];
    // Plaid's decoder treats an explicit null like an absent field (the SDK sends nulls for unset nullable fields).
    if (value === undefined || value === null) {
      if (fieldRule.required) problems.missing.push(prefix + key);
    } else {
      fieldRule.check(value, prefix + key, problems);
    }
  }
}

/**
 * The error Plaid answers for a body that does not fit `shape`, or undefined when it fits. Unknown
 * fields are reported first, then missing ones, then malformed ones, each listing every offender.
 */
export function validateBody(shape: Readonly<Record<string, Rule>>, body: Record<string, unknown>): FakePlaidError | undefined {
  const problems: Problems = { unknown: [], missing: [], invalid: [] };
  checkFields(shape, body, '', problems);
  if (problems.unknown.length > 0) return errors.unknownFields(problems.unknown);
  if (problems.missing.length > 0) return errors.missingFields(problems.missing);
  if (problems.invalid.length > 0) return errors.invalidField(problems.invalid.join('; '));
  return undefined;
}
