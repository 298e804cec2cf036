import { useState } from 'react';
import { api, queryClient, type Schemas } from '../api.ts';
import { ConfirmButton, ErrorNotice, Field, Loaded, onSubmit, ShownOnce, Status, Table, Time } from '../ui.tsx';

const ROLES: Array<Schemas['OperatorRole']> = ['VIEWER', 'DEVELOPER', 'OWNER'];

const invalidate = () => queryClient.invalidateQueries({ queryKey: ['get', '/v1/operators'] });

/**
 * The environment's operators, for its owners: add one (their password shown once), change or take
 * away their role here, disable or enable them, give them a new password (TOTP off, shown once),
 * require TOTP. The API enforces who may do what; the signed-in operator's own row has no actions.
 */
export function OperatorsPage({ environmentId, selfId }: { environmentId: string; selfId: string }) {
  const operators = api.useQuery('get', '/v1/operators', { params: { query: { limit: 100 } } });
  const [shown, setShown] = useState<{ label: string; secret: string }>();
  const create = api.useMutation('post', '/v1/operators', {
    onSuccess: (created) => {
      setShown({ label: `Password of ${created.operator.email}`, secret: created.password });
      return invalidate();
    },
  });
  const update = api.useMutation('patch', '/v1/operators/{operatorId}', { onSuccess: invalidate });
  const reset = api.useMutation('post', '/v1/operators/{operatorId}/password-reset', {
    onSuccess: (done) => {
      setShown({ label: `New password of ${done.operator.email}`, secret: done.password });
      return invalidate();
    },
  });
  const change = (operatorId: string, body: Schemas['OperatorUpdate']) => update.mutate({ params: { path: { operatorId } }, body });
  return (
    <>
      <h1>Operators</h1>
      <form
        className="inline"
        onSubmit={onSubmit((field) => create.mutate({ body: { email: field('email'), role: field('role') as Schemas['OperatorRole'] } }))}
      >
        <Field label="New operator's email">{(id) => <input id={id} name="email" type="email" required maxLength={254} autoComplete="off" />}</Field>
        <Field label="Role">
          {(id) => (
            <select id={id} name="role" defaultValue="VIEWER">
              {ROLES.map((role) => <option key={role} value={role}>{role.toLowerCase()}</option>)}
            </select>
          )}
        </Field>
        <button type="submit" className="primary" disabled={create.isPending}>Add operator</button>
      </form>
      <ErrorNotice error={create.error ?? update.error ?? reset.error} />
      {shown && <ShownOnce label={shown.label} secret={shown.secret} />}
      <Loaded query={operators}>
        {(list) => (
          <Table caption="Operators with a role here" head={['Email', 'Role here', 'Status', 'TOTP', 'Since', '']}>
            {list.map((operator) => {
              const own = operator.roles.find((grant) => grant.environmentId === environmentId);
              const everywhere = operator.roles.find((grant) => grant.environmentId === null);
              const self = operator.id === selfId;
              return (
                <tr key={operator.id}>
                  <th scope="row">{operator.email}{self && <span className="muted"> (you)</span>}</th>
                  <td>
                    {everywhere && <span>{everywhere.role.toLowerCase()} (every environment)</span>}
                    {own && !everywhere && !self && (
                      <select aria-label={`Role of ${operator.email}`} value={own.role} disabled={update.isPending} onChange={(event) => change(operator.id, { role: event.target.value as Schemas['OperatorRole'] })}>
                        {ROLES.map((role) => <option key={role} value={role}>{role.toLowerCase()}</option>)}
                      </select>
                    )}
                    {own && !everywhere && self && own.role.toLowerCase()}
                  </td>
                  <td><Status value={operator.disabled ? 'DISABLED' : 'ACTIVE'} /></td>
                  <td>{operator.totpEnabled ? 'on' : 'off'}{operator.totpRequired && ', required'}</td>
                  <td><Time at={operator.createdAt} /></td>
                  <td>
                    {!self && (
                      <>
                        {operator.disabled ? (
                          <button type="button" onClick={() => change(operator.id, { disabled: false })}>Enable</button>
                        ) : (
                          <ConfirmButton label="Disable" question={`Disable ${operator.email}? Their sessions end now.`} onConfirm={() => change(operator.id, { disabled: true })} />
                        )}{' '}
                        <button type="button" onClick={() => change(operator.id, { totpRequired: !operator.totpRequired })}>
                          {operator.totpRequired ? 'Stop requiring TOTP' : 'Require TOTP'}
                        </button>{' '}
                        <ConfirmButton
                          label="Reset password"
                          question={`Give ${operator.email} a new password? Their TOTP goes off and their sessions end.`}
                          onConfirm={() => reset.mutate({ params: { path: { operatorId: operator.id } } })}
                        />
                        {own && !everywhere && (
                          <>
                            {' '}
                            <ConfirmButton label="Remove" question={`Take away ${operator.email}'s role here?`} onConfirm={() => change(operator.id, { role: null })} />
                          </>
                        )}
                      </>
                    )}
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
      </Loaded>
    </>
  );
}
