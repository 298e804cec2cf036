import type { components } from '../../../generated/rest.ts';
import { encodeId } from '../../lib/ids.ts';
import { providerWebhookUrl } from '../../lib/provider-webhook-url.ts';
import type { ApiKeyEntity } from './api-key.entity.ts';
import type { EnvironmentEntity } from './environment.entity.ts';

type Schemas = components['schemas'];

/** An environment, with where the service's PUBLIC_URL (if any) has providers send its webhooks. */
export function presentEnvironment(environment: EnvironmentEntity, publicUrl: string | undefined): Schemas['Environment'] {
  return {
    id: encodeId('environment', environment.id),
    name: environment.name,
    mode: environment.mode,
    at: environment.createdAt.toISOString(),
    publicUrl: publicUrl ?? null,
    providerWebhookUrl: providerWebhookUrl(publicUrl, '{provider}', environment.id),
  };
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
