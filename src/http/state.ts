import type { EntityManager } from '@mikro-orm/postgresql';
import type { ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import type { Credential } from './credentials.ts';

/** What the middleware chain learns about a request, in order: id and log, version, credential, EntityManager. */
export interface AppState {
  requestId: string;
  log: Logger;
  version: string;
  credential: Credential | undefined;
  em: EntityManager;
  /** The parsed JSON request body, when one was sent. */
  body: unknown;
}

export type AppContext = ParameterizedContext<AppState>;
