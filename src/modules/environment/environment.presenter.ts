import type { components } from '../../../generated/rest.ts';
import { encodeId } from '../../lib/ids.ts';
import type { ApiKeyEntity } from './api-key.entity.ts';
import type { EnvironmentEntity } from './environment.entity.ts';

type Schemas = components['schemas'];

export function presentEnvironment(environment: EnvironmentEntity): Schemas['Environment'] {
  return { id: encodeId('environment', environment.id), name: environment.name, mode: environment.mode, at: environment.createdAt.toISOString() };
}

/** A key without its secret or hash. */
export function presentApiKey(key: ApiKeyEntity): Schemas['ApiKey'] {
  return {
    id: encodeId('apiKey', key.id),
    name: key.name,
    lastFour: key.lastFour,
    generation: key.generation,
    apiVersion: key.apiVersion,
    at: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}
