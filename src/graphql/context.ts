import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldCipher } from '../lib/field-cipher.ts';
import type { Logger } from 'pino';
import type { EventEntity } from '../modules/event/event.entity.ts';
import type { Loaders } from './loaders.ts';
import type { CorrectionJobs } from '../modules/categorization/categorization.jobs.ts';

/**
 * What every resolver gets: the acting profile, its environment, and its operation's EntityManager
 * (the read replica's for a query when one is configured, the primary's for a mutation).
 */
export type GraphQLContext = {
  profileId: string;
  environmentId: string;
  em: EntityManager;
  /**
   * The same database's EntityManager unforked, for the stores' plain statements only
   * (src/db/statement.ts `run`): a page of transactions and its accounts need no fork of their own.
   * An identity-map call on it throws (MikroORM refuses the global context).
   */
  sql: EntityManager;
  cipher: FieldCipher;
  log: Logger;
  requestId: string;
  /** Where the links the profile is handed (statement downloads) point: PUBLIC_URL's origin, else the request's. */
  origin: string;
  loaders: Loaders;
  /** Where a category correction queues its follow-up work; absent over live-update transports, which run subscriptions only. */
  corrections?: CorrectionJobs;
  /** Over a live-update transport: the profile's events of the wanted types, each read with a fresh `em` and `loaders`. */
  follow?: (wants: (type: string) => boolean) => AsyncIterableIterator<EventEntity>;
};
