import type { ProviderFactory } from '../directory.ts';
import type { PlaidEnv } from './plaid-client.ts';

export interface PlaidFactoryOptions {
  /** Plaid Link's script for the connect page (tests serve a stand-in). */
  linkScriptUrl: string;
  /** Extra CA certificates (PEM file) trusted for Plaid's API. */
  caFile?: string;
}

/**
 * Plaid for an environment, from the settings `npm run cli -- providers set <env> plaid` stored:
 * `clientId`, `secret`, `plaidEnv` (sandbox|production) and, for tests or a proxy, `baseUrl`.
 * A PRODUCTION environment must use Plaid's production.
 */
export function plaidFactory(options: PlaidFactoryOptions): ProviderFactory {
  return {
    name: 'plaid',
    parseSettings(input, environmentMode) {
      const { clientId, secret, plaidEnv, baseUrl } = input;
      if (!clientId || !secret) return { problem: 'plaid needs --client-id and --secret' };
      if (plaidEnv !== 'sandbox' && plaidEnv !== 'production') return { problem: '--plaid-env must be sandbox or production' };
      if (environmentMode === 'PRODUCTION' && plaidEnv !== 'production') return { problem: 'a PRODUCTION environment must use --plaid-env production' };
      if (baseUrl && !/^https:\/\//.test(baseUrl)) return { problem: '--base-url must be an https:// URL' };
      return { settings: { clientId, secret, plaidEnv, ...(baseUrl ? { baseUrl } : {}) } };
    },
    async create(settings) {
      // Plaid's SDK is ~10 MB of JavaScript (some 30 MB of heap once loaded): it loads when an
      // environment first uses Plaid, not in every process at start.
      const [{ PLAID_ENVS, plaidClient }, { PlaidProvider }] = await Promise.all([import('./plaid-client.ts'), import('./plaid-provider.ts')]);
      const env = settings.plaidEnv as PlaidEnv;
      const client = plaidClient({ clientId: settings.clientId!, secret: settings.secret!, basePath: settings.baseUrl ?? PLAID_ENVS[env], caFile: options.caFile });
      return new PlaidProvider({ client, env, linkScriptUrl: options.linkScriptUrl });
    },
  };
}
