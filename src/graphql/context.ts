import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldCipher } from '../lib/field-cipher.ts';
import type { Logger } from 'pino';
import type { Loaders } from './loaders.ts';

/** What every resolver gets: the acting profile, its environment, and the request's EntityManager. */
export type GraphQLContext = {
  profileId: string;
  environmentId: string;
  em: EntityManager;
  cipher: FieldCipher;
  log: Logger;
  requestId: string;
  loaders: Loaders;
};
