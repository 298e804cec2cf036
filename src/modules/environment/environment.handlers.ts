import type { EntityManager } from '@mikro-orm/postgresql';
import type { components } from '../../../generated/rest.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import { conflict, notFound, ValidationError } from '../../errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { decodeId } from '../../lib/ids.ts';
import type { ProviderFactory } from '../../providers/directory.ts';
import { createApiKey } from './api-key.service.ts';
import type { EnvironmentEntity } from './environment.entity.ts';
import { presentApiKey, presentEnvironment } from './environment.presenter.ts';
import { grantsOf } from '../operator/operator.store.ts';
import { allEnvironments, apiKeyById, environmentById, environmentKeys } from './environment.store.ts';
import { ProviderSettings } from './provider-settings.service.ts';

type EnvironmentOperations = 'listEnvironments' | 'listApiKeys' | 'createApiKey' | 'revokeApiKey' | 'listProviderSettings' | 'setProviderSettings' | 'removeProviderSettings';

async function environmentOf(em: EntityManager, environmentId: string) {
  const environment = await environmentById(em, environmentId);
  if (!environment) throw notFound('Environment');
  return environment;
}

/**
 * REST handlers for an environment's own administration: its API keys and its upstream provider
 * settings (the CLI's `keys` and `providers` verbs), on the credential's environment only.
 */
export function environmentHandlers({ cipher, factories, publicUrl }: { cipher: FieldCipher; factories: ProviderFactory[]; publicUrl: string | undefined }): Handlers<EnvironmentOperations> {
  const settings = (em: EntityManager) => new ProviderSettings(em, cipher);
  const summary = async (em: EntityManager, environmentId: string, provider: string) => {
    const stored = await settings(em).describe(environmentId, provider);
    if (!stored) throw notFound('Provider settings');
    return { ...stored, provider: provider as components['schemas']['ProviderName'] };
  };
  return {
    async listEnvironments({ credential, em }) {
      const present = (environment: EnvironmentEntity) => presentEnvironment(environment, publicUrl);
      if (credential.kind !== 'operator') return { status: 200, body: [present(await environmentOf(em, credential.environmentId))] };
      const grants = (await grantsOf(em, [credential.operatorId])).get(credential.operatorId) ?? [];
      const granted = new Set(grants.map((grant) => grant.environment?.id ?? null));
      const environments = (await allEnvironments(em)).filter((environment) => granted.has(null) || granted.has(environment.id));
      return { status: 200, body: environments.map(present) };
    },
    async listApiKeys({ credential, em }) {
      const keys = await environmentKeys(em, await environmentOf(em, credential.environmentId));
      return { status: 200, body: keys.map(presentApiKey) };
    },
    async createApiKey({ body, credential, em }) {
      const { key, secret } = createApiKey(em, await environmentOf(em, credential.environmentId), body.name);
      await em.flush();
      return { status: 201, body: { ...presentApiKey(key), secret } };
    },
    async revokeApiKey({ params, credential, em }) {
      const id = decodeId('apiKey', params.keyId);
      const key = id ? await apiKeyById(em, id) : null;
      if (!key || key.environment.id !== credential.environmentId) throw notFound('API key');
      if (credential.kind === 'apiKey' && credential.apiKeyId === key.id) throw conflict('An API key cannot revoke itself', { instruction: 'Revoke it with another key of the environment, or from the console.' });
      key.revokedAt ??= new Date();
      await em.flush();
      return { status: 200, body: presentApiKey(key) };
    },
    async listProviderSettings({ credential, em }) {
      const names = await settings(em).configured(credential.environmentId);
      return { status: 200, body: await Promise.all(names.map((provider) => summary(em, credential.environmentId, provider))) };
    },
    async setProviderSettings({ params, body, credential, em }) {
      const factory = factories.find((candidate) => candidate.name === params.provider);
      if (!factory) throw new ValidationError([{ path: ['provider'], message: `${params.provider} is built in and takes no settings` }]);
      const environment = await environmentOf(em, credential.environmentId);
      const parsed = factory.parseSettings(body, environment.mode);
      if ('problem' in parsed) throw new ValidationError([{ path: [], message: parsed.problem }]);
      await settings(em).set(environment.id, factory.name, parsed.settings);
      return { status: 200, body: await summary(em, environment.id, factory.name) };
    },
    async removeProviderSettings({ params, credential, em }) {
      if (!(await settings(em).remove(credential.environmentId, params.provider))) throw notFound('Provider settings');
      return { status: 204 };
    },
  };
}
