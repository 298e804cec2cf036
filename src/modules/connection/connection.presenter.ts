import type { components } from '../../../generated/rest.ts';
import { encodeId } from '../../lib/ids.ts';
import type { ConnectionEntity, SyncChanges } from './connection.entity.ts';

/** A connection as the REST contract (and its events) show it. Credentials and sync state stay inside. */
export function presentConnection(connection: ConnectionEntity): components['schemas']['Connection'] {
  return {
    id: encodeId('connection', connection.id),
    profileId: encodeId('profile', connection.profile.id),
    provider: connection.provider as components['schemas']['ProviderName'],
    institution: { id: connection.institutionId, name: connection.institutionName },
    status: connection.status,
    errorCode: connection.errorCode ?? null,
    products: connection.products,
    lastSyncedAt: connection.lastSyncedAt?.toISOString() ?? null,
    consentExpiresAt: connection.consentExpiresAt?.toISOString() ?? null,
    metadata: connection.metadata ?? null,
    at: connection.createdAt.toISOString(),
  };
}

/**
 * A finished sync's changes as its `connection.synced.successful` metadata carries them: the counts,
 * and the public ids of the transactions (the first of each kind kept by the walk; `truncated` when
 * some were left out, so the reader re-queries instead).
 */
export function presentSyncChanges({ added, modified, removed, ids = { added: [], modified: [], removed: [] } }: SyncChanges) {
  const publicIds = (stored: string[]) => stored.map((id) => encodeId('transaction', id));
  return {
    changes: { added, modified, removed },
    transactions: {
      added: publicIds(ids.added),
      modified: publicIds(ids.modified),
      removed: publicIds(ids.removed),
      truncated: ids.added.length < added || ids.modified.length < modified || ids.removed.length < removed,
    },
  };
}
