import { forbidden } from '../../errors.ts';
import type { ProviderDirectory } from '../../providers/directory.ts';
import type { Capability, Provider } from '../../providers/provider.ts';
import type { ConnectionEntity } from './connection.entity.ts';

const WHAT: Record<Capability, string> = {
  ACCOUNT_NUMBERS: 'ACH account numbers',
  BALANCE_REFRESH: 'real-time balance refresh',
  TRANSACTIONS_REFRESH: 'on-demand transactions refresh',
  WEBHOOKS: 'webhooks',
};

/**
 * The connection's provider, when it offers `capability`; a 403 that says why otherwise (a REST
 * operation the provider cannot do is refused up front, never a 500 from deep inside a job).
 */
export async function providerOffering(providers: ProviderDirectory, connection: ConnectionEntity, capability: Capability): Promise<Provider> {
  const provider = await providers.get(connection.provider, connection.environment.id);
  if (!provider.capabilities.has(capability)) {
    throw forbidden(`The connection's provider (${connection.provider}) does not offer ${WHAT[capability]}`, {
      instruction: `${WHAT[capability]} is not available for ${connection.provider} connections; see the provider capabilities in the README.`,
    });
  }
  return provider;
}
