import { randomBytes } from 'node:crypto';
import { NotFoundError, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Middleware } from 'koa';
import type { components } from '../../generated/rest.ts';
import { AppError, conflict, notFound, ValidationError } from '../errors.ts';
import { isDatabaseUnavailable, type DatabaseOutage } from '../db/database-outage.ts';
import { databaseUnavailable } from './database-outage.ts';
import type { AppContext, AppState } from './state.ts';

/** The contract's error body (components/schemas/Error in rest.yaml). */
export type ErrorBody = components['schemas']['Error'];

/**
 * Turns anything thrown below into the contract's error body. Domain errors keep their status;
 * MikroORM's not-found and unique violations become 404 and 409, an unreachable database 503
 * NOT_READY (noticed by `outage`); anything else is a 500 whose details go to the log under its
 * errorId and never to the client.
 */
export function errorHandler(outage: DatabaseOutage): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw notFound(`Route ${ctx.method} ${ctx.path}`);
    } catch (thrown) {
      const error = toAppError(thrown);
      if (error.code === 'NOT_READY') outage.notice(thrown);
      sendError(ctx, error, thrown);
    }
  };
}

export function toAppError(thrown: unknown): AppError {
  if (thrown instanceof AppError) return thrown;
  if (thrown instanceof NotFoundError) return notFound('Resource');
  if (thrown instanceof UniqueConstraintViolationException) return conflict('A record with these values already exists');
  if (isDatabaseUnavailable(thrown)) return databaseUnavailable();
  return new AppError(500, 'INTERNAL_SERVER_ERROR', 'Something went wrong on our side', {
    instruction: 'Retry later; if it persists, contact the operator with the errorId.',
  });
}

export function newErrorId(): string {
  return `err_${randomBytes(10).toString('hex')}`;
}

export function sendError(ctx: AppContext, error: AppError, cause: unknown = error): void {
  const errorId = newErrorId();
  const body: ErrorBody = { code: error.code, message: error.message, requestId: ctx.state.requestId, errorId };
  if (error.instruction) body.instruction = error.instruction;
  if (error instanceof ValidationError) body.errors = groupIssues(error);
  // A database outage is logged by DatabaseOutage, once, not by each request it refuses. A 5xx
  // answered on purpose (a provider unavailable) is one line: its stack would say nothing.
  if (error.status >= 500 && error.code !== 'NOT_READY') ctx.state.log.error(cause === error ? { errorId, code: error.code, reason: error.message } : { errorId, err: cause }, 'request failed');
  // Messages can quote the request (field names, a Content-Type): the code says enough.
  else ctx.state.log.debug({ errorId, code: error.code }, 'request refused');
  ctx.set(error.headers);
  ctx.status = error.status;
  ctx.body = body;
}

/** Issue messages by field path. Paths come from the request ("constructor", "__proto__"), so they are Map keys, never property lookups. */
function groupIssues(error: ValidationError): Record<string, string[]> {
  const errors = new Map<string, string[]>();
  for (const issue of error.issues) {
    const field = issue.path.join('.') || 'body';
    errors.set(field, [...(errors.get(field) ?? []), issue.message]);
  }
  return Object.fromEntries(errors);
}
