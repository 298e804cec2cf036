import type { components } from '../../../generated/rest.ts';
import { encodeId } from '../../lib/ids.ts';
import type { ConnectionSyncEntity } from './connection-sync.entity.ts';

/** A sync run as the contract shows it: its changes as one object, null when the run did not succeed. */
export function presentConnectionSync(run: ConnectionSyncEntity): components['schemas']['ConnectionSync'] {
  return {
    id: encodeId('connectionSync', run.id),
    connectionId: encodeId('connection', run.connection.id),
    trigger: run.trigger,
    startedAt: run.startedAt.toISOString(),
    endedAt: run.endedAt.toISOString(),
    outcome: run.outcome,
    status: run.status,
    errorCode: run.errorCode ?? null,
    errorMessage: run.errorMessage ?? null,
    providerRequestId: run.providerRequestId ?? null,
    changes: run.added == null || run.modified == null || run.removed == null ? null : { added: run.added, modified: run.modified, removed: run.removed },
  };
}
