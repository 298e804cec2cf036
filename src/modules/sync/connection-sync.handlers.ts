import { pageHeaders, pageOrCursor } from '../../api-kit/pagination.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import { notFound } from '../../errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { decodeId, encodeId } from '../../lib/ids.ts';
import { presentConnection } from '../connection/connection.presenter.ts';
import { ConnectionService } from '../connection/connection.service.ts';
import { connectionsOfProfile, keyOf } from '../connection/connection.store.ts';
import { isLiveProfile } from '../profile/profile.store.ts';
import { presentConnectionSync } from './connection-sync.presenter.ts';
import { latestSync, syncHistoryPage } from './connection-sync.store.ts';

/**
 * REST handlers for a connection's sync history (/v1/connections/{id}/syncs: API key, or as its
 * profile) and a profile's connections each with its last run (/v1/profiles/{id}/connections).
 */
export function connectionSyncHandlers({ cipher }: { cipher: FieldCipher }): Handlers<'listConnectionSyncs' | 'listProfileConnections'> {
  return {
    async listProfileConnections({ params, credential, em }) {
      const profileId = decodeId('profile', params.profileId);
      if (!profileId || !(await isLiveProfile(em, credential.environmentId, profileId))) throw notFound('Profile');
      const connections = await connectionsOfProfile(em, profileId);
      const body = await Promise.all(
        connections.map(async (connection) => {
          const last = await latestSync(em, keyOf(connection));
          return { ...presentConnection(connection), lastSync: last ? presentConnectionSync(last) : null };
        }),
      );
      return { status: 200, body };
    },
    async listConnectionSyncs({ params, query, credential, em }) {
      // An API key and an operator reach their environment's connections; Basic Auth and a session token their profile's only.
      const scope = credential.kind === 'apiKey' || credential.kind === 'operator' ? { environmentId: credential.environmentId } : { environmentId: credential.environmentId, profileId: credential.profileId };
      const connection = await new ConnectionService(em, cipher, scope).get(params.connectionId);
      const { from, limit } = pageOrCursor(query, 'connectionSync');
      const { items, total, page, nextAfter } = await syncHistoryPage(em, keyOf(connection), from, limit);
      return { status: 200, body: items.map(presentConnectionSync), headers: pageHeaders(page, limit, total, items.length, nextAfter && encodeId('connectionSync', nextAfter)) };
    },
  };
}
