import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { CURRENT_VERSION } from '../config.ts';
import type { Credential } from '../api-kit/credential.ts';
import type { AppError } from '../errors.ts';
import type { Route } from '../rest/routes.ts';
import type { AppState } from './state.ts';

/** The service's databases, made once: a request forks their EntityManagers, or uses them unforked (AppState.unforked). */
export interface Databases {
  orm: MikroORM;
  /** The read replica, when one is configured. */
  replica?: MikroORM;
  unforked: AppState['unforked'];
}

/**
 * A request's state (AppState), made once on arrival. The EntityManager forks and the child logger
 * are made on first use, through getters on the prototype: a request answered from memory (/healthz
 * with a remembered credential, a 429) makes none of them. Getters defined on each request's object
 * (Object.defineProperty) cost ~1.6 KB and ~1.5 µs a request; these cost nothing until read.
 */
export class RequestState implements AppState {
  route: Route | undefined;
  requestId = '';
  version: string = CURRENT_VERSION;
  credential: Credential | undefined = undefined;
  credentialError?: AppError = undefined;
  body: unknown = undefined;
  rawBody?: Buffer = undefined;
  readonly #logger: Logger;
  readonly #databases: Databases | undefined;
  #em: EntityManager | undefined;
  #reads: EntityManager | undefined;
  #log: Logger | undefined;

  /** `databases` undefined: an app without a database (test/support/failing-app.ts); reading `em` throws. */
  constructor(route: Route | undefined, logger: Logger, databases?: Databases) {
    this.route = route;
    this.#logger = logger;
    this.#databases = databases;
  }

  get em(): EntityManager {
    return (this.#em ??= this.#database().orm.em.fork());
  }

  get unforked(): AppState['unforked'] {
    return this.#database().unforked;
  }

  get reads(): EntityManager {
    return (this.#reads ??= this.#databases?.replica ? this.#databases.replica.em.fork() : this.em);
  }

  #database(): Databases {
    if (!this.#databases) throw new Error('This app has no database');
    return this.#databases;
  }

  /** The request's logger: the service's, with the request id in every line. */
  get log(): Logger {
    return (this.#log ??= this.#logger.child({ requestId: this.requestId }));
  }
}
