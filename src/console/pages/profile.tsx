import { api } from '../api.ts';
import { href } from '../router.tsx';
import { Loaded, Status, Table, Time } from '../ui.tsx';

/** One profile and its connections: status, why it failed, provider, institution, last sync, consent end, products. */
export function ProfilePage({ profileId }: { profileId: string }) {
  const profile = api.useQuery('get', '/v1/profiles/{profileId}', { params: { path: { profileId } } });
  const connections = api.useQuery('get', '/v1/profiles/{profileId}/connections', { params: { path: { profileId } } });
  return (
    <>
      <p className="crumbs"><a href={href('profiles')}>Profiles</a> /</p>
      <h1><code>{profileId}</code></h1>
      <Loaded query={profile}>
        {(data) => (
          <dl className="facts">
            <dt>Uuid</dt><dd><code>{data.uuid}</code></dd>
            <dt>Name</dt><dd>{data.name ?? '—'}</dd>
            <dt>Metadata</dt><dd><code>{data.metadata ? JSON.stringify(data.metadata) : '—'}</code></dd>
            <dt>Created</dt><dd><Time at={data.at} /></dd>
          </dl>
        )}
      </Loaded>
      <h2>Connections</h2>
      <Loaded query={connections}>
        {(list) =>
          list.length === 0 ? (
            <p>No connection.</p>
          ) : (
            <Table caption="Connections" head={['Institution', 'Status', 'Error', 'Provider', 'Last successful sync', 'Consent ends', 'Products']}>
              {list.map((connection) => (
                <tr key={connection.id}>
                  <th scope="row"><a href={href('profiles', profileId, 'connections', connection.id)}>{connection.institution.name}</a></th>
                  <td><Status value={connection.status} /></td>
                  <td>{[connection.errorCode, connection.lastSync?.errorMessage].filter(Boolean).join(': ') || '—'}</td>
                  <td>{connection.provider}</td>
                  <td><Time at={connection.lastSyncedAt} /></td>
                  <td><Time at={connection.consentExpiresAt} /></td>
                  <td>{connection.products.join(', ')}</td>
                </tr>
              ))}
            </Table>
          )
        }
      </Loaded>
    </>
  );
}
