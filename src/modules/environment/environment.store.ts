import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../../db/statement.ts';
import { ApiKey, type ApiKeyEntity, type ApiKeyGeneration } from './api-key.entity.ts';
import { Environment, type EnvironmentEntity } from './environment.entity.ts';
import { ProviderSetting, type ProviderSettingEntity } from './provider-setting.entity.ts';

/** What requests and jobs need to know of an environment. */
export type EnvironmentSettings = Pick<EnvironmentEntity, 'id' | 'mode' | 'transactionsRefreshBeta'>;

/** What a credential check needs of a live API key. */
export interface LiveKey {
  apiKeyId: string;
  environmentId: string;
  generation: ApiKeyGeneration;
  apiVersion: string;
}

/** An environment's settings as stored now (it exists: every credential names a live one). */
export function readEnvironment(em: EntityManager, id: string): Promise<EnvironmentSettings> {
  return em.findOneOrFail(Environment, { id }, { fields: ['mode', 'transactionsRefreshBeta'] });
}

export function environmentById(em: EntityManager, id: string): Promise<EnvironmentEntity | null> {
  return em.findOne(Environment, { id });
}

/** Every environment, oldest first. */
export function allEnvironments(em: EntityManager): Promise<EnvironmentEntity[]> {
  return em.find(Environment, {}, { orderBy: { createdAt: 'asc' } });
}

/** Whether the database holds any environment (the first start creates one). */
export async function hasEnvironments(em: EntityManager): Promise<boolean> {
  return (await em.count(Environment, {})) > 0;
}

export function apiKeyById(em: EntityManager, id: string): Promise<ApiKeyEntity | null> {
  return em.findOne(ApiKey, { id });
}

/** The environment's API keys, revoked ones too, oldest first. */
export function environmentKeys(em: EntityManager, environment: EnvironmentEntity): Promise<ApiKeyEntity[]> {
  return em.find(ApiKey, { environment }, { orderBy: { createdAt: 'asc' } });
}

/** The statements of the api_key table; test/stores.test.ts prepares each. */
export const apiKeyStatements = {
  live: `select id as "apiKeyId", environment_id as "environmentId", generation, api_version as "apiVersion"
           from api_key where secret_hash = $1 and revoked_at is null`,
};

/**
 * The live (unrevoked) key whose secret has this hash, or undefined. Runs for every key at most once
 * a second per instance: plain SQL, no entity hydration (through the ORM it cost ~1.3 ms of CPU).
 */
export async function findLiveKey(em: EntityManager, secretHash: string): Promise<LiveKey | undefined> {
  return (await run<LiveKey>(em, apiKeyStatements.live, [secretHash])).rows[0];
}

export function providerSetting(em: EntityManager, environmentId: string, provider: string): Promise<ProviderSettingEntity | null> {
  return em.findOne(ProviderSetting, { environment: environmentId, provider });
}

/** Removes the environment's settings for a provider; false when there were none. */
export async function removeProviderSetting(em: EntityManager, environmentId: string, provider: string): Promise<boolean> {
  return (await em.nativeDelete(ProviderSetting, { environment: environmentId, provider })) > 0;
}

/** Names of the providers configured for the environment, the most recently set first. */
export async function configuredProviders(em: EntityManager, environmentId: string): Promise<string[]> {
  const rows = await em.find(ProviderSetting, { environment: environmentId }, { fields: ['provider'], orderBy: { updatedAt: 'desc' } });
  return rows.map((row) => row.provider);
}
