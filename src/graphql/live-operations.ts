import type { MikroORM } from '@mikro-orm/postgresql';
import { getOperationAST, OperationTypeNode, type ExecutionArgs, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { Credential } from '../api-kit/credential.ts';
import type { DatabaseOutage } from '../db/database-outage.ts';
import type { FieldCipher } from '../lib/field-cipher.ts';
import type { LiveEvents } from '../modules/event/live-events.ts';
import type { GraphQLContext } from './context.ts';
import type { DocumentCache } from './documents.ts';
import { requestError } from './errors.ts';
import { eventStream } from './event-stream.ts';
import { createLoaders } from './loaders.ts';
import { publicOrigin } from '../lib/public-origin.ts';

/** What both live-update transports need to run a subscription. */
export interface LiveDependencies {
  schema: GraphQLSchema;
  documents: DocumentCache;
  /** The primary's ORM: an event is read right after its commit, which a replica may not have yet. */
  orm: MikroORM;
  live: LiveEvents;
  cipher: FieldCipher;
  logger: Logger;
  outage: DatabaseOutage;
  /** PUBLIC_URL, where the links a subscription hands out point (else the Host the client connected to). */
  publicUrl: string | undefined;
}

/** A credential that acts as a profile: an API key alone, or a console session, acts as none, so it may not subscribe. */
export type ProfileCredential = Extract<Credential, { profileId: string }>;

export function actsAsProfile(credential: Credential): credential is ProfileCredential {
  return credential.kind === 'basic' || credential.kind === 'session';
}

/**
 * A subscription's execution arguments, or why it cannot run: its document obeys the query limits
 * (prepared by the same DocumentCache), and only subscriptions run here (queries and mutations go
 * over HTTP). Its context follows the profile's events, each read with a fresh unit of work, so a
 * long subscription never serves what an earlier event cached.
 */
export function liveOperation(
  deps: LiveDependencies,
  credential: ProfileCredential,
  requestId: string,
  request: { query: unknown; variables?: unknown; operationName?: unknown },
  host: string | undefined,
): (ExecutionArgs & { contextValue: GraphQLContext }) | GraphQLError[] {
  if (typeof request.query !== 'string') return [requestError('A subscription needs its document as a string in `query`', 'BAD_REQUEST')];
  const variables = isRecord(request.variables) ? request.variables : undefined;
  const operationName = typeof request.operationName === 'string' ? request.operationName : undefined;
  const prepared = deps.documents.prepare(request.query, variables);
  if (!('document' in prepared)) return prepared.errors;
  if (getOperationAST(prepared.document, operationName)?.operation !== OperationTypeNode.SUBSCRIPTION) {
    return [requestError('Only subscriptions run here: send queries and mutations to POST /v1/graphql', 'BAD_REQUEST')];
  }
  const { profileId, environmentId } = credential;
  const em = deps.orm.em.fork();
  const context: GraphQLContext = {
    profileId,
    environmentId,
    em,
    sql: deps.orm.em,
    cipher: deps.cipher,
    log: deps.logger.child({ requestId }),
    requestId,
    get origin() {
      return publicOrigin(deps.publicUrl, host);
    },
    loaders: createLoaders({ em, sql: deps.orm.em }, credential, deps.cipher),
    follow: (wants) =>
      eventStream(
        wants,
        (follower) => deps.live.follow(profileId, follower),
        () => {
          context.em = deps.orm.em.fork();
          context.loaders = createLoaders(context, credential, deps.cipher);
        },
      ),
  };
  return { schema: deps.schema, document: prepared.document, variableValues: variables, operationName, contextValue: context };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
