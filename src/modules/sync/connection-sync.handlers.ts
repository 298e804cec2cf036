import { pageHeaders, pageOrCursor } from '../../api-kit/pagination.ts';
import type { Handlers } from '../../api-kit/rest-handler.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { encodeId } from '../../lib/ids.ts';
import { ConnectionService } from '../connection/connection.service.ts';
import { keyOf } from '../connection/connection.store.ts';
import { presentConnectionSync } from './connection-sync.presenter.ts';
import { syncHistoryPage } from './connection-sync.store.ts';

/** REST handlers for /v1/connections/{id}/syncs: a connection's sync history (API key, or as its profile). */
export function connectionSyncHandlers({ cipher }: { cipher: FieldCipher }): Handlers<'listConnectionSyncs'> {
  return {
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
