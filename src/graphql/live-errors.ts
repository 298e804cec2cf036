import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';
import type { DatabaseOutage } from '../db/database-outage.ts';
import { newErrorId } from '../http/errors.ts';
import { formatGraphQLError } from './errors.ts';
import { FeedEnded } from './event-stream.ts';

/**
 * A live-update error as the contract shapes it: a subscription the service ended (its feed lost,
 * or the subscriber too far behind) is INTERNAL_SERVER_ERROR with the message saying to subscribe
 * again; anything else as GraphQL over HTTP formats it.
 */
export function formatLiveError(error: GraphQLError, log: Logger, outage: DatabaseOutage): GraphQLFormattedError {
  if (error.originalError instanceof FeedEnded) {
    return { message: error.originalError.message, extensions: { code: 'INTERNAL_SERVER_ERROR', errorId: newErrorId() } };
  }
  return formatGraphQLError(error, log, outage);
}
