import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';
import type { ErrorCode } from '../errors.ts';
import type { DatabaseOutage } from '../db/database-outage.ts';
import { toAppError, newErrorId } from '../http/errors.ts';

/** An error of the whole request (nothing of it runs or is sent) with one of the contract's codes. */
export function requestError(message: string, code: ErrorCode): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}

/**
 * Errors as data: every error entry carries `extensions.code`, from the contract's ErrorCode list
 * (a domain error keeps its own code, as in REST), and an `errorId` that is also in the log.
 * Unexpected failures keep their details in the log only; a database outage (NOT_READY) is logged
 * once by `outage`, as in REST, not by each resolver it fails.
 */
export function formatGraphQLError(error: GraphQLError, log: Logger, outage: DatabaseOutage): GraphQLFormattedError {
  const formatted = typeof error.toJSON === 'function' ? error.toJSON() : { message: error.message };
  if (!error.path) {
    // A request error (syntax, validation, a variable that does not coerce): never a server fault.
    const reason = error.originalError instanceof TypeError ? error.originalError.message : undefined;
    const code: ErrorCode = reason === undefined ? 'GRAPHQL_VALIDATION_FAILED' : 'BAD_USER_INPUT';
    // graphql-jit's variable errors name the expected type only; the scalar's reason says what to fix.
    const message = reason === undefined || formatted.message.includes(reason) ? formatted.message : `${formatted.message} ${reason}`;
    return { ...formatted, message, extensions: { code, ...formatted.extensions, errorId: newErrorId() } };
  }
  if (!error.originalError || 'locations' in error.originalError) {
    const code: ErrorCode = 'INTERNAL_SERVER_ERROR';
    return { ...formatted, extensions: { code, ...formatted.extensions, errorId: newErrorId() } };
  }
  const appError = toAppError(error.originalError);
  const errorId = newErrorId();
  if (appError.code === 'NOT_READY') outage.notice(error.originalError);
  else if (appError.status >= 500) log.error({ errorId, err: error.originalError }, 'resolver failed');
  return {
    message: appError.message,
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { code: appError.code, errorId },
  };
}
