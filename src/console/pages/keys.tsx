import { api, queryClient } from '../api.ts';
import { ConfirmButton, ErrorNotice, Field, Loaded, onSubmit, ShownOnce, Status, Table, Time } from '../ui.tsx';

const invalidate = () => queryClient.invalidateQueries({ queryKey: ['get', '/v1/api-keys'] });

/** The environment's API keys: a new key's secret is shown once; a revoked key stops working at once. */
export function KeysPage() {
  const keys = api.useQuery('get', '/v1/api-keys');
  const create = api.useMutation('post', '/v1/api-keys', { onSuccess: invalidate });
  const revoke = api.useMutation('delete', '/v1/api-keys/{keyId}', { onSuccess: invalidate });
  return (
    <>
      <h1>API keys</h1>
      <form className="inline" onSubmit={onSubmit((field) => create.mutate({ body: { name: field('name') } }))}>
        <Field label="New key's name">{(id) => <input id={id} name="name" required maxLength={200} />}</Field>
        <button type="submit" className="primary" disabled={create.isPending}>Create key</button>
      </form>
      <ErrorNotice error={create.error ?? revoke.error} />
      {create.data && <ShownOnce label={`Secret of ${create.data.name}`} secret={create.data.secret} />}
      <Loaded query={keys}>
        {(list) => (
          <Table caption="Keys" head={['Name', 'Id', 'Ends with', 'API version', 'Created', 'Status', '']}>
            {list.map((key) => (
              <tr key={key.id}>
                <th scope="row">{key.name}</th>
                <td><code>{key.id}</code></td>
                <td><code>…{key.lastFour}</code></td>
                <td>{key.apiVersion}</td>
                <td><Time at={key.at} /></td>
                <td><Status value={key.revokedAt ? 'REVOKED' : 'ACTIVE'} /></td>
                <td>{!key.revokedAt && <ConfirmButton label="Revoke" question={`Revoke ${key.name}?`} onConfirm={() => revoke.mutate({ params: { path: { keyId: key.id } } })} />}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
    </>
  );
}
