import { AppError } from '../../errors.ts';
import type { ProviderDirectory } from '../../providers/directory.ts';
import type { Capability, Provider } from '../../providers/provider.ts';
import { ProviderBusy, ProviderError } from '../../providers/provider-errors.ts';
import type { ConnectionEntity, Product } from './connection.entity.ts';

const WHAT: Record<Capability, string> = {
  ACCOUNT_NUMBERS: 'ACH account numbers',
  BALANCE_REFRESH: 'real-time balance refresh',
  TRANSACTIONS_REFRESH: 'on-demand transactions refresh',
  WEBHOOKS: 'webhooks',
  INVESTMENTS: 'investment holdings',
  INVESTMENT_TRANSACTIONS: 'investment transactions',
  LIABILITIES: 'liability details',
  ACCOUNT_OWNERS: 'account owners',
  STATEMENTS: 'statements',
};

/**
 * The connection's provider, when it offers `capability`; a 403 that says why otherwise (a REST
 * operation the provider cannot do is refused up front, never a 500 from deep inside a job).
 */
export async function providerOffering(providers: ProviderDirectory, connection: ConnectionEntity, capability: Capability): Promise<Provider> {
  const provider = await providers.get(connection.provider, connection.environment.id);
  if (!provider.capabilities.has(capability)) {
    throw new AppError(403, 'CAPABILITY_NOT_OFFERED', `The connection's provider (${connection.provider}) does not offer ${WHAT[capability]}`, {
      instruction: `${WHAT[capability]} is not available for ${connection.provider} connections; see the provider capabilities in the README.`,
    });
  }
  return provider;
}

/**
 * A provider failure met while the caller waits (linking, ACH numbers) as the REST answer: a 503 with
 * `Retry-After` (the upstream's own delay, else 30 s). The upstream refusing Tributary's own request
 * (`ERROR_SERVICE`) is returned as is, like anything else: a 500 whose errorId leads to the logged
 * failure (with the upstream's request id), since retrying cannot help.
 */
export function upstreamFailure(error: unknown, doing: string): unknown {
  if (!(error instanceof ProviderError) && !(error instanceof ProviderBusy)) return error;
  if (error instanceof ProviderError && error.status === 'ERROR_SERVICE') return error;
  const seconds = String(error.retryAfterSeconds ?? 30);
  return new AppError(503, 'PROVIDER_UNAVAILABLE', `The provider could not ${doing}: ${error.message}`, {
    instruction: `Retry in ${seconds} seconds; if it persists, the operator can check the provider settings.`,
    headers: { 'Retry-After': seconds },
  });
}

/**
 * Refuses an operation on a connection that cannot serve it now: one in an error state or
 * disconnected (403, `REPAIR_REQUIRED` when the end-user can fix it), or made without `product`
 * (403 `PRODUCT_NOT_ENABLED`). `doing` names the operation in the message.
 */
export function assertServes(connection: ConnectionEntity, product: Product, doing: string): void {
  const { status } = connection;
  if (status.startsWith('ERROR_') || status === 'DISCONNECTING' || status === 'DISCONNECTED') {
    throw new AppError(403, status === 'ERROR_REPAIRABLE' ? 'REPAIR_REQUIRED' : 'CONNECTION_NOT_USABLE', `The connection is ${status}; ${doing} is not possible`, {
      instruction: status === 'ERROR_REPAIRABLE' ? 'Have the end-user reconnect the institution, then retry.' : 'Retry once the connection is SYNCED again.',
    });
  }
  if (!connection.products.includes(product)) {
    throw new AppError(403, 'PRODUCT_NOT_ENABLED', `The connection is not enabled with the ${product} product`, { instruction: `Connect the institution again with the ${product} product enabled.` });
  }
}
