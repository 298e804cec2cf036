import type { Provider } from './provider.ts';

/** Builds a provider from an environment's settings (the upstream's keys, which of its environments). */
export interface ProviderFactory {
  name: string;
  /** Checks settings an operator typed; returns what is wrong, or the settings to store. */
  parseSettings(input: Record<string, string | undefined>, environmentMode: 'SANDBOX' | 'PRODUCTION'): { settings: Record<string, string> } | { problem: string };
  create(settings: Record<string, string>): Provider | Promise<Provider>;
}

export interface DirectoryOptions {
  /** Providers that need no settings (the sandbox). */
  builtIn: Provider[];
  factories: ProviderFactory[];
  /** The environment's stored settings for a provider, or undefined. */
  settingsOf(environmentId: string, provider: string): Promise<Record<string, string> | undefined>;
  /** The providers configured for an environment, most recently set first. */
  configured(environmentId: string): Promise<string[]>;
  /** How long a built provider is reused before its settings are read again. */
  ttlMs?: number;
}

/** A connection names a provider that this environment has no settings for (any more). */
export class ProviderNotConfigured extends Error {}

/**
 * Finds the provider for a connection or an environment. Built-in providers are shared; configured
 * ones are built per environment from its settings and reused for a minute, so an operator's
 * `providers set` takes effect within a minute on every instance.
 */
export class ProviderDirectory {
  readonly #builtIn: Map<string, Provider>;
  readonly #factories: Map<string, ProviderFactory>;
  readonly #options: DirectoryOptions;
  readonly #built = new Map<string, { provider: Promise<Provider>; until: number }>();

  constructor(options: DirectoryOptions) {
    this.#options = options;
    this.#builtIn = new Map(options.builtIn.map((provider) => [provider.name, provider]));
    this.#factories = new Map(options.factories.map((factory) => [factory.name, factory]));
  }

  async get(name: string, environmentId: string): Promise<Provider> {
    const builtIn = this.#builtIn.get(name);
    if (builtIn) return builtIn;
    const key = `${environmentId}:${name}`;
    const cached = this.#built.get(key);
    if (cached && cached.until > Date.now()) return cached.provider;
    const provider = this.#build(name, environmentId);
    this.#built.set(key, { provider, until: Date.now() + (this.#options.ttlMs ?? 60_000) });
    provider.catch(() => this.#built.delete(key));
    return provider;
  }

  /** The providers configured for an environment (built-in ones aside), most recently set first. */
  configured(environmentId: string): Promise<string[]> {
    return this.#options.configured(environmentId);
  }

  /** The provider the connect page opens for an environment: its newest configured one, else the sandbox. */
  async linkProviderName(environmentId: string): Promise<string> {
    const [newest] = await this.#options.configured(environmentId);
    return newest ?? 'sandbox';
  }

  async #build(name: string, environmentId: string): Promise<Provider> {
    const factory = this.#factories.get(name);
    const settings = factory && (await this.#options.settingsOf(environmentId, name));
    if (!factory || !settings) throw new ProviderNotConfigured(`the provider ${name} is not configured for this environment`);
    return factory.create(settings);
  }
}
