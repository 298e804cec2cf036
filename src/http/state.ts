import type { EntityManager } from '@mikro-orm/postgresql';
import type { ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import type { AppError } from '../errors.ts';
import type { Credential } from './credentials.ts';

/** What the middleware chain learns about a request, in order: id and log, version, credential, EntityManager. */
export interface AppState {
  requestId: string;
  log: Logger;
  version: string;
  credential: Credential | undefined;
  /** Set when an Authorization header was sent but did not resolve; answered with 401 after rate limiting. */
  credentialError?: AppError;
  em: EntityManager;
  /** The parsed JSON request body, when one was sent. */
  body: unknown;
  /** The body's exact bytes (signatures of inbound provider webhooks cover them). */
  rawBody?: Buffer;
}

export type AppContext = ParameterizedContext<AppState>;
