import type { FormattedExecutionResult, GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import type { DatabaseOutage } from '../db/database-outage.ts';
import { requestError } from './errors.ts';
import { LIMITS } from './limits.ts';
import { formatLiveError } from './live-errors.ts';
import { jsonFits } from './result-size.ts';

/**
 * An event's result as the live-update transports send it, or undefined to send it as it is: its
 * errors as the contract shapes them, and a result whose JSON would pass `LIMITS.responseBytes`
 * replaced by a RESPONSE_TOO_LARGE error and no `data` (found before its text is written). Only that
 * event is refused: the subscription goes on, and a later event that fits is sent whole.
 */
export function eventResult(result: { data?: unknown; errors?: readonly GraphQLError[] }, log: Logger, outage: DatabaseOutage): FormattedExecutionResult | undefined {
  const formatted = result.errors ? { ...result, errors: result.errors.map((error) => formatLiveError(error, log, outage)) } : result;
  if (jsonFits(formatted, LIMITS.responseBytes)) return result.errors ? (formatted as FormattedExecutionResult) : undefined;
  const tooLarge = requestError(
    `This event's result would pass ${LIMITS.responseBytes} bytes, the limit per event, and was not sent; the subscription goes on: select fewer fields or lists (metadata, nested accounts) to receive its events`,
    'RESPONSE_TOO_LARGE',
  );
  return { errors: [formatLiveError(tooLarge, log, outage)] };
}
