/** Fields of a PostgreSQL error that name where it happened, never what data was involved. */
const DATABASE_FIELDS = ['code', 'severity', 'routine', 'schema', 'table', 'column', 'dataType', 'constraint'] as const;
const MAX_DEPTH = 5;

/**
 * The logger's `err` serializer. A PostgreSQL error (raw from pg or wrapped by MikroORM) quotes the
 * data it was given: in `detail` ("Failing row contains (…)"), `where` ("JSON data, line 1: …"),
 * `internalQuery`, and in quoted parts of its message (`invalid input syntax for type integer:
 * "…"`), which MikroORM extends with the detail. Such an error is logged by its SQLSTATE code, the
 * schema objects it names, its message with quoted parts masked, and its stack frames. Other errors
 * keep their message, stack and own fields; causes get the same treatment.
 */
export function serializeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return err;
  if (isDatabaseError(err)) return databaseError(err);
  const serialized: Record<string, unknown> = { type: err.constructor.name || err.name, message: err.message, stack: err.stack };
  // Causes can be circular; a few levels say enough.
  if (depth >= MAX_DEPTH) return serialized;
  const nested = (value: unknown) => serializeError(value, depth + 1);
  for (const [key, value] of Object.entries(err)) if (!(key in serialized)) serialized[key] = nested(value);
  if (err.cause !== undefined) serialized.cause = nested(err.cause);
  if (err instanceof AggregateError) serialized.aggregateErrors = err.errors.map(nested);
  return serialized;
}

function isDatabaseError(err: Error): err is Error & Record<(typeof DATABASE_FIELDS)[number], unknown> {
  const { code, severity } = err as { code?: unknown; severity?: unknown };
  return typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

function databaseError(err: Error & Record<(typeof DATABASE_FIELDS)[number], unknown>): Record<string, unknown> {
  const type = err.constructor.name || err.name;
  const message = (err.message.split('\n')[0] ?? '').replace(/"[^"]*"|'[^']*'/g, '"…"');
  const frames = (err.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
  const serialized: Record<string, unknown> = { type, message, stack: [`${type}: ${message}`, ...frames].join('\n') };
  for (const field of DATABASE_FIELDS) if (typeof err[field] === 'string') serialized[field] = err[field];
  return serialized;
}
