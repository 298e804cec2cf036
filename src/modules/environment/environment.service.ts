import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { CURRENT_VERSION, SUPPORTED_VERSIONS } from '../../config.ts';
import { decodeId, uuidv7 } from '../../lib/ids.ts';
import { ApiKey, type ApiKeyEntity } from './api-key.entity.ts';
import { CURRENT_KEY_PREFIX, createApiKey, hashSecret } from './api-key.service.ts';
import { Environment, ENVIRONMENT_MODES, type EnvironmentEntity, type EnvironmentMode } from './environment.entity.ts';
import { allEnvironments, apiKeyById, environmentById, environmentKeys, readEnvironment } from './environment.store.ts';

// Other modules read an environment's settings through its service.
export { readEnvironment, type EnvironmentSettings } from './environment.store.ts';

/** How long a remembered mode is used before it is read again. */
const MODE_RECHECK_MS = 60_000;

/**
 * Environments' modes, remembered for the webhook attempts (one read a minute per environment, not
 * one per attempt). A mode is set when the environment is created and no command changes it; the
 * recheck bounds how long a change made by hand would take. A deleted environment takes its
 * subscriptions with it, so no attempt asks for it.
 */
export class EnvironmentModes {
  readonly #orm: MikroORM;
  readonly #known = new Map<string, { mode: EnvironmentMode; readAt: number }>();

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  async of(environmentId: string): Promise<EnvironmentMode> {
    const known = this.#known.get(environmentId);
    if (known && Date.now() - known.readAt < MODE_RECHECK_MS) return known.mode;
    const { mode } = await readEnvironment(this.#orm.em.fork(), environmentId);
    this.#known.set(environmentId, { mode, readAt: Date.now() });
    return mode;
  }
}

/** A mistake in an operator's command: the message says what to fix. */
export class OperatorError extends Error {}

/** Operator actions on environments and API keys (the CLI's verbs). */
export class EnvironmentAdmin {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  listEnvironments(): Promise<EnvironmentEntity[]> {
    return allEnvironments(this.#em);
  }

  async createEnvironment(name: string, mode: string): Promise<EnvironmentEntity> {
    if (!ENVIRONMENT_MODES.includes(mode as EnvironmentMode)) throw new OperatorError(`mode must be one of ${ENVIRONMENT_MODES.join(', ')}`);
    const environment = this.#em.create(Environment, { id: uuidv7(), name, mode: mode as EnvironmentMode, transactionsRefreshBeta: mode === 'SANDBOX' });
    await this.#em.flush();
    return environment;
  }

  /** Enables or disables the beta transactions refresh for an environment. */
  async setTransactionsRefreshBeta(environmentId: string, enabled: boolean): Promise<EnvironmentEntity> {
    const environment = await this.#environment(environmentId);
    environment.transactionsRefreshBeta = enabled;
    await this.#em.flush();
    return environment;
  }

  async createKey(environmentId: string, name: string, apiVersion: string = CURRENT_VERSION): Promise<{ key: ApiKeyEntity; secret: string }> {
    checkVersion(apiVersion);
    const created = createApiKey(this.#em, await this.#environment(environmentId), name, apiVersion);
    await this.#em.flush();
    return created;
  }

  /** Imports an older-generation secret (no `sk_` prefix): it keeps working, at the lower rate limit. */
  async importLegacyKey(environmentId: string, name: string, secret: string): Promise<ApiKeyEntity> {
    if (secret.startsWith(CURRENT_KEY_PREFIX)) throw new OperatorError(`older-generation keys have no ${CURRENT_KEY_PREFIX} prefix`);
    if (secret.length < 24) throw new OperatorError('an imported secret must be at least 24 characters');
    const key = this.#em.create(ApiKey, {
      id: uuidv7(),
      environment: await this.#environment(environmentId),
      name,
      secretHash: hashSecret(secret),
      lastFour: secret.slice(-4),
      generation: 'LEGACY',
      apiVersion: CURRENT_VERSION,
      revokedAt: null,
    });
    await this.#em.flush();
    return key;
  }

  async listKeys(environmentId: string): Promise<ApiKeyEntity[]> {
    return environmentKeys(this.#em, await this.#environment(environmentId));
  }

  async revokeKey(keyId: string): Promise<ApiKeyEntity> {
    const key = await this.#key(keyId);
    key.revokedAt ??= new Date();
    await this.#em.flush();
    return key;
  }

  async setKeyVersion(keyId: string, apiVersion: string): Promise<ApiKeyEntity> {
    checkVersion(apiVersion);
    const key = await this.#key(keyId);
    key.apiVersion = apiVersion;
    await this.#em.flush();
    return key;
  }

  async #environment(publicId: string): Promise<EnvironmentEntity> {
    const id = decodeId('environment', publicId);
    const environment = id && (await environmentById(this.#em, id));
    if (!environment) throw new OperatorError(`no environment ${publicId}`);
    return environment;
  }

  async #key(publicId: string): Promise<ApiKeyEntity> {
    const id = decodeId('apiKey', publicId);
    const key = id && (await apiKeyById(this.#em, id));
    if (!key) throw new OperatorError(`no API key ${publicId}`);
    return key;
  }
}

function checkVersion(version: string): void {
  if (!(SUPPORTED_VERSIONS as readonly string[]).includes(version)) throw new OperatorError(`API version must be one of ${SUPPORTED_VERSIONS.join(', ')}`);
}
