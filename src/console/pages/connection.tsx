import { api, queryClient } from '../api.ts';
import { href } from '../router.tsx';
import { ConfirmButton, ErrorNotice, Loaded, Status, Table, Time } from '../ui.tsx';

const refetch = () => queryClient.invalidateQueries();

/** One connection: where it stands, why it failed, its sync history, and what an operator can do about it. */
export function ConnectionPage({ profileId, connectionId }: { profileId: string; connectionId: string }) {
  const connections = api.useQuery('get', '/v1/profiles/{profileId}/connections', { params: { path: { profileId } } });
  const syncs = api.useQuery('get', '/v1/connections/{connectionId}/syncs', { params: { path: { connectionId }, query: { limit: 50 } } });
  const refresh = api.useMutation('post', '/v1/connections/{connectionId}/transactions/refresh', { onSuccess: refetch });
  const disconnect = api.useMutation('delete', '/v1/connections/{connectionId}', { onSuccess: refetch });
  const repair = api.useMutation('post', '/v1/users/sessions');
  const path = { params: { path: { connectionId } } };
  const connection = connections.data?.find((candidate) => candidate.id === connectionId);
  return (
    <>
      <p className="crumbs">
        <a href={href('profiles')}>Profiles</a> / <a href={href('profiles', profileId)}><code>{profileId}</code></a> /
      </p>
      <h1>{connection ? connection.institution.name : <code>{connectionId}</code>}</h1>
      <Loaded query={connections}>
        {() =>
          !connection ? (
            <p role="alert">No connection {connectionId} on this profile.</p>
          ) : (
            <dl className="facts">
              <dt>Id</dt><dd><code>{connection.id}</code></dd>
              <dt>Status</dt><dd><Status value={connection.status} /></dd>
              <dt>Error</dt><dd data-testid="connection-error">{[connection.errorCode, connection.lastSync?.errorMessage].filter(Boolean).join(': ') || '—'}</dd>
              <dt>Provider</dt><dd>{connection.provider}</dd>
              <dt>Institution</dt><dd>{connection.institution.name} (<code>{connection.institution.id}</code>)</dd>
              <dt>Last successful sync</dt><dd><Time at={connection.lastSyncedAt} /></dd>
              <dt>Consent ends</dt><dd><Time at={connection.consentExpiresAt} /></dd>
              <dt>Products</dt><dd>{connection.products.join(', ')}</dd>
            </dl>
          )
        }
      </Loaded>
      <div className="actions" role="group" aria-label="Actions">
        <button type="button" onClick={() => refresh.mutate(path)} disabled={refresh.isPending}>Refresh transactions</button>
        <button type="button" onClick={() => repair.mutate({ body: { userId: profileId } })} disabled={repair.isPending}>Make a repair link</button>
        <ConfirmButton label="Disconnect" question="Disconnect this connection? The end-user must link it again." onConfirm={() => disconnect.mutate(path)} />
      </div>
      <ErrorNotice error={refresh.error ?? disconnect.error ?? repair.error} />
      {refresh.isSuccess && <p role="status">Refresh queued.</p>}
      {disconnect.isSuccess && <p role="status">Disconnecting.</p>}
      {repair.data && (
        <div className="shown-once" role="status">
          <p>Send this link to the end-user; it opens the connect page in repair mode and works for 24 hours:</p>
          <code>{`${location.origin}/connector#token=${repair.data.token}&connection=${connectionId}`}</code>
        </div>
      )}
      <h2>Sync history</h2>
      <Loaded query={syncs}>
        {(list) => (
          <Table caption="Sync runs, newest first" head={['Started', 'Ended', 'Trigger', 'Outcome', 'Status', 'Error', 'Added', 'Modified', 'Removed', 'Provider request']}>
            {list.map((sync) => (
              <tr key={sync.id}>
                <td><Time at={sync.startedAt} /></td>
                <td><Time at={sync.endedAt} /></td>
                <td>{sync.trigger}</td>
                <td><Status value={sync.outcome} /></td>
                <td>{sync.status}</td>
                <td>{[sync.errorCode, sync.errorMessage].filter(Boolean).join(': ') || '—'}</td>
                <td>{sync.changes?.added ?? '—'}</td>
                <td>{sync.changes?.modified ?? '—'}</td>
                <td>{sync.changes?.removed ?? '—'}</td>
                <td>{sync.providerRequestId ? <code>{sync.providerRequestId}</code> : '—'}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
    </>
  );
}
