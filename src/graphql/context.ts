import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldCipher } from '../lib/field-cipher.ts';
import type { Logger } from 'pino';
import type { Loaders } from './loaders.ts';

/**
 * What every resolver gets: the acting profile, its environment, and its operation's EntityManager
 * (the read replica's for a query when one is configured, the primary's for a mutation).
 */
export type GraphQLContext = {
  profileId: string;
  environmentId: string;
  em: EntityManager;
  cipher: FieldCipher;
  log: Logger;
  requestId: string;
  loaders: Loaders;
};
