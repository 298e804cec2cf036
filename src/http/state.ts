import type { EntityManager } from '@mikro-orm/postgresql';
import type { ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import type { AppError } from '../errors.ts';
import type { Route } from '../rest/routes.ts';
import type { Credential } from '../api-kit/credential.ts';

/** What the middleware chain learns about a request, in order: route, id and log, version, credential, EntityManager. */
export interface AppState {
  /**
   * Where the request falls in the REST contract, matched once on arrival: metrics label the request
   * by its template, the REST front door calls its operation. Undefined: no path of the contract.
   */
  route: Route | undefined;
  requestId: string;
  log: Logger;
  version: string;
  credential: Credential | undefined;
  /** Set when an Authorization header was sent but did not resolve; answered with 401 after rate limiting. */
  credentialError?: AppError;
  /**
   * The EntityManager operations work through: the primary's (credentials, writes, and whatever must
   * read its own writes). A REST GET served from the replica hands its handler `reads` instead (src/rest/dispatch.ts).
   */
  em: EntityManager;
  /**
   * For reads that may lag a moment: the read replica's EntityManager when DATABASE_REPLICA_URL is set,
   * else the primary's. GraphQL queries and most REST GETs read through it.
   */
  reads: EntityManager;
  /** The ORM's own EntityManagers, unforked, for handlers that send plain SQL only (src/rest/dispatch.ts, PLAIN_SQL). */
  unforked: { em: EntityManager; reads: EntityManager };
  /** The parsed JSON request body, when one was sent. */
  body: unknown;
  /** The body's exact bytes (signatures of inbound provider webhooks cover them). */
  rawBody?: Buffer;
}

export type AppContext = ParameterizedContext<AppState>;
