import type { components } from '../../../generated/rest.ts';
import { encodeId } from '../../lib/ids.ts';
import type { ConnectionEntity } from './connection.entity.ts';

/** A connection as the REST contract (and its events) show it. Credentials and sync state stay inside. */
export function presentConnection(connection: ConnectionEntity): components['schemas']['Connection'] {
  return {
    id: encodeId('connection', connection.id),
    profileId: encodeId('profile', connection.profile.id),
    provider: connection.provider as components['schemas']['ProviderName'],
    institution: { id: connection.institutionId, name: connection.institutionName },
    status: connection.status,
    products: connection.products,
    lastSyncedAt: connection.lastSyncedAt?.toISOString() ?? null,
    metadata: connection.metadata ?? null,
    at: connection.createdAt.toISOString(),
  };
}
