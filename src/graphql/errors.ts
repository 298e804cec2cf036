import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { toAppError, newErrorId } from '../http/errors.ts';
import type { Logger } from 'pino';

const CODES: Record<number, string> = { 400: 'BAD_USER_INPUT', 404: 'NOT_FOUND', 409: 'CONFLICT', 422: 'BAD_USER_INPUT' };

/**
 * Errors as data: every error entry carries `extensions.code` and an `errorId` that is also in the
 * log. Unexpected failures keep their details in the log only.
 */
export function formatGraphQLError(error: GraphQLError, log: Logger): GraphQLFormattedError {
  const formatted = typeof error.toJSON === 'function' ? error.toJSON() : { message: error.message };
  if (!error.path) {
    // A request error (syntax, validation, a variable that does not coerce): never a server fault.
    const reason = error.originalError instanceof TypeError ? error.originalError.message : undefined;
    const code = reason === undefined ? 'GRAPHQL_VALIDATION_FAILED' : 'BAD_USER_INPUT';
    // graphql-jit's variable errors name the expected type only; the scalar's reason says what to fix.
    const message = reason === undefined || formatted.message.includes(reason) ? formatted.message : `${formatted.message} ${reason}`;
    return { ...formatted, message, extensions: { code, ...formatted.extensions, errorId: newErrorId() } };
  }
  if (!error.originalError || 'locations' in error.originalError) {
    return { ...formatted, extensions: { code: 'INTERNAL_SERVER_ERROR', ...formatted.extensions, errorId: newErrorId() } };
  }
  const appError = toAppError(error.originalError);
  const errorId = newErrorId();
  if (appError.status >= 500) log.error({ errorId, err: error.originalError }, 'resolver failed');
  return {
    message: appError.message,
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { code: CODES[appError.status] ?? 'INTERNAL_SERVER_ERROR', errorId },
  };
}
