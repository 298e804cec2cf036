import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { configuredProviders, providerSetting, removeProviderSetting } from './environment.store.ts';
import { ProviderSetting } from './provider-setting.entity.ts';

const FIELD = 'providerSettings';

/** Upstream provider settings per environment, stored encrypted; read back only by the service. */
export class ProviderSettings {
  readonly #em: EntityManager;
  readonly #cipher: FieldCipher;

  constructor(em: EntityManager, cipher: FieldCipher) {
    this.#em = em;
    this.#cipher = cipher;
  }

  /** Creates or replaces the environment's settings for a provider. */
  async set(environmentId: string, provider: string, settings: Record<string, string>): Promise<void> {
    const existing = await providerSetting(this.#em, environmentId, provider);
    const id = existing?.id ?? uuidv7();
    const settingsEncrypted = this.#cipher.encrypt(FIELD, { id }, JSON.stringify(settings));
    if (existing) existing.settingsEncrypted = settingsEncrypted;
    else this.#em.create(ProviderSetting, { id, environment: environmentId, provider, settingsEncrypted });
    await this.#em.flush();
  }

  remove(environmentId: string, provider: string): Promise<boolean> {
    return removeProviderSetting(this.#em, environmentId, provider);
  }

  /** The environment's settings for a provider, decrypted; undefined when it is not configured. */
  async read(environmentId: string, provider: string): Promise<Record<string, string> | undefined> {
    const row = await providerSetting(this.#em, environmentId, provider);
    return row ? (JSON.parse(this.#cipher.decrypt(FIELD, row, row.settingsEncrypted)) as Record<string, string>) : undefined;
  }

  /** What is stored for a provider, without a value: the settings' names and when they were set; undefined when it is not configured. */
  async describe(environmentId: string, provider: string): Promise<{ provider: string; names: string[]; at: string } | undefined> {
    const row = await providerSetting(this.#em, environmentId, provider);
    if (!row) return undefined;
    const names = Object.keys(JSON.parse(this.#cipher.decrypt(FIELD, row, row.settingsEncrypted)) as Record<string, string>);
    return { provider, names, at: row.updatedAt.toISOString() };
  }

  /** Names of the providers configured for the environment, the most recently set first. */
  configured(environmentId: string): Promise<string[]> {
    return configuredProviders(this.#em, environmentId);
  }
}
